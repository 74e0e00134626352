// RazorpayX Payouts (https://razorpay.com/docs/api/x/payouts): a contact, its bank fund account,
// then the payout with the X-Payout-Idempotency header; states from GET /payouts/{id} and from
// webhooks signed with HMAC-SHA256 of the raw body (X-Razorpay-Signature).
import { hmac, safeEqual } from "../crypto.server.ts";
import type { PayoutAnswer, PayoutEvent, PayoutOrder, PayoutProvider } from "./provider.server.ts";

export interface RazorpayXConfig {
  keyId: string;
  keySecret: string;
  /** The lender's RazorpayX account number the money leaves from (not the borrower's). */
  accountNumber: string;
  webhookSecret: string;
  /** https://api.razorpay.com/v1, or a local fake in tests. */
  apiUrl: string;
  mode: "IMPS" | "NEFT" | "RTGS";
  timeoutMs?: number;
}

interface RazorpayXPayout {
  id: string;
  status: string;
  utr?: string | null;
  reference_id?: string | null;
  failure_reason?: string | null;
  status_details?: { description?: string | null; reason?: string | null } | null;
  processed_at?: number | null;
}

/** The provider refused the request outright (4xx with a reason): nothing was created. */
class Refused extends Error {}

const FINAL_FAILURE = new Set(["failed", "rejected", "cancelled"]);

function answerOf(p: RazorpayXPayout, at: Date | null): PayoutAnswer {
  const base = { providerPayoutId: p.id, utr: p.utr ?? null, failureReason: null, at };
  if (p.status === "processed") return { ...base, state: "processed", at: at ?? (p.processed_at ? new Date(p.processed_at * 1000) : null) };
  const reason = p.status_details?.description ?? p.failure_reason ?? `The payout was ${p.status}`;
  if (p.status === "reversed") return { ...base, state: "reversed", failureReason: reason };
  if (FINAL_FAILURE.has(p.status)) return { ...base, state: "failed", failureReason: reason };
  return { ...base, state: "pending" };
}

/** Narration on the borrower's bank statement: letters, digits and spaces, at most 30. */
const narration = (text: string) =>
  text
    .replace(/[^A-Za-z0-9 ]/g, "")
    .slice(0, 30)
    .trim();

export function createRazorpayXPayouts(config: RazorpayXConfig): PayoutProvider {
  const auth = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString("base64")}`;
  const timeoutMs = config.timeoutMs ?? 15_000;
  async function call<T>(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: { Authorization: auth, Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): no usable answer.
    }
    if (response.ok && json) return json as T;
    const description = (json as { error?: { description?: string } } | null)?.error?.description;
    // A 400 says what was wrong and that nothing was made; anything else (401, 429, 5xx) leaves it unknown.
    if (response.status === 400 && description) throw new Refused(description);
    throw new Error(`RazorpayX ${method} ${path} answered ${response.status}${description ? `: ${description}` : ""}`);
  }

  return {
    name: "razorpayx",
    firstCheckSeconds: 60,
    async create(order: PayoutOrder) {
      if (order.resend) {
        // The first send may have created it: look it up by the reference it carries before sending again.
        const found = await call<{ items?: RazorpayXPayout[] }>(
          "GET",
          `/payouts?account_number=${encodeURIComponent(config.accountNumber)}&reference_id=${encodeURIComponent(order.key)}`,
        );
        const existing = found.items?.find((p) => p.reference_id === order.key);
        if (existing) return answerOf(existing, null);
      }
      try {
        const contact = await call<{ id: string }>("POST", "/contacts", {
          name: order.beneficiary.name,
          contact: order.beneficiary.mobile.replace(/^\+91/, ""),
          type: "customer",
          reference_id: order.reference,
        });
        const fundAccount = await call<{ id: string }>("POST", "/fund_accounts", {
          contact_id: contact.id,
          account_type: "bank_account",
          bank_account: { name: order.beneficiary.name, ifsc: order.beneficiary.ifsc, account_number: order.beneficiary.accountNumber },
        });
        const payout = await call<RazorpayXPayout>(
          "POST",
          "/payouts",
          {
            account_number: config.accountNumber,
            fund_account_id: fundAccount.id,
            amount: order.amountPaise,
            currency: "INR",
            mode: config.mode,
            purpose: "payout",
            queue_if_low_balance: true,
            reference_id: order.key,
            narration: narration(`Loan ${order.reference}`),
            notes: { application: order.reference },
          },
          { "X-Payout-Idempotency": order.key },
        );
        return answerOf(payout, null);
      } catch (error) {
        // A refusal is a confirmed failure only on the first send: on a resend it may be refusing the
        // repeat of a payout that exists (another body for the same key), so it stays unknown.
        if (error instanceof Refused && !order.resend) {
          return { providerPayoutId: `refused_${order.key}`, state: "failed", utr: null, failureReason: error.message, at: null };
        }
        throw error;
      }
    },
    async fetch(providerPayoutId) {
      return answerOf(await call<RazorpayXPayout>("GET", `/payouts/${encodeURIComponent(providerPayoutId)}`), null);
    },
    webhook(rawBody, headers) {
      const signature = headers.get("x-razorpay-signature") ?? "";
      if (!safeEqual(signature, hmac(config.webhookSecret, rawBody))) return "bad_signature";
      let event: { event?: string; created_at?: number; payload?: { payout?: { entity?: RazorpayXPayout } } };
      try {
        event = JSON.parse(rawBody) as typeof event;
      } catch {
        return "ignored";
      }
      const payout = event.payload?.payout?.entity;
      if (!event.event?.startsWith("payout.") || !payout?.id || typeof payout.status !== "string") return "ignored";
      const at = typeof event.created_at === "number" ? new Date(event.created_at * 1000) : null;
      const found: PayoutEvent = { key: payout.reference_id ?? null, answer: answerOf(payout, at) };
      return found;
    },
  };
}
