import { data } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { documentForStaff } from "../../server/kyc/documents.server.ts";
import { documentResponse } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/document-file";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("applications.view")];

/** GET /admin/documents/{id}: a borrower's document for staff review; every view is audited. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const doc = await documentForStaff(services, { staff: user, documentId: params.id, client: context.get(requestContext) });
  if (!doc) throw data({ message: "Not found" }, { status: 404 });
  return documentResponse(services, doc);
}
