/**
 * Pre-debit notices (docs/product.md "Autopay"): for each instalment an active mandate will pay,
 * the notice (SMS, e-mail, push, in-app) goes out 2 days before its presentation date, between
 * 08:00 and 19:00 India time, at least 24 hours before the debit; the debit is stored with it,
 * waiting for its date, and never takes more than the notice names. Run by the daily job and when
 * a mandate becomes active; an instalment told once is never told again (one row per attempt).
 */
import { and, asc, between, eq, gt, inArray, notExists, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { noticeDay, noticeIsInTime, presentationDate } from "../../domain/loans/autopay.ts";
import { advanceCover, loanPath, replay } from "../../domain/loans/servicing.ts";
import { daytime } from "../../domain/notifications.ts";
import { loanApplications, loanInstalments, mandateDebits, mandates } from "../db/schema.ts";
import { loansForReplay } from "../loan-account/account.server.ts";
import { type NoticeInput, notifyMany } from "../notifications/notify.server.ts";
import { newDebitReference } from "./debit-rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

/** How far back a due date can lie from its presentation (e-NACH waits for a working day). */
const LONGEST_HOLIDAY_RUN = 7;

/**
 * The notices due on `day` (today): instalments whose presentation date is 1 or 2 days ahead and
 * whose notice can still be 24 hours before it; `applicationIds` limits it to those loans (a
 * mandate just approved). Returns how many debits were announced.
 */
export async function noticeDebits(services: Services, { day, applicationIds }: { day: IsoDate; applicationIds?: readonly string[] }) {
  const at = services.now();
  // The notice goes out now, or at 08:00 when it is made at night.
  const noticeAt = daytime(at);
  let after = "00000000-0000-0000-0000-000000000000";
  let announced = 0;
  for (;;) {
    // The candidates, set-based: an active loan with an active mandate and an instalment due in the
    // window that has no first debit yet.
    const page = await services.db
      .selectDistinct({ id: loanApplications.id })
      .from(mandates)
      .innerJoin(loanApplications, eq(loanApplications.id, mandates.applicationId))
      .innerJoin(loanInstalments, eq(loanInstalments.applicationId, loanApplications.id))
      .where(
        and(
          eq(mandates.status, "active"),
          eq(loanApplications.status, "active"),
          gt(loanApplications.id, after),
          // Said of the instalments too: the planner does not carry it across the join, and without it each page
          // scanned the instalments from the first loan (a page took seconds at 1,000,000 loans).
          gt(loanInstalments.applicationId, after),
          applicationIds ? inArray(loanApplications.id, [...applicationIds]) : undefined,
          between(loanInstalments.dueDate, addDays(day, -LONGEST_HOLIDAY_RUN), addDays(day, 2)),
          notExists(
            services.db
              .select({ one: sql`1` })
              .from(mandateDebits)
              .where(and(eq(mandateDebits.applicationId, loanApplications.id), eq(mandateDebits.seq, loanInstalments.seq))),
          ),
        ),
      )
      .orderBy(asc(loanApplications.id))
      .limit(500);
    if (page.length === 0) break;
    announced += await services.db.transaction((tx) =>
      announce(
        { ...services, db: tx },
        page.map((p) => p.id),
        day,
        noticeAt,
      ),
    );
    after = page[page.length - 1]?.id ?? after;
  }
  return announced;
}

/** One page of loans: each instalment the notice is due for stored as a debit waiting for its date, and its notice. */
async function announce(services: Services, ids: string[], day: IsoDate, noticeAt: Date): Promise<number> {
  const { db } = services;
  const at = services.now();
  const live = await db
    .select({ mandate: mandates, loanNumber: loanApplications.loanNumber, product: loanApplications.product })
    .from(mandates)
    .innerJoin(loanApplications, eq(loanApplications.id, mandates.applicationId))
    .where(and(inArray(mandates.applicationId, ids), eq(mandates.status, "active"), eq(loanApplications.status, "active")));
  const loans = await loansForReplay(services, ids);
  const told = new Set(
    (
      await db
        .select({ applicationId: mandateDebits.applicationId, seq: mandateDebits.seq })
        .from(mandateDebits)
        .where(inArray(mandateDebits.applicationId, ids))
    ).map((d) => `${d.applicationId}:${d.seq}`),
  );
  const debits: (typeof mandateDebits.$inferInsert)[] = [];
  const notices: NoticeInput<"autopay_notice">[] = [];
  for (const { mandate: m, loanNumber, product } of live) {
    const loan = loans.get(m.applicationId);
    if (!loan || !loanNumber) continue;
    const state = replay(loan.terms, loan.events, day);
    if (state.settlement) continue;
    const cover = advanceCover(state);
    for (const r of state.instalments) {
      if (told.has(`${m.applicationId}:${r.seq}`) || r.status !== "upcoming") continue;
      const presentOn = presentationDate(r.dueDate, m.kind, services.config.holidays);
      if (presentOn <= day || noticeDay(presentOn) > day || !noticeIsInTime(noticeAt, presentOn)) continue;
      const unpaid = r.principalPaise + r.interestPaise - r.paidPrincipalPaise - r.paidInterestPaise - (cover.get(r.seq) ?? 0);
      const noticePaise = Math.min(unpaid, m.maxAmountPaise);
      if (noticePaise <= 0) continue;
      debits.push({
        reference: newDebitReference(),
        mandateId: m.id,
        applicationId: m.applicationId,
        userId: m.userId,
        seq: r.seq,
        attempt: 1,
        dueDate: r.dueDate,
        presentOn,
        status: "notified",
        noticePaise,
        noticeAt,
        createdAt: at,
        updatedAt: at,
      });
      notices.push({
        userId: m.userId,
        event: "autopay_notice",
        key: `${m.applicationId}:${r.seq}:1`,
        data: {
          loanNumber,
          loanPath: loanPath(product, loanNumber),
          amountPaise: noticePaise,
          presentOn,
          mandate: m.kind,
          accountMasked: m.accountMasked,
        },
      });
    }
  }
  if (debits.length === 0) return 0;
  const stored = await db
    .insert(mandateDebits)
    .values(debits)
    .onConflictDoNothing()
    .returning({ applicationId: mandateDebits.applicationId, seq: mandateDebits.seq });
  const kept = new Set(stored.map((d) => `${d.applicationId}:${d.seq}:1`));
  await notifyMany(
    services,
    notices.filter((n) => kept.has(n.key)),
  );
  return stored.length;
}
