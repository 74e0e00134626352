import { Readable } from "node:stream";
import { data } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { audit } from "../../server/audit.server.ts";
import { runFile } from "../../server/bureau/read.server.ts";
import { downloadHeaders } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/bureau-file";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("bureau.view")];

/** GET /admin/bureau/runs/:runId/file: the bureau file as made (decrypted as it streams), each download audited. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const file = await runFile(services, params.runId);
  if (!file) throw data({ message: "No such bureau file." }, { status: 404 });
  await audit(services, {
    by: { id: user.id, role: user.role },
    client: context.get(requestContext),
    at: services.now(),
    action: "bureau.download",
    subject: { type: "bureau_run", id: params.runId },
    details: { bureau: file.bureau, asOf: file.asOf, fileName: file.name },
  });
  return new Response(Readable.toWeb(services.storage.read(file.key)) as ReadableStream, {
    headers: { ...downloadHeaders(file.name, "text/plain; charset=utf-8"), "Content-Length": String(file.bytes) },
  });
}
