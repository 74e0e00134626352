// The local mandate stand-in (APP_ENV=local only): an authorisation page of the app itself
// (/local-mandate/{id}) with Approve and Reject, standing where the bank's e-NACH or UPI AutoPay
// page would. Like a real provider it keeps its own record of each mandate (a file each in
// <dataDir>/mandates/), signs the webhook it sends and the query it returns the borrower with, and
// answers questions about a mandate.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { hmac, safeEqual } from "../crypto.server.ts";
import { jsonRecords, type LocalCapture } from "../stand-in.server.ts";
import type { DebitEvent, MandateEvent, MandateProvider } from "./provider.server.ts";

export interface LocalMandate {
  id: string;
  reference: string;
  kind: string;
  maxAmountPaise: number;
  endDate: string;
  description: string;
  accountMasked: string;
  callbackUrl: string;
  state: "created" | "active" | "rejected" | "cancelled";
  reason: string | null;
  changedAt: string | null;
}

export type MandateOutcome = "approve" | "reject";

/** A debit presented to the stand-in: answered `debitSeconds` after it was presented. */
interface LocalDebit {
  id: string;
  key: string;
  reference: string;
  mandateId: string;
  amountPaise: number;
  presentedAt: string;
  /** Decided when presented: an account ending 1111 bounces, a mandate no longer active fails. */
  outcome: "captured" | "failed";
  reason: string | null;
}

/** A debit from an account ending in this bounces at the local stand-in. */
export const LOCAL_BOUNCES = "1111";

export interface LocalMandates extends MandateProvider {
  readonly name: "local";
  /** The debits it has captured by now: the local gateway stand-in settles them with its own payments. */
  captures(): Promise<LocalCapture[]>;
  mandate(id: string): Promise<LocalMandate | null>;
  /**
   * The borrower's choice on the authorisation page: the mandate's new state, the signed webhook the
   * provider sends about it, and the signed query the borrower returns with. A second choice on a
   * mandate already answered changes nothing (it answers with the first one's).
   */
  complete(
    id: string,
    outcome: MandateOutcome,
  ): Promise<{ mandate: LocalMandate; webhook: { body: string; headers: Headers }; returnUrl: string } | null>;
}

const MANDATE_ID = /^lmd_[A-Za-z0-9_-]{16,40}$/;
const DEBIT_ID = /^ldd_[0-9a-f-]{36}$/;

/** The stand-in's signing secret, derived from the session secret (tests sign forged webhooks with it). */
export const localMandateSecret = (sessionSecret: string) => hmac(sessionSecret, "local-mandate-webhooks");

const STATE: Record<LocalMandate["state"], MandateEvent["state"]> = {
  created: "pending",
  active: "active",
  rejected: "rejected",
  cancelled: "cancelled",
};

const eventOf = (m: LocalMandate): MandateEvent => ({
  providerMandateId: m.id,
  reference: m.reference,
  state: STATE[m.state],
  reason: m.reason,
  at: m.changedAt ? new Date(m.changedAt) : null,
});

