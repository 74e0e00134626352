import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { IN_PROGRESS } from "../../domain/loans/lifecycle.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { todayIST } from "../../lib/format.ts";
import { reapplyFrom } from "../review/decide.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications } from "../db/schema.ts";
import { auditStatus } from "./lifecycle.server.ts";
import { newReference } from "./reference.server.ts";
import type { Application } from "./rows.server.ts";

/**
 * Start (or resume) an application: the one in progress for this product, or
 * a new draft with its audit row (one in progress per borrower and product:
 * a partial unique index holds it, so two tabs at once make one). After a rejection the borrower
 * may apply for the same product again only after REAPPLY_AFTER_DAYS.
 */
export async function startApplication(
  { db, now, config }: Pick<AppServices, "db" | "now" | "config">,
  { userId, kind, client }: { userId: string; kind: LoanKind; client: Client },
): Promise<{ ok: true; application: Application } | { ok: false; reason: "reapply_later"; from: IsoDate }> {
  const existing = await inProgress(db, userId, kind);
  if (existing) return { ok: true, application: existing };
  const at = now();
  const [rejected] = await db
    .select({ decidedAt: loanApplications.decidedAt })
    .from(loanApplications)
    .where(
      and(
        eq(loanApplications.userId, userId),
        eq(loanApplications.product, kind),
        eq(loanApplications.status, "rejected"),
        isNotNull(loanApplications.decidedAt),
      ),
    )
    .orderBy(desc(loanApplications.decidedAt))
    .limit(1);
  if (rejected?.decidedAt) {
    const from = reapplyFrom({ config }, rejected.decidedAt);
    if (from > todayIST(at)) return { ok: false, reason: "reapply_later", from };
  }
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(loanApplications)
      .values({ reference: newReference(), userId, product: kind, status: "draft", createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning();
    if (row) {
      await auditStatus(
        { db: tx },
        {
          applicationId: row.id,
          from: null,
          to: "draft",
          by: { actor: "borrower", actorUserId: userId, reason: "started", ...client },
          at,
        },
      );
    }
    return row ?? null;
  });
  // Lost a race with another tab: the other tab's draft is the one in progress.
  return { ok: true, application: created ?? ((await inProgress(db, userId, kind)) as Application) };
}

async function inProgress(db: Db, userId: string, kind: LoanKind) {
  const [row] = await db
    .select()
    .from(loanApplications)
    .where(
      and(eq(loanApplications.userId, userId), eq(loanApplications.product, kind), inArray(loanApplications.status, [...IN_PROGRESS])),
    );
  return row ?? null;
}
