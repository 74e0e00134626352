import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { msg } from "../../i18n/form-message.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { applicationRequests, borrowerDocuments, loanApplications } from "../db/schema.ts";

export type AnswerResult =
  { ok: true; reference: string } | { ok: false; reason: "not_found" } | { ok: false; fieldErrors: { answer: string[] } };

/**
 * The borrower answers what the credit officer asked (docs/product.md "Loan lifecycle"): a
 * question with words; a document by uploading it again in the Documents section first (a
 * note is optional). The application returns to the officer's queue, marked answered.
 */
export async function answerRequest(
  { db, now }: Pick<AppServices, "db" | "now">,
  { userId, requestId, answer, client }: { userId: string; requestId: string; answer: string; client: Client },
): Promise<AnswerResult> {
  const at = now();
  return db.transaction(async (tx) => {
    const [open] = await tx
      .select({ request: applicationRequests, reference: loanApplications.reference })
      .from(applicationRequests)
      .innerJoin(loanApplications, eq(loanApplications.id, applicationRequests.applicationId))
      .where(
        and(
          eq(applicationRequests.id, requestId),
          eq(loanApplications.userId, userId),
          eq(loanApplications.status, "under_review"),
          isNull(applicationRequests.answeredAt),
        ),
      )
      // The application too: an answer must not land while it is being rejected or cancelled.
      .for("update");
    if (!open) return { ok: false, reason: "not_found" };
    const { request } = open;
    if (request.documentKind) {
      const [fresh] = await tx
        .select({ id: borrowerDocuments.id })
        .from(borrowerDocuments)
        .where(
          and(
            eq(borrowerDocuments.userId, userId),
            eq(borrowerDocuments.kind, request.documentKind),
            gt(borrowerDocuments.uploadedAt, request.askedAt),
          ),
        )
        .orderBy(desc(borrowerDocuments.uploadedAt))
        .limit(1);
      if (!fresh) {
        return { ok: false, fieldErrors: { answer: [msg("dashboard.requests.uploadFirst", { document: request.documentKind })] } };
      }
    } else if (answer.length < 2) {
      return { ok: false, fieldErrors: { answer: [msg("dashboard.requests.writeAnswer")] } };
    }
    await tx
      .update(applicationRequests)
      .set({ answer: answer || null, answeredAt: at })
      .where(eq(applicationRequests.id, request.id));
    await audit(
      { db: tx },
      {
        by: { id: userId, role: "borrower" },
        client,
        at,
        action: "application.answered",
        subject: applicationSubject(request.applicationId),
        details: { request: request.id },
      },
    );
    return { ok: true, reference: open.reference };
  });
}