export function createLocalMandates(
  dataDir: string,
  now: () => Date,
  { secret, debitSeconds }: { secret: string; debitSeconds: number },
): LocalMandates {
  const records = jsonRecords<LocalMandate>(path.join(dataDir, "mandates"), MANDATE_ID);
  const debits = jsonRecords<LocalDebit>(path.join(dataDir, "mandate-debits"), DEBIT_ID);
  const debitEvent = (d: LocalDebit): DebitEvent => {
    const answerAt = Date.parse(d.presentedAt) + debitSeconds * 1000;
    const base = { providerPaymentId: d.id, reference: d.reference, amountPaise: d.amountPaise };
    if (now().getTime() < answerAt) return { ...base, state: "pending", reason: null, at: null };
    return { ...base, state: d.outcome, reason: d.reason, at: new Date(answerAt) };
  };
  const signedWebhook = (m: LocalMandate) => {
    const body = JSON.stringify({ event: `mandate.${STATE[m.state]}`, payload: m });
    return { body, headers: new Headers({ "content-type": "application/json", "x-local-signature": hmac(secret, body) }) };
  };
  return {
    name: "local",
    debitCheckSeconds: debitSeconds,
    async present(order) {
      const id = `ldd_${order.key}`;
      const existing = await debits.read(id);
      if (existing) {
        // As a real provider does: the same key with another amount is refused, not debited again.
        if (existing.amountPaise !== order.amountPaise)
          throw new Error("A debit with this idempotency key was presented with another amount");
        return debitEvent(existing);
      }
      const m = await records.read(order.providerMandateId);
      if (!m) throw new Error(`the local mandate stand-in has no mandate ${order.providerMandateId}`);
      const bounce = m.accountMasked.endsWith(LOCAL_BOUNCES);
      const debit: LocalDebit = {
        id,
        key: order.key,
        reference: order.reference,
        mandateId: m.id,
        amountPaise: order.amountPaise,
        presentedAt: now().toISOString(),
        outcome: m.state !== "active" || bounce || order.amountPaise > m.maxAmountPaise ? "failed" : "captured",
        reason:
          m.state !== "active"
            ? "The mandate is not active"
            : order.amountPaise > m.maxAmountPaise
              ? "The amount is above the mandate's maximum"
              : bounce
                ? "Insufficient funds (local stand-in: accounts ending 1111 bounce)"
                : null,
      };
      try {
        await debits.create(debit);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const raced = await debits.read(id);
        if (!raced) throw error;
        return debitEvent(raced);
      }
      return debitEvent(debit);
    },
    async fetchDebit(providerPaymentId) {
      const d = await debits.read(providerPaymentId);
      if (!d) throw new Error(`the local mandate stand-in has no debit ${providerPaymentId}`);
      return debitEvent(d);
    },
    async create(order) {
      const id = `lmd_${randomBytes(15).toString("base64url")}`;
      await records.create({
        id,
        reference: order.reference,
        kind: order.kind,
        maxAmountPaise: order.maxAmountPaise,
        endDate: order.endDate,
        description: order.description,
        accountMasked: `XXXX${order.account.accountNumber.slice(-4)}`,
        callbackUrl: order.callbackUrl,
        state: "created",
        reason: null,
        changedAt: null,
      });
      return { providerMandateId: id, authUrl: `/local-mandate/${id}` };
    },
    async fetch(id) {
      const m = await records.read(id);
      if (!m) throw new Error(`the local mandate stand-in has no mandate ${id}`);
      return eventOf(m);
    },
    async cancel(id) {
      const m = await records.read(id);
      if (!m) throw new Error(`the local mandate stand-in has no mandate ${id}`);
      if (m.state === "cancelled" || m.state === "rejected") return eventOf(m);
      const cancelled: LocalMandate = {
        ...m,
        state: "cancelled",
        reason: "Cancelled on the lender's request",
        changedAt: now().toISOString(),
      };
      await records.write(cancelled);
      return eventOf(cancelled);
    },
    mandate: records.read,
    async captures() {
      const at = now().getTime();
      return (await debits.list()).flatMap((d): LocalCapture[] => {
        const answerAt = Date.parse(d.presentedAt) + debitSeconds * 1000;
        return d.outcome === "captured" && answerAt <= at
          ? [
              {
                paymentId: d.id,
                orderId: null,
                amountPaise: d.amountPaise,
                capturedAt: new Date(answerAt).toISOString(),
                method: "emandate",
                description: `Autopay debit ${d.reference}`,
              },
            ]
          : [];
      });
    },
    async complete(id, outcome) {
      let m = await records.read(id);
      if (!m) return null;
      if (m.state === "created") {
        m =
          outcome === "approve"
            ? { ...m, state: "active", changedAt: now().toISOString() }
            : {
                ...m,
                state: "rejected",
                reason: "You did not approve it at your bank (local stand-in: Reject)",
                changedAt: now().toISOString(),
              };
        await records.write(m);
      }
      const state = STATE[m.state];
      const query = new URLSearchParams({ mandate_id: m.id, reference: m.reference, status: state });
      query.set("signature", hmac(secret, `${m.id}|${m.reference}|${state}`));
      return { mandate: m, webhook: signedWebhook(m), returnUrl: `${m.callbackUrl}?${query}` };
    },
    webhook(rawBody, headers) {
      if (!safeEqual(headers.get("x-local-signature") ?? "", hmac(secret, rawBody))) return "bad_signature";
      try {
        const parsed = JSON.parse(rawBody) as { payload?: LocalMandate };
        if (!parsed.payload || typeof parsed.payload.id !== "string" || !(parsed.payload.state in STATE)) return "ignored";
        return eventOf(parsed.payload);
      } catch {
        return "ignored";
      }
    },
    callback(query) {
      const id = query.get("mandate_id");
      const reference = query.get("reference");
      const status = query.get("status");
      const signature = query.get("signature");
      if (!id || !reference || !status || !signature) return "ignored";
      if (!safeEqual(signature, hmac(secret, `${id}|${reference}|${status}`))) return "bad_signature";
      // The return is only a hint: the mandate is asked about before anything is applied.
      return { providerMandateId: id, reference, state: "pending", reason: null, at: null };
    },
  };
}
