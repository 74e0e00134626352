import { servicesContext } from "../../context.ts";
import { LOAN_NUMBER } from "../../domain/loans/disbursal.ts";
import { revisedKfsPdf } from "../../server/payouts/read.server.ts";
import { storedPdfResponse } from "../../web/file-response.server.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/revised-kfs";

/** GET /User/Loans/{loanNumber}/revised-kfs.pdf: the revised KFS issued at disbursal, to its borrower only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const loanNumber = params.loanNumber.toUpperCase();
  const found = LOAN_NUMBER.test(loanNumber) ? await revisedKfsPdf(services, { userId: user.id, loanNumber }) : null;
  if (!found) notFoundFullPath(request);
  return storedPdfResponse(services, found.pdf, `revised-kfs-${loanNumber}.pdf`, "attachment");
}
