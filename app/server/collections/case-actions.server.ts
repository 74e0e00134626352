/**
 * What staff and the borrower do on a collections case (docs/product.md "Collections"), each with
 * the loan locked and audited: assign it, pause and resume its reminders (with a reason), log a
 * contact (an outbound one only between 08:00 and 19:00 India time; a call closes the call tasks of
 * the case that are due), and make a promise to pay (staff after a call, or the borrower from the
 * loan page), which replaces an open one.
 */
import { and, eq, isNull, lte } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type ContactChannel, inContactHours, OUTBOUND_CHANNELS, type PauseKind, PROMISE_MAX_DAYS } from "../../domain/collections.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import type { ContactOutcome, StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { isStaffRole } from "../../domain/roles.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { collectionCases, collectionNotes, collectionTasks, loanAccounts, loanApplications, promisesToPay, users } from "../db/schema.ts";
import { businessToday } from "../loan-account/account.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { syncCases } from "./cases.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;
type Tx = Pick<AppServices, "db">;

/** The loan (locked) and its open case, by loan number; `userId` limits it to the borrower's own loan. */
async function lockCase({ db }: Tx, { loanNumber, userId }: { loanNumber: string; userId?: string }) {
  const [a] = await db
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.loanNumber, loanNumber), userId ? eq(loanApplications.userId, userId) : undefined))
    .for("update");
  if (!a?.disbursalDate) return null;
  const [c] = await db
    .select()
    .from(collectionCases)
    .where(and(eq(collectionCases.applicationId, a.id), isNull(collectionCases.closedOn)));
  return { application: a, case: c ?? null };
}

/** Staff give the open case to an operations or support member (or take it), audited. */
export async function assignCase(
  services: Services,
  { staff, client, loanNumber, assignee }: { staff: Staff; client: Client; loanNumber: string; assignee: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const found = await lockCase({ db: tx }, { loanNumber });
    if (!found) return { ok: false, reason: "not_found" };
    if (!found.case) return { ok: false, reason: "no_case" };
    const [person] = await tx
      .select({ id: users.id, role: users.role, name: users.name, disabledAt: users.disabledAt })
      .from(users)
      .where(eq(users.id, assignee));
    if (!person || person.disabledAt || !isStaffRole(person.role) || !["operations", "support", "admin"].includes(person.role))
      return { ok: false, reason: "bad_assignee" };
    const from = found.case.assigneeUserId;
    if (from === assignee) return { ok: true, message: `${person.name ?? "They"} already work this case.` };
    await tx.update(collectionCases).set({ assigneeUserId: assignee, updatedAt: at }).where(eq(collectionCases.id, found.case.id));
    // The open call tasks follow the case.
    await tx
      .update(collectionTasks)
      .set({ assigneeUserId: assignee })
      .where(and(eq(collectionTasks.caseId, found.case.id), eq(collectionTasks.status, "open")));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "collections.assigned",
        subject: applicationSubject(found.application.id),
        details: { caseId: found.case.id, from, to: assignee },
      },
    );
    return { ok: true, message: `The case is now ${person.name ?? "theirs"}.` };
  });
}

/** Staff pause the case's reminders (hardship, dispute) with a reason, or resume them; audited. */
export async function pauseDunning(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    pause,
  }: { staff: Staff; client: Client; loanNumber: string; pause: { kind: PauseKind; reason: string } | null },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const found = await lockCase({ db: tx }, { loanNumber });
    if (!found) return { ok: false, reason: "not_found" };
    if (!found.case) return { ok: false, reason: "no_case" };
    if (pause && found.case.pausedAt) return { ok: false, reason: "already_paused" };
    if (!pause && !found.case.pausedAt) return { ok: false, reason: "not_paused" };
    await tx
      .update(collectionCases)
      .set(
        pause
          ? { pausedAt: at, pauseKind: pause.kind, pauseReason: pause.reason, pausedBy: staff.id, updatedAt: at }
          : { pausedAt: null, pauseKind: null, pauseReason: null, pausedBy: null, updatedAt: at },
      )
      .where(eq(collectionCases.id, found.case.id));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: pause ? "collections.paused" : "collections.resumed",
        subject: applicationSubject(found.application.id),
        details: { caseId: found.case.id, ...(pause ?? { was: found.case.pauseKind, reason: found.case.pauseReason }) },
      },
    );
    return { ok: true, message: pause ? "Reminders are paused for this case." : "Reminders resume from the next daily run." };
  });
}

