// Payouts (docs/product.md "Disbursal"): one interface, the deterministic local stand-in a fresh
// clone uses, and RazorpayX (razorpayx.server.ts), chosen by PAYOUT_PROVIDER.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { todayIST } from "../../domain/india-date.ts";
import { divHalfUp, type IsoDate } from "../../domain/loan-math.ts";
import { GST_ON_FEES_BPS, type PayoutStatementRecord, payoutStatementCsv, type StatementFile } from "../../domain/books/statements.ts";
import { writeStatements } from "../stand-in.server.ts";

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
  /**
   * The payout account's statements up to today, one per day, in RazorpayX's account statement
   * columns (docs/decisions/0005-reconciliation-formats.md), where this implementation makes them
   * itself: the local stand-in. RazorpayX's are downloaded from its dashboard and uploaded.
   */
  accountStatements?(): Promise<StatementFile[]>;
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

/** A processed local payout as its statement line: the amount debited, the fee and its GST beside it. */
interface Processed {
  record: LocalRecord;
  utr: string;
  at: Date;
}

/** The local stand-in's account statements up to `today`: one per day its payouts were processed. */
export function localPayoutStatements(processed: readonly Processed[], { today, feePaise }: { today: IsoDate; feePaise: number }) {
  const tax = divHalfUp(feePaise * GST_ON_FEES_BPS, 10_000);
  const byDay = new Map<IsoDate, Processed[]>();
  for (const p of processed) {
    const day = todayIST(p.at);
    if (day > today) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), p]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, list]): StatementFile => {
      const records: PayoutStatementRecord[] = [...list]
        .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.record.id < b.record.id ? -1 : 1))
        .map(({ record: r, utr, at }) => ({
          id: `ltxn_${createHash("sha256").update(r.key).digest("hex").slice(0, 14)}`,
          account_number: "LOCAL-STAND-IN",
          source_entity: "payout",
          source_id: r.id,
          payout_id: r.id,
          amount: r.amountPaise,
          currency: "INR",
          debit: r.amountPaise,
          credit: 0,
          fees: feePaise + tax,
          tax,
          balance: null,
          utr,
          mode: "IMPS",
          status: "processed",
          reference_id: r.key,
          created_at: Math.floor(at.getTime() / 1000),
        }));
      return { name: `local-payouts-${day}.csv`, csv: payoutStatementCsv(records) };
    });
}

/**
 * The local stand-in: a payout settles `settleSeconds` after it was created, processed with a
 * UTR derived from its key, except to an account ending in 0000 (fails: account closed) or 9999
 * (never settles: shows a payout stuck at the provider). Each payout is a file in
 * <dataDir>/payouts/, created exclusively, so the same key gives the same payout across requests,
 * retries and processes. No webhooks: the application asks (the job queue does it). Each day's
 * statement of the payouts it processed (its fee, `feePaise` plus 18% GST, on each) is written to
 * <dataDir>/payout-statements/.
 */
export function createLocalPayouts(dataDir: string, now: () => Date, settleSeconds: number, { feePaise = 500 } = {}): PayoutProvider {
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
    async accountStatements() {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      const processed: Processed[] = [];
      for (const name of names.filter((n) => n.endsWith(".json"))) {
        const record = JSON.parse(await readFile(path.join(dir, name), "utf8")) as LocalRecord;
        const a = answer(record);
        if (a.state === "processed" && a.utr && a.at) processed.push({ record, utr: a.utr, at: a.at });
      }
      const files = localPayoutStatements(processed, { today: todayIST(now()), feePaise });
      await writeStatements(path.join(dataDir, "payout-statements"), files);
      return files;
    },
  };
}
