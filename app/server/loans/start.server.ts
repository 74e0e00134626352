import { and, eq, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type OwnRecordFacts, ownRecordRules, type RuleCode } from "../../domain/credit-policy/evaluate.ts";
import { borrowerReason } from "../../domain/credit-policy/words.ts";
import type { Language } from "../../i18n/languages.ts";
import { todayIST } from "../../domain/india-date.ts";
import { policyInForce } from "../credit/policy.server.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { IN_PROGRESS } from "../../domain/loans/lifecycle.ts";
import { ownRecord } from "../credit/judge.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications } from "../db/schema.ts";
import { auditStatus } from "./lifecycle.server.ts";
import { newReference } from "./reference.server.ts";
import type { Application } from "./rows.server.ts";

type Reason = { code: RuleCode; message: string };
export type ApplyOpen = { open: true } | { open: false; reasons: Reason[] };

/**
 * Whether a new application may start now (docs/product.md "Credit policy"): the credit policy in
 * force, its hard stops on the borrower's own record with the lender (the same for either kind;
 * the facts and the credit check are judged at Step0).
 */
export async function applyOpen(
  services: Pick<AppServices, "db" | "now">,
  { userId, language }: { userId: string; language?: Language },
): Promise<ApplyOpen> {
  return applyOpenOn(services, await ownRecord(services.db, userId), language);
}

/** The same from the borrower's record as a page has it already (the dashboard lists their loans and applications). */
export async function applyOpenOn(services: Pick<AppServices, "db" | "now">, own: OwnRecordFacts, language?: Language): Promise<ApplyOpen> {
  const policy = await policyInForce(services);
  const stops = ownRecordRules({ policy, own, today: todayIST(services.now()) }).filter((r) => r.outcome === "fail");
  if (!stops.length) return { open: true };
  return { open: false, reasons: stops.map((row) => ({ code: row.code, message: borrowerReason(row, language) })) };
}

/**
 * Start (or resume) an application: the one in progress for this product, or a new draft with its
 * audit row (one in progress per borrower and product: a partial unique index holds it, so two
 * starts at once make one). A new one only when the credit policy's stops on the borrower's own
 * record allow it (a loan overdue or written off, a recent rejection, too many loans).
 */
export async function startApplication(
  services: Pick<AppServices, "db" | "now">,
  { userId, kind, client, language }: { userId: string; kind: LoanKind; client: Client; language?: Language },
): Promise<{ ok: true; application: Application; resumed: boolean } | { ok: false; reasons: Reason[] }> {
  const { db, now } = services;
  const existing = await inProgress(db, userId, kind);
  if (existing) return { ok: true, application: existing, resumed: true };
  const open = await applyOpen(services, { userId, language });
  if (!open.open) return { ok: false, reasons: open.reasons };
  const at = now();
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
  // Lost a race with another start: the other one's draft is the one in progress.
  if (created) return { ok: true, application: created, resumed: false };
  return { ok: true, application: (await inProgress(db, userId, kind)) as Application, resumed: true };
}

/** The borrower's application of this kind in progress (draft to approved), if any. */
export async function applicationInProgress({ db }: Pick<AppServices, "db">, { userId, kind }: { userId: string; kind: LoanKind }) {
  return inProgress(db, userId, kind);
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
