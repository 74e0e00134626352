/**
 * The daily servicing run (docs/product.md "Loan servicing"), at 00:30 Asia/Kolkata on the job
 * queue: for each active loan that a date can change (a due date reached, something overdue), the
 * penal charges the rules warrant are levied (once: a unique index per instalment) with their SMS,
 * charges an on-time payment no longer warrants are reversed, and the cached figures (days past due,
 * next due) are rewritten. Running it twice for a day changes nothing; after downtime it runs each
 * missed day in order.
 */
import { syncCases } from "../collections/cases.server.ts";
import { refreshStatistics } from "../db/statistics.server.ts";
import { inTurns } from "../jobs/in-turns.server.ts";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { type DailyRun, dailyRun } from "../../domain/loans/daily.ts";
import { type LoanState, type LoanTerms, nextDue, replay } from "../../domain/loans/servicing.ts";
import { todayIST } from "../../domain/india-date.ts";
import { loanAccounts, loanApplications, loanLedger, servicingRuns } from "../db/schema.ts";
import { notifyMany } from "../notifications/notify.server.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { businessToday, cacheState, cacheStates, ledgerOf, loansForReplay, termsOf } from "../loan-account/account.server.ts";
import { afterLedgerChange } from "../loan-account/ledger-change.server.ts";
import { reconcileLoans } from "../books/book-loan.server.ts";
import { bookLoans, type LoanRead } from "../books/book-loans.server.ts";
import type { Application } from "../loans/rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** The loans a date can change: due on or before it, something overdue or charged, or never figured yet. */
const touchedBy = (day: IsoDate) =>
  and(
    eq(loanApplications.status, "active"),
    or(
      lte(loanAccounts.nextDueDate, day),
      gt(loanAccounts.overduePaise, 0),
      gt(loanAccounts.penalDuePaise, 0),
      isNull(loanAccounts.nextDueDate),
    ),
  );

/** One loan on one business date, in one transaction with the loan locked. */
async function serviceLoan(services: Services, applicationId: string, day: IsoDate): Promise<{ levied: number; reversed: number }> {
  return services.db.transaction(async (tx) => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, applicationId)).for("update");
    if (!a || a.status !== "active") return { levied: 0, reversed: 0 };
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return { levied: 0, reversed: 0 };
    const { events } = await ledgerOf({ db: tx }, a.id);
    const run = dailyRun(found.terms, events, day);
    const at = services.now();
    if (run.levy.length === 0 && run.reverse.length === 0) {
      // Nothing to write to the ledger (most loans most days): only the cached figures move on.
      const state = replay(found.terms, events, todayIST(at));
      if (!state.settlement) {
        await cacheState({ ...services, db: tx }, { applicationId: a.id, state });
        return { levied: 0, reversed: 0 };
      }
    }
    return levyAndSettle({ ...services, db: tx }, { application: a, terms: found.terms, run, at });
  });
}

/**
 * A loan's day that writes to its ledger, in the caller's transaction with the loan locked: the penal
 * charges `run` asks for levied (once: a unique index per instalment) with their SMS, then the
 * reversals, the cached figures and a closure (a charge reversed can leave nothing owed) as any ledger change.
 */
async function levyAndSettle(
  services: Services,
  { application: a, terms, run, at }: { application: Application; terms: LoanTerms; run: DailyRun; at: Date },
): Promise<{ levied: number; reversed: number }> {
  const levied = await levyCharges(services, [{ application: a, terms, run }], at);
  await afterLedgerChange(services, { application: a, at });
  return { levied, reversed: run.reverse.length };
}

/**
 * A page of loans in one transaction, locked together: each replayed in memory; those with nothing
 * for the ledger (most loans most days) get their cached figures in one statement; those with a
 * charge to levy or reverse, or now settled, are served one by one as `serviceLoan` serves them
 * (`levyAndSettle`), in this transaction. Should any fail, the whole page is undone (the caller then
 * serves its loans one by one).
 */
