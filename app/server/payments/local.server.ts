// The local checkout stand-in (APP_ENV=local only): a checkout page of the app itself
// (/local-checkout/{id}) with Pay, Fail and Cancel. Like a real gateway it keeps its own record of
// each order (a file per order in <dataDir>/payments/, so every process sees it), signs the webhook
// it sends and the query it returns the borrower with, and answers questions about an order. It
// settles what it captured the next working day, less its fee and the fee's GST, and writes each
// day's settlement report in Razorpay's columns to <dataDir>/settlements/.
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { indiaTime, todayIST } from "../../domain/india-date.ts";
import { addWorkingDays, type IsoDate } from "../../domain/loan-math.ts";
import { type SettlementRecord, settlementCsv, standInCharges, type StatementFile } from "../../domain/books/statements.ts";
import { hmac, safeEqual } from "../crypto.server.ts";
import { jsonRecords, type LocalCapture, writeStatements } from "../stand-in.server.ts";
import type { PaymentEvent, PaymentGateway } from "./gateway.server.ts";

/** A 12-digit UPI reference number for a stand-in payment, the same every time for the same payment. */
const rrnOf = (paymentId: string) =>
  String(BigInt(`0x${createHash("sha256").update(paymentId).digest("hex").slice(0, 15)}`) % 10n ** 12n).padStart(12, "0");

export interface LocalOrder {
  id: string;
  reference: string;
  amountPaise: number;
  description: string;
  callbackUrl: string;
  expiresAt: string;
  state: "created" | "paid" | "failed" | "cancelled";
  paymentId: string | null;
  paidPaise: number | null;
  paidAt: string | null;
  failureReason: string | null;
}

export type Outcome = "pay" | "fail" | "cancel";

export interface LocalCheckoutOptions {
  /** The stand-in's fee in basis points of each payment (18% GST on top); 2% when not given. */
  feeBps?: number;
  /** The holidays in force (settlement is the next working day). */
  holidays?: () => readonly IsoDate[];
  /** What the other local stand-ins captured that this gateway settles too (autopay debits). */
  moreCaptures?: () => Promise<LocalCapture[]>;
}

export interface LocalCheckout extends PaymentGateway {
  readonly name: "local";
  order(id: string): Promise<LocalOrder | null>;
  /**
   * The borrower's choice on the checkout page: the order's new state, the signed webhook the
   * gateway sends about it, and the signed query the borrower returns with. A second choice on a
   * finished order changes nothing (it answers with the first one's).
   */
  complete(
    id: string,
    outcome: Outcome,
  ): Promise<{ order: LocalOrder; webhook: { body: string; headers: Headers }; returnUrl: string } | null>;
}

const ORDER_ID = /^lco_[A-Za-z0-9_-]{16,40}$/;

/** The stand-in's signing secret, derived from the session secret (tests sign forged and mismatched webhooks with it). */
export const localCheckoutSecret = (sessionSecret: string) => hmac(sessionSecret, "local-checkout-webhooks");

function eventOf(o: LocalOrder): PaymentEvent {
  const base = { providerOrderId: o.id, reference: o.reference, providerPaymentId: o.paymentId, failureReason: o.failureReason };
  if (o.state === "paid")
    return {
      ...base,
      state: "captured",
      amountPaise: o.paidPaise,
      at: o.paidAt ? new Date(o.paidAt) : null,
      // The stand-in pays by UPI; its bank reference (RRN) is 12 digits derived from the payment id.
      method: { kind: "upi", detail: o.paymentId ? rrnOf(o.paymentId) : null },
    };
  if (o.state === "failed") return { ...base, state: "failed", amountPaise: null, at: null };
  if (o.state === "cancelled") return { ...base, state: "cancelled", amountPaise: null, at: null };
  return { ...base, state: "pending", amountPaise: null, at: null };
}

/**
 * The stand-in's settlement reports up to `today`: each capture settles the working day after its
 * India date, one settlement (and one report) per day, the fee and its GST kept back.
 */
export function localSettlementReports(
  captures: readonly LocalCapture[],
  { today, feeBps, holidays }: { today: IsoDate; feeBps: number; holidays: readonly IsoDate[] },
): StatementFile[] {
  const byDay = new Map<IsoDate, LocalCapture[]>();
  for (const c of captures) {
    const day = addWorkingDays(todayIST(new Date(c.capturedAt)), 1, holidays);
    if (day > today) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), c]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, list]) => {
      const compact = day.replaceAll("-", "");
      const settledAt = Math.floor(indiaTime(day, "10:00").getTime() / 1000);
      const records: SettlementRecord[] = [...list]
        .sort((a, b) => (a.capturedAt < b.capturedAt ? -1 : a.capturedAt > b.capturedAt ? 1 : a.paymentId < b.paymentId ? -1 : 1))
        .map((c) => {
          const { fee, tax } = standInCharges(c.amountPaise, feeBps);
          return {
            entity_id: c.paymentId,
            type: "payment",
            debit: 0,
            credit: c.amountPaise - fee,
            amount: c.amountPaise,
            currency: "INR",
            fee,
            tax,
            on_hold: false,
            settled: true,
            created_at: Math.floor(Date.parse(c.capturedAt) / 1000),
            settled_at: settledAt,
            settlement_id: `lsetl_${compact}`,
            posted_at: null,
            credit_type: "default",
            description: c.description,
            notes: null,
            payment_id: null,
            settlement_utr: `LOCALSETL${compact}`,
            order_id: c.orderId,
            order_receipt: null,
            method: c.method,
          };
        });
      return { name: `local-settlement-${day}.csv`, csv: settlementCsv(records) };
    });
}

