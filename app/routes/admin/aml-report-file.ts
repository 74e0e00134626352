import { data } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { downloadReport } from "../../server/aml/str.server.ts";
import { downloadHeaders } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/aml-report-file";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("aml.manage")];

/**
 * GET /admin/aml/reports/:reference/file: an exported suspicious-transaction report's file for
 * FIU-IND (docs/decisions/0008-str-export-format.md), each download audited (`aml.str.download`).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const file = await downloadReport(services, {
    reference: params.reference,
    by: { staff: { id: user.id, role: user.role }, client: context.get(requestContext) },
  });
  if (!file) throw data({ message: "There is no exported report with this reference." }, { status: 404 });
  return new Response(file.xml, { headers: downloadHeaders(file.name, "application/xml; charset=utf-8") });
}
