import { servicesContext } from "../../../context.ts";
import { LOAN_NUMBER } from "../../../domain/loans/disbursal.ts";
import { LOAN_DOCUMENTS, type LoanDocument, loanDocument } from "../../../server/loan-account/documents.server.ts";
import { reminderLetter } from "../../../server/collections/letter.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/document";

/**
 * GET /User/Loans/{loanNumber}/schedule.pdf, statement.pdf?from=&to=, no-dues.pdf,
 * reminder-letter.pdf?send=: the borrower's
 * own loan's documents; anyone else's loan number is the not-found page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const loanNumber = params.loanNumber.toUpperCase();
  const document = params.document.toLowerCase() as LoanDocument;
  if (!LOAN_NUMBER.test(loanNumber)) notFoundFullPath(request);
  if (document === ("reminder-letter.pdf" as LoanDocument)) {
    // A collections reminder letter, by the dunning step that sent it (docs/product.md "Collections").
    const letter = await reminderLetter(services, {
      userId: user.id,
      loanNumber,
      sendId: new URL(request.url).searchParams.get("send") ?? "",
    });
    if (!letter) notFoundFullPath(request);
    return pdfResponse(letter.pdf, letter.filename);
  }
  if (!LOAN_DOCUMENTS.includes(document)) notFoundFullPath(request);
  const found = await loanDocument(services, { userId: user.id, loanNumber, document, query: new URL(request.url).searchParams });
  if (!found.ok && found.reason === "not_found") notFoundFullPath(request);
  if (!found.ok) return new Response(found.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return pdfResponse(found.pdf, found.filename);
}

const pdfResponse = (pdf: Uint8Array, filename: string) =>
  new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