export function createLocalCheckout(dataDir: string, now: () => Date, secret: string, options: LocalCheckoutOptions = {}): LocalCheckout {
  const records = jsonRecords<LocalOrder>(path.join(dataDir, "payments"), ORDER_ID);
  const { read, write } = records;
  return {
    name: "local",
    async createCheckout(order) {
      const id = `lco_${randomBytes(15).toString("base64url")}`;
      await records.create({
        id,
        reference: order.reference,
        amountPaise: order.amountPaise,
        description: order.description,
        callbackUrl: order.callbackUrl,
        expiresAt: order.expiresAt.toISOString(),
        state: "created",
        paymentId: null,
        paidPaise: null,
        paidAt: null,
        failureReason: null,
      });
      return { providerOrderId: id, checkoutUrl: `/local-checkout/${id}` };
    },
    async fetch(id) {
      const o = await read(id);
      if (!o) throw new Error(`the local checkout has no order ${id}`);
      return eventOf(o);
    },
    order: read,
    async complete(id, outcome) {
      let o = await read(id);
      if (!o) return null;
      if (o.state === "created") {
        const at = now();
        const expired = at.getTime() > Date.parse(o.expiresAt);
        o =
          outcome === "pay" && !expired
            ? {
                ...o,
                state: "paid",
                paymentId: `lpay_${randomBytes(12).toString("base64url")}`,
                paidPaise: o.amountPaise,
                paidAt: at.toISOString(),
              }
            : outcome === "fail"
              ? { ...o, state: "failed", failureReason: "The bank declined the payment (local checkout: Fail)" }
              : { ...o, state: "cancelled", failureReason: expired ? "The order expired" : "You stopped the payment" };
        await write(o);
      }
      const event = eventOf(o);
      const body = JSON.stringify({ event: `payment.${event.state}`, payload: { ...o } });
      const status = o.state;
      const query = new URLSearchParams({ order_id: o.id, reference: o.reference, status, payment_id: o.paymentId ?? "" });
      query.set("signature", hmac(secret, `${o.id}|${o.reference}|${status}|${o.paymentId ?? ""}`));
      return {
        order: o,
        webhook: { body, headers: new Headers({ "content-type": "application/json", "x-local-signature": hmac(secret, body) }) },
        returnUrl: `${o.callbackUrl}?${query}`,
      };
    },
    webhook(rawBody, headers) {
      const signature = headers.get("x-local-signature") ?? "";
      if (!safeEqual(signature, hmac(secret, rawBody))) return "bad_signature";
      try {
        const parsed = JSON.parse(rawBody) as { payload?: LocalOrder };
        if (!parsed.payload || typeof parsed.payload.id !== "string") return "ignored";
        return eventOf(parsed.payload);
      } catch {
        return "ignored";
      }
    },
    async settlementReports() {
      const paid = (await records.list()).flatMap((o): LocalCapture[] =>
        o.state === "paid" && o.paymentId && o.paidAt && o.paidPaise !== null
          ? [
              {
                paymentId: o.paymentId,
                orderId: o.id,
                amountPaise: o.paidPaise,
                capturedAt: o.paidAt,
                method: "upi",
                description: o.description,
              },
            ]
          : [],
      );
      const files = localSettlementReports([...paid, ...((await options.moreCaptures?.()) ?? [])], {
        today: todayIST(now()),
        feeBps: options.feeBps ?? 200,
        holidays: options.holidays?.() ?? [],
      });
      await writeStatements(path.join(dataDir, "settlements"), files);
      return files;
    },
    callback(query) {
      const order = query.get("order_id");
      const reference = query.get("reference");
      const status = query.get("status");
      const paymentId = query.get("payment_id") ?? "";
      const signature = query.get("signature");
      if (!order || !reference || !status || !signature) return "ignored";
      if (!safeEqual(signature, hmac(secret, `${order}|${reference}|${status}|${paymentId}`))) return "bad_signature";
      // Like Razorpay's return, it does not carry the amount: the order is asked about before anything is applied.
      const state = status === "paid" ? "captured" : status === "failed" ? "failed" : status === "cancelled" ? "cancelled" : "pending";
      return {
        providerOrderId: order,
        reference,
        providerPaymentId: paymentId || null,
        state,
        amountPaise: null,
        at: null,
        failureReason: null,
      };
    },
  };
}