/** A contact logged on the loan (and its open case): an outbound one only in the hours borrowers may be contacted. */
export async function logContact(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    channel,
    outcome,
    note,
    followUpOn,
  }: {
    staff: Staff;
    client: Client;
    loanNumber: string;
    channel: ContactChannel;
    outcome: ContactOutcome;
    note: string;
    followUpOn?: IsoDate;
  },
): Promise<StaffResult> {
  const at = services.now();
  if (OUTBOUND_CHANNELS.includes(channel) && !inContactHours(at)) return { ok: false, reason: "outside_hours" };
  return services.db.transaction(async (tx) => {
    const found = await lockCase({ db: tx }, { loanNumber });
    if (!found) return { ok: false, reason: "not_found" };
    const [saved] = await tx
      .insert(collectionNotes)
      .values({
        applicationId: found.application.id,
        caseId: found.case?.id ?? null,
        staffUserId: staff.id,
        channel,
        outcome,
        note,
        followUpOn: followUpOn ?? null,
        createdAt: at,
      })
      .returning({ id: collectionNotes.id });
    // A call about the case does its call tasks that are due.
    if (found.case && saved && (channel === "call_out" || channel === "call_in"))
      await tx
        .update(collectionTasks)
        .set({ status: "done", noteId: saved.id, doneAt: at })
        .where(
          and(eq(collectionTasks.caseId, found.case.id), eq(collectionTasks.status, "open"), lte(collectionTasks.dueOn, todayIST(at))),
        );
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "collections.note",
        subject: applicationSubject(found.application.id),
        details: { caseId: found.case?.id ?? null, channel, outcome, followUpOn: followUpOn ?? null },
      },
    );
    return { ok: true, message: "Contact saved." };
  });
}

export type PromiseResult =
  { ok: true; message: string } | { ok: false; reason: "not_found" | "no_case" | "bad_date" | "too_much" | "promise_open" };

/**
 * A promise to pay `amountPaise` by `dueOn` (today to 7 days ahead, at most what is owed now) on the
 * loan's open case, by staff or by the borrower (`userId`: their own loan only). It replaces an open
 * promise; it is judged from the ledger at once (a payment already made today counts).
 */
export async function makePromise(
  services: Services,
  {
    by,
    client,
    loanNumber,
    amountPaise,
    dueOn,
  }: { by: { staff: Staff } | { borrower: string }; client: Client; loanNumber: string; amountPaise: number; dueOn: IsoDate },
): Promise<PromiseResult> {
  const at = services.now();
  const today = businessToday(services);
  if (dueOn < today || dueOn > addDays(today, PROMISE_MAX_DAYS)) return { ok: false, reason: "bad_date" };
  return services.db.transaction(async (tx): Promise<PromiseResult> => {
    const found = await lockCase({ db: tx }, { loanNumber, userId: "borrower" in by ? by.borrower : undefined });
    if (!found) return { ok: false, reason: "not_found" };
    if (!found.case) return { ok: false, reason: "no_case" };
    // What is owed by the promise's date: the overdue instalments, the penal charges, and the next instalment if due by then.
    const [acct] = await tx.select().from(loanAccounts).where(eq(loanAccounts.applicationId, found.application.id));
    const owed =
      (acct?.overduePaise ?? 0) +
      (acct?.penalDuePaise ?? 0) +
      (acct?.nextDueDate && acct.nextDueDate <= dueOn ? (acct.nextDuePaise ?? 0) : 0);
    if (amountPaise > owed) return { ok: false, reason: "too_much" };
    // The borrower keeps to the promise they made; staff may replace it after talking to them.
    if ("borrower" in by) {
      const [open] = await tx
        .select({ id: promisesToPay.id })
        .from(promisesToPay)
        .where(and(eq(promisesToPay.caseId, found.case.id), eq(promisesToPay.status, "open")));
      if (open) return { ok: false, reason: "promise_open" };
    }
    await tx
      .update(promisesToPay)
      .set({ status: "cancelled", resolvedOn: today })
      .where(and(eq(promisesToPay.caseId, found.case.id), eq(promisesToPay.status, "open")));
    await tx.insert(promisesToPay).values({
      caseId: found.case.id,
      applicationId: found.application.id,
      amountPaise,
      madeOn: today,
      dueOn,
      staffUserId: "staff" in by ? by.staff.id : null,
      createdAt: at,
    });
    await audit(
      { db: tx },
      {
        by: "staff" in by ? by.staff : { id: by.borrower, role: "borrower" },
        client,
        at,
        action: "collections.promise",
        subject: applicationSubject(found.application.id),
        details: { caseId: found.case.id, amountPaise, dueOn },
      },
    );
    await syncCases({ db: tx }, { today, applicationIds: [found.application.id] });
    return { ok: true, message: `Promise to pay ${formatRupees(amountPaise)} by ${longDate(dueOn)} saved.` };
  });
}
