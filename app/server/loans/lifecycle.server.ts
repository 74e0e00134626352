import { syncCases } from "../collections/cases.server.ts";
import { todayIST } from "../../domain/india-date.ts";
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { canTransition, isLoanStatus, type LoanStatus } from "../../domain/loans/lifecycle.ts";
import type { UserRole } from "../../domain/roles.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications } from "../db/schema.ts";

/** Why a loan's autopay ended, as its audit row and staff read it. */
const MANDATE_END_REASON: Partial<Record<LoanStatus, string>> = {
  closed: "The loan is closed",
  cancelled: "The loan was cancelled in the cooling-off period",
  written_off: "The loan is written off",
  approved: "The loan's disbursal was returned",
};

export class TransitionError extends Error {
  readonly from: string;
  readonly to: LoanStatus;
  constructor(from: string, to: LoanStatus) {
    super(`A loan application cannot go from ${from} to ${to}`);
    this.from = from;
    this.to = to;
  }
}

/** Who changes a status: the system (a job, a provider's answer), or a staff member or borrower with the request they sent. */
export type ChangeBy = { reason?: string | null } & (
  { actor: "system"; actorUserId: null } | ({ actor: UserRole; actorUserId: string } & Client)
);

/**
 * The only writer of a loan application's status: checks the lifecycle table,
 * moves the row only if it is still in `from` (so two racing changes cannot
 * both win), and writes the audit row. Call it inside the transaction that
 * makes the rest of the change.
 */
export async function changeStatus(
  { db: tx, jobs }: Pick<AppServices, "db" | "jobs">,
  {
    application,
    to,
    by,
    at,
    extra = {},
    details,
  }: {
    application: { id: string; status: string };
    to: LoanStatus;
    by: ChangeBy;
    at: Date;
    extra?: Partial<typeof loanApplications.$inferInsert>;
    /** More for the audit row (a rejection's reason code and note). */
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const from = application.status;
  if (!isLoanStatus(from) || !canTransition(from, to, by.actor)) throw new TransitionError(from, to);
  const moved = await tx
    .update(loanApplications)
    .set({ ...extra, status: to, statusReason: by.reason ?? null, updatedAt: at })
    .where(and(eq(loanApplications.id, application.id), eq(loanApplications.status, from)))
    .returning({ id: loanApplications.id });
  if (moved.length === 0) throw new TransitionError(from, to);
  await auditStatus({ db: tx }, { applicationId: application.id, from, to, by, at, details });
  // A loan that stops being active (closed, cancelled, written off, its disbursal returned) ends its
  // autopay: at the provider, by a job queued in this transaction (never a call out inside it).
  if (from === "active" && to !== "active") {
    await jobs.send(
      "mandate-end",
      { applicationId: application.id, reason: MANDATE_END_REASON[to] ?? "The loan is no longer active" },
      { db: tx },
    );
    // Its collections case closes with it (closed, cancelled or written off).
    await syncCases({ db: tx }, { today: todayIST(at), applicationIds: [application.id] });
  }
}

/** The audit row of a status change (`from` is null when the application is created). */
export async function auditStatus(
  { db }: { db: Db },
  {
    applicationId,
    from,
    to,
    by,
    at,
    details,
  }: { applicationId: string; from: string | null; to: LoanStatus; by: ChangeBy; at: Date; details?: Record<string, unknown> },
) {
  await audit(
    { db },
    {
      by: by.actor === "system" ? "system" : { id: by.actorUserId, role: by.actor },
      client: by.actor === "system" ? null : { ip: by.ip, userAgent: by.userAgent },
      at,
      action: "loan.status",
      subject: applicationSubject(applicationId),
      details: { from, to, reason: by.reason ?? null, ...details },
    },
  );
}
