import { Readable } from "node:stream";
import { data } from "react-router";
import { servicesContext } from "../../../context.ts";
import { extensionFor } from "../../../domain/kyc/documents.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { getDocument } from "../../../server/kyc/documents.server.ts";
import type { Route } from "./+types/document-file";

/** GET /User/Profile/documents/{id}: the file, to its owner only (staff access comes with the back office). X-Content-Type-Options: nosniff comes with every answer (helmet). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const doc = await getDocument(services, { userId: user.id, id: params.id });
  if (!doc || !(await services.storage.exists(doc.storageKey))) throw data({ message: "Not found" }, { status: 404 });
  const name = `${doc.kind}.${extensionFor(doc.contentType)}`;
  return new Response(Readable.toWeb(services.storage.read(doc.storageKey)) as ReadableStream, {
    headers: {
      "Content-Type": doc.contentType,
      "Content-Length": String(doc.sizeBytes),
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
