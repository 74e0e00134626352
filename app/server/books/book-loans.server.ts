/**
 * `bookLoan` (book-loan.server.ts) for several loans at once: the daily run's page of loans it
 * charged, booked in a few statements (docs/product.md "The lender's books").
 */
import { inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { netted, type Standing } from "../../domain/books/positions.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { LoanState, LoanTerms, ServicingEvent } from "../../domain/loans/servicing.ts";
import { loanAccounts, loanApplications } from "../db/schema.ts";
import { type AccountRow, loansForReplay, termsFrom } from "../loan-account/account.server.ts";
import { bookLoan } from "./book-loan.server.ts";
import { type EntryInput, postEntries, positionsOfLoans } from "./journal.server.ts";
import {
  addLines,
  basisKept,
  entryBooking,
  keepBases,
  type LoanContext,
  plainStatedLines,
  type Row,
  standingOf,
  stateAfter,
} from "./loan-entries.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/**
 * Loans as a caller holding them locked read them (`loansForReplay`'s after its last write to
 * their ledgers), with their numbers: their schedules, ledger rows and autopay debits in flight,
 * which only a writer holding the loan locks changes.
 */
export interface LoanRead {
  terms: Pick<LoanTerms, "instalments">;
  rows: Row[];
  events: ServicingEvent[];
  loanNumber: string | null;
}
export type LoansRead = ReadonlyMap<string, LoanRead>;

/**
 * `bookLoan` for several loans at once, in the caller's transaction (the daily run's page of loans
 * it charged): a loan whose entries not yet booked all state their lines without a read (penal
 * charges) and whose book facts are complete is booked with the others in a few statements (the
 * accounts locked and read together, the ledgers, schedules, positions and bases read together, the
 * entries posted together), to the same entries, lines, positions and basis `bookLoan` gives it;
 * any other loan is booked by `bookLoan`. With `read`, the loans' schedules, ledgers and numbers
 * are taken from it rather than read again; their accounts are read here all the same, as they are
 * locked (the books' accrual moves an account's `accrued_through` with only the account locked).
 */
export async function bookLoans(services: Services, { applicationIds, read }: { applicationIds: readonly string[]; read?: LoansRead }) {
  if (applicationIds.length === 0) return;
  const { db } = services;
  const ids = [...applicationIds];
  const accounts = await db.select().from(loanAccounts).where(inArray(loanAccounts.applicationId, ids)).for("update");
  const unread = ids.filter((id) => !read?.has(id));
  const loans = await loansForReplay(services, unread);
  for (const [id, loan] of loansFrom(services, accounts, read)) loans.set(id, loan);
  const numbers = new Map(
    (unread.length
      ? await db
          .select({ id: loanApplications.id, loanNumber: loanApplications.loanNumber })
          .from(loanApplications)
          .where(inArray(loanApplications.id, unread))
      : []
    ).map((a) => [a.id, a.loanNumber] as const),
  );
  for (const [id, loan] of read ?? []) numbers.set(id, loan.loanNumber);
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

/** The loans of `read` as `loansForReplay` gives them, with their accounts as locked now (a loan without an account is left out). */
function loansFrom(services: Pick<Services, "config">, accounts: readonly AccountRow[], read: LoansRead | undefined) {
  return accounts.flatMap((account) => {
    const loan = read?.get(account.applicationId);
    if (!loan) return [];
    const { rows, events } = loan;
    return [[account.applicationId, { account, terms: termsFrom(services, account, loan.terms.instalments), rows, events }] as const];
  });
}
