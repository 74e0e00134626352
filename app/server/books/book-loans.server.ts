/**
 * `bookLoan` (book-loan.server.ts) for several loans at once: the daily run's page of loans it
 * charged, booked in a few statements (docs/product.md "The lender's books").
 */
import { inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { netted, type Standing } from "../../domain/books/positions.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { LoanState } from "../../domain/loans/servicing.ts";
import { loanAccounts, loanApplications } from "../db/schema.ts";
import { loansForReplay } from "../loan-account/account.server.ts";
import { bookLoan } from "./book-loan.server.ts";
import { type EntryInput, postEntries, positionsOfLoans } from "./journal.server.ts";
import {
  addLines,
  basisKept,
  entryBooking,
  keepBases,
  type LoanContext,
  plainStatedLines,
  standingOf,
  stateAfter,
} from "./loan-entries.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/**
 * `bookLoan` for several loans at once, in the caller's transaction (the daily run's page of loans
 * it charged): a loan whose entries not yet booked all state their lines without a read (penal
 * charges) and whose book facts are complete is booked with the others in a few statements (the
 * accounts locked together, the ledgers, schedules, positions and bases read together, the entries
 * posted together), to the same entries, lines, positions and basis `bookLoan` gives it; any other
 * loan is booked by `bookLoan`.
 */
export async function bookLoans(services: Services, { applicationIds }: { applicationIds: readonly string[] }) {
  if (applicationIds.length === 0) return;
  const { db } = services;
  const ids = [...applicationIds];
  await db.select({ id: loanAccounts.applicationId }).from(loanAccounts).where(inArray(loanAccounts.applicationId, ids)).for("update");
  const loans = await loansForReplay(services, ids);
  const numbers = new Map(
    (
      await db
        .select({ id: loanApplications.id, loanNumber: loanApplications.loanNumber })
        .from(loanApplications)
        .where(inArray(loanApplications.id, ids))
    ).map((a) => [a.id, a.loanNumber] as const),
  );
  const today = todayIST(services.now());
  const alone: string[] = [];
  const together: { ctx: LoanContext; standing: Standing; state: LoanState | null; entries: EntryInput[] }[] = [];
  const positionsOf = await positionsOfLoans(services, ids);
  for (const id of ids) {
    const loan = loans.get(id);
    if (!loan) continue;
    const { account, terms, rows, events } = loan;
    const unbooked = rows.filter((r) => r.entryNo > account.bookedThrough);
    if (unbooked.length === 0) continue;
    const complete =
      account.feePaise !== null && account.feeGstPaise !== null && account.gstSplit && account.framework && account.accruedThrough;
    const stated = unbooked.map((r) => plainStatedLines(account, r));
    if (!complete || stated.some((l) => l === null)) {
      alone.push(id);
      continue;
    }
    const ctx: LoanContext = {
      account,
      terms,
      loanNumber: numbers.get(id) ?? "the loan",
      rows,
      pending: events.filter((e) => e.kind === "debit_pending"),
    };
    let positions = positionsOf.get(id) ?? {};
    let standing: Standing = "not_disbursed";
    let state: LoanState | null = null;
    const entries: EntryInput[] = [];
    unbooked.forEach((r, i) => {
      const prefix = rows.filter((x) => x.entryNo <= r.entryNo);
      const before = standingOf(prefix.slice(0, -1));
      standing = standingOf(prefix);
      state = stateAfter(ctx, prefix, standing, today);
      const entry = entryBooking(ctx, r, { before, standing, state }, positions, stated[i] ?? []);
      entries.push(entry);
      positions = addLines(positions, netted(entry.lines), id);
    });
    together.push({ ctx, standing, state, entries });
  }
  await postEntries(
    services,
    together.flatMap((t) => t.entries),
  );
  await keepBases(
    services,
    together.map((t) => ({ applicationId: t.ctx.account.applicationId, basis: basisKept(t.ctx, t.standing, t.state) })),
  );
  const marks = together.flatMap((t) => {
    const last = t.ctx.rows[t.ctx.rows.length - 1];
    return last ? [sql`(${t.ctx.account.applicationId}::uuid, ${last.entryNo}::bigint)`] : [];
  });
  if (marks.length)
    await db.execute(sql`
      update loan_accounts c set booked_through = v.booked_through
      from (values ${sql.join(marks, sql`, `)}) as v(id, booked_through) where c.application_id = v.id`);
  for (const id of alone) await bookLoan(services, { applicationId: id });
}
