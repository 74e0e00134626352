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
export interface PanVerifier {
  readonly name: string;
  verify(request: PanCheckRequest): Promise<PanCheck>;
}

export interface BureauRequest {
  pan: string;
  name: string;
  dateOfBirth: string;
  mobile: string;
}
export interface CreditBureau {
  readonly name: string;
  report(request: BureauRequest): Promise<BureauReport>;
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

/**
 * Local credit bureau: the score is read from the PAN's four digits, so every band can be shown:
 * 0000–0099 no credit history; otherwise 300 + digits × 600 ÷ 9999, rounded down (ABCPE8000F → 780,
 * ABCPE6000F → 660, ABCPE2000F → 420). Accounts and enquiries follow from the digits too.
 * Each request is recorded (PAN masked) in <dataDir>/credit-checks/bureau.jsonl.
 */
export function createLocalCreditBureau(dataDir: string, now: () => Date): CreditBureau {
  return {
    name: "local",
    async report({ pan }) {
      await record(dataDir, "bureau.jsonl", { pan: `XXXXXX${pan.slice(-4)}`, at: now().toISOString() });
      const digits = panDigits(pan);
      const ref = reference("CIR", pan, now().toISOString());
      if (digits < 100) return { score: null, activeAccounts: 0, overdueAccounts: 0, enquiriesLast6Months: digits % 3, reference: ref };
      const score = 300 + Math.floor((digits * 600) / 9999);
      return {
        score,
        activeAccounts: 1 + (digits % 5),
        overdueAccounts: score < 650 ? 1 + (digits % 3) : 0,
        enquiriesLast6Months: digits % 4,
        reference: ref,
      };
    },
  };
}
