// PAN verification and the credit bureau (docs/product.md "Credit review and decision"): one
// interface each, and deterministic local stand-ins a fresh clone uses. A real provider (NSDL/
// Protean for PAN, a bureau such as CIBIL or Experian) implements the same interface.
import { createHash } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { BureauReport, PanCheck } from "../../domain/review.ts";

export interface PanCheckRequest {
  pan: string;
  name: string;
  dateOfBirth: string;
}
/** `signal`: the caller stops waiting (a page's time limit); the provider's answer is then not used. */
export interface ProviderCall {
  signal?: AbortSignal;
}
export interface PanVerifier {
  readonly name: string;
  verify(request: PanCheckRequest, call?: ProviderCall): Promise<PanCheck>;
}

export interface BureauRequest {
  pan: string;
  name: string;
  dateOfBirth: string;
  mobile: string;
}
export interface CreditBureau {
  readonly name: string;
  report(request: BureauRequest, call?: ProviderCall): Promise<BureauReport>;
}

const reference = (prefix: string, ...parts: string[]) =>
  `${prefix}-${createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 12).toUpperCase()}`;

/** The PAN's four digits (ABCDE1234F → 1234): what the stand-ins read their answers from. */
const panDigits = (pan: string) => Number(pan.slice(5, 9));

async function record(dataDir: string, file: string, line: Record<string, unknown>) {
  const dir = path.join(dataDir, "credit-checks");
  await mkdir(dir, { recursive: true });
  await appendFile(path.join(dir, file), `${JSON.stringify(line)}\n`);
}

/**
 * Local PAN verification: a PAN whose digits are 0000 is not on record; a PAN whose fourth letter
 * is not P belongs to a company or firm, not a person; any other is valid with the profile's
 * name and date of birth on record. Each request is recorded (PAN masked) in
 * <dataDir>/credit-checks/pan.jsonl.
 */
export function createLocalPanVerifier(dataDir: string, now: () => Date): PanVerifier {
  return {
    name: "local",
    async verify({ pan, name }) {
      await record(dataDir, "pan.jsonl", { pan: `XXXXXX${pan.slice(-4)}`, at: now().toISOString() });
      const ref = reference("PAN", pan, now().toISOString());
      if (panDigits(pan) === 0) return { status: "invalid", nameOnRecord: null, nameMatch: 0, dateOfBirthMatches: false, reference: ref };
      if (pan[3] !== "P") return { status: "not_individual", nameOnRecord: null, nameMatch: 0, dateOfBirthMatches: false, reference: ref };
      return { status: "valid", nameOnRecord: name.toUpperCase(), nameMatch: 100, dateOfBirthMatches: true, reference: ref };
    },
  };
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Local credit bureau: everything is read from the PAN's four digits, so every band and every rule
 * of the credit policy can be shown (docs/product.md "Credit policy"):
 * - 0000–0099: no credit history (no score, no EMIs, nothing past due);
 * - otherwise the score is 300 + digits × 600 ÷ 9999, rounded down (ABCPE8000F → 780, ABCPE6000F → 660,
 *   ABCPE2000F → 420);
 * - the monthly EMIs of the accounts reported: the last digit × ₹500 for a score of 750 or more (so at
 *   most ₹4,500), the last digit × ₹1,500 below it;
 * - an account written off or 90+ days past due in the last 12 months: only below 650, when the last
 *   digit is 1 or 3 (ABCPE2001F); a score of 750 or more always comes with a clean history;
 * - none of the accounts is this lender's (the stand-in knows nothing of them).
 * A PAN whose last letter is Z answers only after `slowSeconds` (a bureau that does not answer in time).
 * Each request is recorded (PAN masked) in <dataDir>/credit-checks/bureau.jsonl.
 */
export function createLocalCreditBureau(
  dataDir: string,
  now: () => Date,
  { slowSeconds = 20 }: { slowSeconds?: number } = {},
): CreditBureau {
  return {
    name: "local",
    async report({ pan }, call = {}) {
      await record(dataDir, "bureau.jsonl", { pan: `XXXXXX${pan.slice(-4)}`, at: now().toISOString() });
      if (pan.endsWith("Z")) await pause(slowSeconds * 1000, call.signal);
      const digits = panDigits(pan);
      const ref = reference("CIR", pan, now().toISOString());
      const clean = { ourMonthlyEmiPaise: 0, seriousDelinquency: false };
      if (digits < 100)
        return {
          score: null,
          activeAccounts: 0,
          overdueAccounts: 0,
          enquiriesLast6Months: digits % 3,
          reference: ref,
          monthlyEmiPaise: 0,
          ...clean,
        };
      const score = 300 + Math.floor((digits * 600) / 9999);
      const last = digits % 10;
      return {
        score,
        activeAccounts: 1 + (digits % 5),
        overdueAccounts: score < 650 ? 1 + (digits % 3) : 0,
        enquiriesLast6Months: digits % 4,
        reference: ref,
        monthlyEmiPaise: last * (score >= 750 ? 500_00 : 1_500_00),
        ...clean,
        seriousDelinquency: score < 650 && (last === 1 || last === 3),
      };
    },
  };
}
