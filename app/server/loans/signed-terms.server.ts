import type { Language } from "../../i18n/languages.ts";
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { kfsWords } from "./kfs-words.server.ts";
import { buildKfs, type KfsInput, type KfsModel } from "../../domain/loans/kfs.ts";
import { todayIST } from "../../domain/india-date.ts";
import { currentSignatureOf, loanDocuments, loanSignatures } from "../db/schema.ts";
import { kfsInput } from "./issue-kfs.server.ts";
import type { Application } from "./rows.server.ts";

/**
 * The signed KFS's figures and the terms the borrower signed: stored with the KFS. For a KFS
 * issued before they were stored, rebuilt from the borrower's details and that day's dates, and
 * used only when they give exactly the signed figures (else `input` is null: such a loan cannot be
 * disbursed until it is signed again). Null when nothing is signed.
 */
export async function signedTerms(
  services: Pick<AppServices, "db" | "config" | "now">,
  a: Application,
): Promise<{ input: KfsInput | null; figures: KfsModel["figures"]; signedOn: string; language: Language } | null> {
  const [doc] = await services.db
    .select({ input: loanDocuments.input, terms: loanDocuments.terms, signedAt: loanSignatures.signedAt })
    .from(loanSignatures)
    .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
    .where(currentSignatureOf(a.id));
  if (!doc) return null;
  const signed = { figures: doc.terms.figures, signedOn: todayIST(doc.signedAt), language: doc.terms.language ?? "en" };
  if (doc.input) return { ...signed, input: doc.input };
  const rebuilt = await kfsInput(services, a, {
    today: doc.terms.issuedOn,
    validUntil: doc.terms.validUntil,
    assumedDisbursalDate: doc.terms.assumedDisbursalDate,
  });
  const exact = rebuilt && JSON.stringify(buildKfs(rebuilt.input, kfsWords("en")).figures) === JSON.stringify(doc.terms.figures);
  return { ...signed, input: exact ? rebuilt.input : null };
}
