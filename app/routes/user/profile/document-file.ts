import { data } from "react-router";
import { servicesContext } from "../../../context.ts";
import { getDocument } from "../../../server/kyc/documents.server.ts";
import { documentResponse } from "../../../web/file-response.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/document-file";

/** GET /User/Profile/documents/{id}: the file, to its owner only (a foreign id is not found). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const doc = await getDocument(services, { userId: user.id, id: params.id });
  if (!doc || !(await services.storage.exists(doc.storageKey))) throw data({ message: "Not found" }, { status: 404 });
  return documentResponse(services, doc);
}
