import { redirect } from "react-router";
import { requestContext, servicesContext } from "../../../context.ts";
import { kindOfPath, stepPath } from "../../../domain/loans/application.ts";
import { pageOf, signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/start";
import { startApplication } from "../../../server/loans/start.server.ts";
import { reapplyMessage } from "../../../domain/review.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";

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
  const started = await startApplication(services, { userId: user.id, kind, client: context.get(requestContext) });
  if (!started.ok) {
    throw await redirectWithToast(services.config, request, "/User/Dashboard", {
      type: "error",
      title: reapplyMessage(kind, started.from),
    });
  }
  throw redirect(stepPath(kind, started.application.reference, "Step0"));
}
