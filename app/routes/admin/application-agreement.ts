import { requestContext, servicesContext } from "../../context.ts";
import { parseReference } from "../../domain/loans/application.ts";
import { applicationSubject, audit } from "../../server/audit.server.ts";
import { signedPdfForStaff } from "../../server/review/read.server.ts";
import { storedPdfResponse } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/application-agreement";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("applications.view")];

/** GET /admin/applications/{reference}/agreement.pdf: the signed KFS and agreement, inline; every view is audited. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const reference = parseReference(params.ref);
  const signed = reference ? await signedPdfForStaff(services, reference) : null;
  if (!signed) notFoundFullPath(request);
  const client = context.get(requestContext);
  await audit(services, {
    by: user,
    client,
    at: "database",
    action: "loan.agreement_viewed",
    subject: applicationSubject(signed.id),
    details: { borrower: signed.userId },
  });
  return storedPdfResponse(services, signed.pdf, `agreement-${reference}.pdf`, "inline");
}