async function serviceBatch(
  services: Services,
  ids: readonly string[],
  day: IsoDate,
): Promise<{ cached: number; served: number; levied: number; reversed: number }> {
  return services.db.transaction(async (tx) => {
    const apps = await tx
      .select()
      .from(loanApplications)
      .where(and(inArray(loanApplications.id, [...ids]), eq(loanApplications.status, "active")))
      .orderBy(asc(loanApplications.id))
      .for("update");
    const byId = new Map(apps.map((a) => [a.id, a]));
    if (apps.length === 0) return { cached: 0, served: 0, levied: 0, reversed: 0 };
    const loans = await loansForReplay({ ...services, db: tx }, [...byId.keys()]);
    const today = todayIST(services.now());
    const more: { application: Application; terms: LoanTerms; run: DailyRun }[] = [];
    const states: { id: string; state: LoanState }[] = [];
    for (const [id, { terms, events }] of loans) {
      const run = dailyRun(terms, events, day);
      const state = run.levy.length || run.reverse.length ? null : replay(terms, events, today);
      const application = byId.get(id);
      if (!application) continue;
      if (!state || state.settlement) more.push({ application, terms, run });
      else states.push({ id, state });
    }
    if (states.length) {
      const at = services.now().toISOString();
      const values = sql.join(
        states.map(({ id, state }) => {
          const next = nextDue(state);
          return sql`(${id}::uuid, ${state.asOf}, ${state.outstandingPrincipalPaise}::int, ${state.overduePaise}::int, ${state.penalDuePaise}::int, ${state.dpd}::int, ${next?.dueDate ?? null}::text, ${next?.amountPaise ?? null}::int, ${state.advancePaise}::int, ${state.refundDuePaise}::int)`;
        }),
        sql`, `,
      );
      await tx.execute(sql`
        update loan_accounts c set as_of = v.as_of, outstanding_principal_paise = v.outstanding, overdue_paise = v.overdue,
          penal_due_paise = v.penal, dpd = v.dpd, next_due_date = v.next_due_date, next_due_paise = v.next_due_paise,
          advance_paise = v.advance, refund_due_paise = v.refund, settled_on = null, updated_at = ${at}::timestamptz
        from (values ${values}) as v(id, as_of, outstanding, overdue, penal, dpd, next_due_date, next_due_paise, advance, refund)
        where c.application_id = v.id`);
      await syncCases({ db: tx }, { today, applicationIds: states.map((s) => s.id) });
      // An advance applied to an instalment falling due today moves in the books too.
      const applied = states.filter((s) => s.state.advanceApplied.some((x) => x.on === day)).map((s) => s.id);
      if (applied.length)
        await reconcileLoans(
          { ...services, db: tx },
          {
            applicationIds: applied,
            kind: "advance_applied",
            businessDate: day,
            narration: (n) => `${n}: the advance held applied to the instalment due ${day}`,
          },
        );
    }
    const done = { cached: states.length, served: 0, levied: 0, reversed: 0 };
    const at = services.now();
    // Charges to levy and nothing to reverse (the night's usual writing): the page's together.
    const levying = more.filter((m) => m.run.levy.length > 0 && m.run.reverse.length === 0);
    done.levied += await levyTogether({ ...services, db: tx }, levying, at);
    done.served += levying.length;
    for (const loan of more) {
      if (levying.includes(loan)) continue;
      const { levied, reversed } = await levyAndSettle({ ...services, db: tx }, { ...loan, at });
      done.served++;
      done.levied += levied;
      done.reversed += reversed;
    }
    return done;
  });
}

/**
 * `levyAndSettle` for a page's loans that only have charges to levy, in the page's transaction
 * with the loans locked, in a few statements for them all: the charges inserted (once: the unique
 * index per instalment), their notices, the ledgers read again and replayed, the cached figures
 * and cases written, the charges booked (`bookLoans`, from that read). A loan the new charges leave
 * settled or with a charge to reverse takes `afterLedgerChange` as `levyAndSettle` gives it.
 * Returns how many charges were levied.
 */
