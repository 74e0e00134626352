import type { AppServices, Client } from "../../context.ts";
import type { DocumentKind } from "../../domain/kyc/documents.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { applicationRequests } from "../db/schema.ts";
import { notify } from "../notifications/notify.server.ts";
import { isMine, lockByReference, type Staff } from "./rows.server.ts";

/**
 * Ask the borrower for more (docs/product.md "Loan lifecycle"): a document again or a question.
 * The application stays under review, "waiting for you" on the borrower's dashboard, and the
 * borrower gets an SMS. One open request at a time.
 */
export async function askBorrower(
  services: Pick<AppServices, "db" | "now" | "jobs" | "config">,
  {
    staff,
    reference,
    documentKind,
    message,
    client,
  }: { staff: Staff; reference: string; documentKind: DocumentKind | null; message: string; client: Client },
): Promise<{ ok: true } | { ok: false; reason: "not_found" | "not_yours" | "already_asked" }> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (!isMine(a, staff)) return { ok: false, reason: "not_yours" };
    const [created] = await tx
      .insert(applicationRequests)
      .values({ applicationId: a.id, askedBy: staff.id, askedAt: at, documentKind, message })
      .onConflictDoNothing()
      .returning({ id: applicationRequests.id });
    if (!created) return { ok: false, reason: "already_asked" };
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "application.asked",
        subject: applicationSubject(a.id),
        details: { request: created.id, documentKind, message },
      },
    );
    await notify(
      { ...services, db: tx },
      { userId: a.userId, event: "application_asked", key: created.id, data: { reference: a.reference } },
    );
    return { ok: true };
  });
}
