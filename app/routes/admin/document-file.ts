import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { data } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { extensionFor } from "../../domain/kyc/documents.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { audit } from "../../server/auth/staff.server.ts";
import { borrowerDocuments } from "../../server/db/schema.ts";
import type { Route } from "./+types/document-file";
import { isUuid } from "../../domain/validators/ids.ts";

/** GET /admin/documents/{id}: a borrower's document for staff review; every view is audited. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { ip, userAgent } = context.get(requestContext);
  if (!isUuid(params.id)) throw data({ message: "Not found" }, { status: 404 });
  const [doc] = await services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.id, params.id));
  if (!doc || !(await services.storage.exists(doc.storageKey))) throw data({ message: "Not found" }, { status: 404 });
  await audit(services, {
    actorUserId: user.id,
    actorRole: user.role,
    action: "kyc.document_viewed",
    subjectType: "document",
    subjectId: doc.id,
    details: { borrower: doc.userId, kind: doc.kind },
    ip,
    userAgent,
  });
  return new Response(Readable.toWeb(services.storage.read(doc.storageKey)) as ReadableStream, {
    headers: {
      "Content-Type": doc.contentType,
      "Content-Length": String(doc.sizeBytes),
      "Content-Disposition": `inline; filename="${doc.kind}.${extensionFor(doc.contentType)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