async function levyTogether(services: Services, loans: readonly { application: Application; terms: LoanTerms; run: DailyRun }[], at: Date) {
  if (loans.length === 0) return 0;
  const levied = await levyCharges(services, loans, at);
  const today = todayIST(at);
  const replayed = await loansForReplay(
    services,
    loans.map((l) => l.application.id),
  );
  const states: { applicationId: string; state: LoanState }[] = [];
  // What `bookLoans` would read again: the ledgers with the new charges (only a writer holding the loans locked changes them).
  const read = new Map<string, LoanRead>();
  const alone: Application[] = [];
  for (const { application: a } of loans) {
    const loan = replayed.get(a.id);
    const state = loan && replay(loan.terms, loan.events, today);
    if (loan && state && !state.settlement && state.penalsUnwarranted.length === 0) {
      states.push({ applicationId: a.id, state });
      read.set(a.id, { ...loan, loanNumber: a.loanNumber });
    } else alone.push(a);
  }
  await cacheStates(services, states);
  await bookLoans(services, { applicationIds: [...read.keys()], read });
  for (const application of alone) await afterLedgerChange(services, { application, at });
  return levied;
}

/**
 * The penal charges `run` asks for on each loan, in the caller's transaction with the loans locked:
 * inserted together (each once: a unique index per instalment), and an overdue notice for each
 * charge levied now. Returns how many were.
 */
