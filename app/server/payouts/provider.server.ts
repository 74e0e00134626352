// Payouts (docs/product.md "Disbursal"): one interface, the deterministic local stand-in a fresh
// clone uses, and RazorpayX (razorpayx.server.ts), chosen by PAYOUT_PROVIDER.
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface PayoutOrder {
  /** The idempotency key: the payout attempt's id (a UUID). The same key never pays twice. */
  key: string;
  /** The application's reference, for the provider's notes and the bank statement. */
  reference: string;
  amountPaise: number;
  beneficiary: { name: string; accountNumber: string; ifsc: string; mobile: string };
  /**
   * This key was sent before and no answer was kept (a timeout, a lost connection): the provider
   * may hold the payout already, so a refusal now proves nothing.
   */
  resend: boolean;
}

/**
 * What the provider says about a payout. `pending`: no final answer yet; `failed`: confirmed that
 * no money moved (only then may a new attempt be made); `reversed`: the bank returned the money.
 */
export interface PayoutAnswer {
  providerPayoutId: string;
  state: "pending" | "processed" | "failed" | "reversed";
  utr: string | null;
  failureReason: string | null;
  /** The provider's time of this state, when it gives one. */
  at: Date | null;
}

/** A webhook's payout event, its signature checked: `key` is the idempotency key it was created with. */
export interface PayoutEvent {
  key: string | null;
  answer: PayoutAnswer;
}

export interface PayoutProvider {
  readonly name: string;
  /** Seconds after a request when asking about it is first worth while. */
  readonly firstCheckSeconds: number;
  /** Creates the payout, or answers with the one already created with this key. Throws when the provider gave no usable answer. */
  create(order: PayoutOrder): Promise<PayoutAnswer>;
  /** The payout's state now. Throws when the provider gave no usable answer. */
  fetch(providerPayoutId: string): Promise<PayoutAnswer>;
  /** The payout event a webhook carries; "bad_signature" when the provider did not sign it; "ignored" for other events. */
  webhook(rawBody: string, headers: Headers): PayoutEvent | "bad_signature" | "ignored";
}

/** What a local payout's beneficiary account ends in decides its fate. */
export const LOCAL_FAILS = "0000";
export const LOCAL_NEVER_SETTLES = "9999";

interface LocalRecord {
  id: string;
  key: string;
  amountPaise: number;
  account: string;
  ifsc: string;
  name: string;
  createdAt: string;
}

/**
 * The local stand-in: a payout settles `settleSeconds` after it was created, processed with a
 * UTR derived from its key, except to an account ending in 0000 (fails: account closed) or 9999
 * (never settles: shows a payout stuck at the provider). Each payout is a file in
 * <dataDir>/payouts/, created exclusively, so the same key gives the same payout across requests,
 * retries and processes. No webhooks: the application asks (the job queue does it).
 */
export function createLocalPayouts(dataDir: string, now: () => Date, settleSeconds: number): PayoutProvider {
  const dir = path.join(dataDir, "payouts");
  const file = (key: string) => path.join(dir, `${key.replace(/[^\w-]/g, "")}.json`);
  const answer = (r: LocalRecord): PayoutAnswer => {
    const settleAt = Date.parse(r.createdAt) + settleSeconds * 1000;
    const last4 = r.account.slice(-4);
    const base = { providerPayoutId: r.id, utr: null, failureReason: null, at: null };
    if (last4 === LOCAL_NEVER_SETTLES || now().getTime() < settleAt) return { ...base, state: "pending" };
    if (last4 === LOCAL_FAILS)
      return {
        ...base,
        state: "failed",
        failureReason: "The beneficiary account is closed (local stand-in: accounts ending 0000 fail)",
        at: new Date(settleAt),
      };
    const utr = String(BigInt(`0x${createHash("sha256").update(r.key).digest("hex").slice(0, 15)}`) % 10n ** 12n).padStart(12, "0");
    return { ...base, state: "processed", utr, at: new Date(settleAt) };
  };
  const read = async (key: string) => JSON.parse(await readFile(file(key), "utf8")) as LocalRecord;
  return {
    name: "local",
    firstCheckSeconds: settleSeconds,
    async create(order) {
      await mkdir(dir, { recursive: true });
      const record: LocalRecord = {
        id: `lpo_${order.key}`,
        key: order.key,
        amountPaise: order.amountPaise,
        account: `XXXX${order.beneficiary.accountNumber.slice(-4)}`,
        ifsc: order.beneficiary.ifsc,
        name: order.beneficiary.name,
        createdAt: now().toISOString(),
      };
      try {
        await writeFile(file(order.key), JSON.stringify(record), { flag: "wx" });
        return answer(record);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const existing = await read(order.key);
        // As a real provider does: the same key with another body is refused, not paid again.
        if (existing.amountPaise !== order.amountPaise || existing.account !== record.account)
          throw new Error("A payout with this idempotency key was created with other details", { cause: error });
        return answer(existing);
      }
    },
    async fetch(providerPayoutId) {
      return answer(await read(providerPayoutId.replace(/^lpo_/, "")));
    },
    // The stand-in sends no webhooks: nothing that arrives is signed by it.
    webhook: () => "bad_signature",
  };
}
