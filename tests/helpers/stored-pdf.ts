import { eq } from "drizzle-orm";
import { loanDocuments, loanSignatures, revisedKfs } from "../../app/server/db/schema.ts";
import { pdfBytes } from "../../app/server/storage/stored-pdf.server.ts";
import type { TestServer } from "./server.ts";

type PdfRow = Pick<typeof loanDocuments.$inferSelect | typeof revisedKfs.$inferSelect, "pdf" | "pdfKey" | "sha256">;
type SignatureRow = Pick<typeof loanSignatures.$inferSelect, "signedPdf" | "signedPdfKey" | "signedSha256">;

/** The PDF a KFS, revised KFS or signature row names (from storage, or its own bytes), checked against its hash. */
export function storedPdf(app: TestServer, row: PdfRow | SignatureRow): Promise<Buffer> {
  const pdf =
    "signedSha256" in row
      ? { bytes: row.signedPdf, key: row.signedPdfKey, sha256: row.signedSha256 }
      : { bytes: row.pdf, key: row.pdfKey, sha256: row.sha256 };
  return pdfBytes(app.services.storage, pdf);
}

/** The storage keys of every KFS, signed agreement and revised KFS of an application (old and current). */
export async function pdfKeysOf(app: TestServer, applicationId: string): Promise<string[]> {
  const db = app.services.db;
  const keys = [
    ...(await db.select({ key: loanDocuments.pdfKey }).from(loanDocuments).where(eq(loanDocuments.applicationId, applicationId))),
    ...(await db.select({ key: loanSignatures.signedPdfKey }).from(loanSignatures).where(eq(loanSignatures.applicationId, applicationId))),
    ...(await db.select({ key: revisedKfs.pdfKey }).from(revisedKfs).where(eq(revisedKfs.applicationId, applicationId))),
  ];
  return keys.map((k) => k.key).filter((k): k is string => k !== null);
}