async function levyCharges(services: Services, loans: readonly { application: Application; terms: LoanTerms; run: DailyRun }[], at: Date) {
  const charges = loans.flatMap(({ application: a, terms, run }) =>
    run.levy.map((p) => ({ a, p, instalment: terms.instalments.find((i) => i.seq === p.seq) })),
  );
  // A loan settled with nothing to levy comes here too (from `levyAndSettle`).
  if (charges.length === 0) return 0;
  const inserted = await services.db
    .insert(loanLedger)
    .values(
      charges.map(({ a, p }) => ({
        applicationId: a.id,
        kind: "penal" as const,
        principalPaise: 0,
        amountPaise: p.amountPaise,
        businessDate: p.levyDate,
        seq: p.seq,
        details: { reason: "Instalment unpaid after its due date" },
        recordedAt: at,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: loanLedger.id, applicationId: loanLedger.applicationId, seq: loanLedger.seq });
  const levied = new Map(inserted.map((c) => [`${c.applicationId}:${c.seq}`, c.id]));
  // An overdue notice for each charge levied now: made at 00:30, it goes out at 08:00 (India).
  await notifyMany(
    services,
    charges.flatMap(({ a, p, instalment }) => {
      const id = levied.get(`${a.id}:${p.seq}`);
      return id && a.loanNumber && instalment
        ? [
            {
              userId: a.userId,
              event: "penal_charged" as const,
              key: id,
              data: {
                amountPaise: p.amountPaise,
                loanNumber: a.loanNumber,
                loanPath: loanPath(a.product, a.loanNumber),
                seq: p.seq,
                dueDate: instalment.dueDate,
                duePaise: p.unpaidPaise + p.amountPaise,
              },
            },
          ]
        : [];
    }),
  );
  return inserted.length;
}

/** How a run serves its loans: by pages in a transaction each (the default), or each loan in its own (`oneByOne`), as a failed page's loans are served. */
export interface ServingOptions {
  oneByOne?: boolean;
}

/** Runs one business date over every loan it can change; returns what it did. Safe to run again. */
export async function runServicingDay(services: Services, day: IsoDate, { oneByOne = false }: ServingOptions = {}) {
  const started = services.now();
  await services.db.insert(servicingRuns).values({ businessDate: day, startedAt: started }).onConflictDoNothing();
  let loans = 0;
  let levied = 0;
  let reversed = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  // In pages by id, so a run over 100,000 loans never holds them all; every 5,000 loans, the statistics of
  // what it changed so far (a first night rewrites the book).
  for (let pages = 0; ; pages++) {
    if (pages % 10 === 9) await refreshStatistics(services);
    const page = await services.db
      .select({ id: loanApplications.id })
      .from(loanApplications)
      .innerJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
      .where(and(touchedBy(day), gt(loanApplications.id, after)))
      .orderBy(asc(loanApplications.id))
      .limit(500);
    if (page.length === 0) break;
    let rest: string[] = page.map((r) => r.id);
    const batches: string[][] = [];
    if (!oneByOne) for (let i = 0; i < page.length; i += 100) batches.push(page.slice(i, i + 100).map((r) => r.id));
    // Pages of different loans, each locking its own: on PostgreSQL several at once (nightRunConcurrency connections).
    await inTurns(batches, services.config.nightRunConcurrency, async (ids) => {
      try {
        const done = await serviceBatch(services, ids, day);
        loans += done.cached + done.served;
        levied += done.levied;
        reversed += done.reversed;
        rest = rest.filter((id) => !ids.includes(id));
      } catch (error) {
        // A batch that failed is served loan by loan below.
        services.log.warn({ err: error, day }, "a batch of the daily run failed; serving its loans one by one");
      }
    });
    for (const id of rest) {
      try {
        const done = await serviceLoan(services, id, day);
        loans++;
        levied += done.levied;
        reversed += done.reversed;
      } catch (error) {
        // One loan's trouble never stops the others; the next run (or the catch-up) tries it again.
        services.log.error({ err: error, applicationId: id, day }, "the daily run could not service a loan");
      }
    }
    after = page[page.length - 1]?.id ?? after;
  }
  // Reminders are for the day itself: a day caught up after downtime is past, its reminders too.
  const reminders = day === businessToday(services) ? await queueReminders(services, day) : 0;
  await services.db
    .update(servicingRuns)
    .set({
      finishedAt: services.now(),
      loans: sql`${servicingRuns.loans} + ${loans}`,
      levied: sql`${servicingRuns.levied} + ${levied}`,
      reversed: sql`${servicingRuns.reversed} + ${reversed}`,
      reminders: sql`${servicingRuns.reminders} + ${reminders}`,
    })
    .where(eq(servicingRuns.businessDate, day));
  services.log.info(
    { day, loans, levied, reversed, reminders, ms: services.now().getTime() - started.getTime() },
    "daily servicing run finished",
  );
  return { day, loans, levied, reversed, reminders };
}

/** How many days ahead the first reminder goes. */
export const REMIND_DAYS_BEFORE = 3;

/**
 * The day's reminders: every active loan with something to pay due in 3 days or today (from the
 * figures the run just cached), as notices that go out from 08:00 India time. A page of loans per
 * transaction; each reminder is keyed by loan and due date, so running this again queues none twice.
 */
export async function queueReminders(services: Services, day: IsoDate): Promise<number> {
  const soon = addDays(day, REMIND_DAYS_BEFORE);
  let after = "00000000-0000-0000-0000-000000000000";
  let queued = 0;
  for (;;) {
    const page = await services.db
      .select({
        id: loanApplications.id,
        userId: loanApplications.userId,
        product: loanApplications.product,
        loanNumber: loanApplications.loanNumber,
        dueDate: loanAccounts.nextDueDate,
        amountPaise: loanAccounts.nextDuePaise,
      })
      .from(loanAccounts)
      .innerJoin(loanApplications, eq(loanApplications.id, loanAccounts.applicationId))
      .where(
        and(
          eq(loanApplications.status, "active"),
          inArray(loanAccounts.nextDueDate, [day, soon]),
          gt(loanAccounts.nextDuePaise, 0),
          gt(loanApplications.id, after),
        ),
      )
      .orderBy(asc(loanApplications.id))
      .limit(1000);
    if (page.length === 0) break;
    const notices = page.flatMap((r) =>
      r.loanNumber && r.dueDate && r.amountPaise
        ? [
            {
              userId: r.userId,
              event: r.dueDate === day ? ("due_today" as const) : ("due_soon" as const),
              key: `${r.id}:${r.dueDate}`,
              data: {
                loanNumber: r.loanNumber,
                loanPath: loanPath(r.product, r.loanNumber),
                amountPaise: r.amountPaise,
                dueDate: r.dueDate,
              },
            },
          ]
        : [],
    );
    queued += (await services.db.transaction((tx) => notifyMany({ ...services, db: tx }, notices))).length;
    after = page[page.length - 1]?.id ?? after;
  }
  return queued;
}

/**
 * Every business date from the day after the last finished run to today, in order (the first run
 * ever does today only: a loan's past charges are levied then, with their own dates).
 */
export async function catchUpServicing(services: Services, options: ServingOptions = {}) {
  const today = businessToday(services);
  const [last] = await services.db
    .select({ day: sql<string | null>`max(${servicingRuns.businessDate})` })
    .from(servicingRuns)
    .where(isNotNull(servicingRuns.finishedAt));
  let day = last?.day ? addDays(last.day, 1) : today;
  if (day > today) day = today;
  const done = [];
  for (; day <= today; day = addDays(day, 1)) done.push(await runServicingDay(services, day, options));
  return done;
}
