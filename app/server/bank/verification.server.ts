import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";

export interface BankVerificationRequest {
  accountNumber: string;
  ifsc: string;
  /** The holder name the borrower typed. */
  holderName: string;
}

/** Bank-account verification ("penny drop"): returns the name the bank holds for the account. */
export interface BankVerifier {
  verify(request: BankVerificationRequest): Promise<{ nameAtBank: string }>;
}

/**
 * Local stand-in: records each request (account masked) in
 * <dataDir>/bank-verification/requests.jsonl and answers with the typed holder name.
 */
export function createLocalBankVerifier(dataDir: string, now: () => Date): BankVerifier {
  const dir = path.join(dataDir, "bank-verification");
  return {
    async verify({ accountNumber, ifsc, holderName }) {
      await mkdir(dir, { recursive: true });
      const line = { account: `XXXX${accountNumber.slice(-4)}`, ifsc, holderName, at: now().toISOString() };
      await appendFile(path.join(dir, "requests.jsonl"), `${JSON.stringify(line)}\n`);
      return { nameAtBank: holderName };
    },
  };
}
