import { eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { bookPositions, journalLines, loanAccounts, loanApplications } from "../../app/server/db/schema.ts";
import { ledgerOf, termsOf } from "../../app/server/loan-account/account.server.ts";
import { replay } from "../../app/domain/loans/servicing.ts";
import { daysBetween, type IsoDate } from "../../app/domain/loan-math.ts";
import type { TestServer } from "./server.ts";

type Services = TestServer["services"];

/** Every journal entry balances to the paisa (a list of those that do not, which should be empty). */
export async function unbalancedEntries(services: Services) {
  const rows = (await services.db.execute(sql`
    select entry_id, sum(debit_paise) - sum(credit_paise) as off from journal_lines group by entry_id having sum(debit_paise) <> sum(credit_paise)`)) as unknown as {
    rows: { entry_id: string; off: string }[];
  };
  return rows.rows;
}

/** The trial balance on `date`: total debits and credits of every account's balance. */
export async function trialTotals(services: Services, date: IsoDate) {
  const rows = (await services.db.execute(sql`
    select purpose, sum(debit_paise - credit_paise)::bigint as balance from journal_lines where entry_date <= ${date} group by purpose`)) as unknown as {
    rows: { purpose: string; balance: string }[];
  };
  let debits = 0;
  let credits = 0;
  for (const r of rows.rows) {
    const b = Number(r.balance);
    if (b > 0) debits += b;
    else credits -= b;
  }
  return { debits, credits, balances: Object.fromEntries(rows.rows.map((r) => [r.purpose, Number(r.balance)])) };
}

/**
 * Interest accrued on an instalment by the end of `through`, worked out here on its own (not with
 * the books' code): the same whole paise each day of its period, the remainder on its due date.
 */
function accruedOn(interest: number, from: IsoDate, due: IsoDate, through: IsoDate) {
  if (through <= from) return 0;
  if (through >= due) return interest;
  return Math.floor(interest / daysBetween(from, due)) * daysBetween(from, through);
}

/**
 * For every loan on the books: loans receivable equals the replay's principal outstanding, interest
 * receivable equals billed-and-unpaid plus accrued-and-not-billed, penal receivable the charges
 * unpaid; the positions kept equal the journal lines' sums. Returns what it checked.
 */
export async function expectBooksMatchLedger(services: Services, today: IsoDate, only?: readonly string[]) {
  const accounts = await services.db
    .select({ account: loanAccounts, status: loanApplications.status })
    .from(loanAccounts)
    .innerJoin(loanApplications, eq(loanApplications.id, loanAccounts.applicationId))
    .where(only ? inArray(loanAccounts.applicationId, [...only]) : undefined);
  let checked = 0;
  for (const { account, status } of accounts) {
    const id = account.applicationId;
    const lines = await services.db
      .select({ purpose: journalLines.purpose, debit: journalLines.debitPaise, credit: journalLines.creditPaise })
      .from(journalLines)
      .where(eq(journalLines.applicationId, id));
    const sum = (p: string) => lines.filter((l) => l.purpose === p).reduce((s, l) => s + l.debit - l.credit, 0);
    const positions = await services.db.select().from(bookPositions).where(eq(bookPositions.applicationId, id));
    for (const p of positions) expect(p.balancePaise, `${id} ${p.purpose} position`).toBe(sum(p.purpose));
    if (status === "written_off") {
      // Written off: nothing receivable is left on the books (what was lost went to the provision and expense).
      for (const p of ["loans_receivable", "interest_receivable", "penal_receivable", "interest_suspense"])
        expect(sum(p), `${id} ${p} after the write-off`).toBe(0);
      checked++;
      continue;
    }
    if (status === "closed" || status === "cancelled") {
      for (const p of ["loans_receivable", "interest_receivable", "penal_receivable", "interest_suspense", "unapplied_receipts"])
        expect(sum(p), `${id} ${p} once ${status}`).toBe(0);
      expect(sum("refunds_payable") + account.refundDuePaise, `${id} refund due once ${status}`).toBe(0);
      checked++;
      continue;
    }
    if (status !== "active") continue;
    const found = await termsOf(services, id);
    if (!found) continue;
    const state = replay(found.terms, (await ledgerOf(services, id)).events, today);
    const through = account.accruedThrough ?? account.disbursalDate;
    let billedUnpaid = 0;
    let accruedUnbilled = 0;
    let from = found.terms.disbursalDate;
    for (const r of state.instalments) {
      if (r.dueDate <= through) billedUnpaid += r.interestPaise - r.paidInterestPaise;
      else accruedUnbilled += accruedOn(r.interestPaise, from, r.dueDate, through) - r.paidInterestPaise;
      from = r.dueDate;
    }
    expect(sum("loans_receivable"), `${id} loans receivable`).toBe(state.outstandingPrincipalPaise);
    expect(sum("interest_receivable"), `${id} interest receivable`).toBe(billedUnpaid + accruedUnbilled);
    expect(sum("penal_receivable"), `${id} penal receivable`).toBe(state.penalDuePaise);
    expect(sum("unapplied_receipts") + state.advancePaise, `${id} advance`).toBe(0);
    expect(sum("interest_suspense") + (account.npaSince ? Math.max(0, billedUnpaid + accruedUnbilled) : 0), `${id} suspense`).toBe(0);
    checked++;
  }
  return checked;
}

/** Each reversing entry and the entry it reverses net to nothing, line by line (a list of those that do not). */
export async function reversalsNotNetting(services: Services) {
  const rows = (await services.db.execute(sql`
    select r.id, l.purpose, l.application_id, sum(l.debit_paise - l.credit_paise) as net
    from journal_entries r join journal_lines l on l.entry_id in (r.id, r.reverses_id)
    where r.reverses_id is not null
    group by r.id, l.purpose, l.application_id having sum(l.debit_paise - l.credit_paise) <> 0`)) as unknown as { rows: unknown[] };
  return rows.rows;
}
