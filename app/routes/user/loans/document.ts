import { servicesContext } from "../../../context.ts";
import { LOAN_NUMBER } from "../../../domain/loans/disbursal.ts";
import { LOAN_DOCUMENTS, type LoanDocument, loanDocument } from "../../../server/loan-account/documents.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/document";

/**
 * GET /User/Loans/{loanNumber}/schedule.pdf, statement.pdf?from=&to=, no-dues.pdf: the borrower's
 * own loan's documents; anyone else's loan number is the not-found page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const loanNumber = params.loanNumber.toUpperCase();
  const document = params.document.toLowerCase() as LoanDocument;
  if (!LOAN_NUMBER.test(loanNumber) || !LOAN_DOCUMENTS.includes(document)) notFoundFullPath(request);
  const found = await loanDocument(services, { userId: user.id, loanNumber, document, query: new URL(request.url).searchParams });
  if (!found.ok && found.reason === "not_found") notFoundFullPath(request);
  if (!found.ok) return new Response(found.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(found.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${found.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
