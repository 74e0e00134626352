import { redirect } from "react-router";
import { requestContext, servicesContext } from "../../../context.ts";
import { kindOfPath, stepPath } from "../../../domain/loans/application.ts";
import { pageOf, signedInContext } from "../../../server/auth/session.server.ts";
import { startApplication } from "../../../server/loans/applications.server.ts";
import { notFoundFullPath } from "../../../server/loans/flow.server.ts";
import type { Route } from "./+types/start";

/**
 * /User/newLoan/Emi and /User/newLoan/salaryAdvance: resume the application in
 * progress for this product, or start one, at Step0 (which shows the saved
 * terms, and sends a submitted application on to its status page).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOfPath(pageOf(request).path);
  if (!kind) notFoundFullPath(request);
  const info = context.get(requestContext);
  const application = await startApplication(services, user.id, kind, { ip: info.ip, userAgent: info.userAgent });
  throw redirect(stepPath(kind, application.reference, "Step0"));
}
