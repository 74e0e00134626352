// What the autopay debit operations share (docs/product.md "Autopay"): a debit's reference, the
// unpaid part of the instalments a debit can pay, a debit locked, and the debits pages list.
import { and, asc, desc, eq, gte, inArray, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { DEBIT_IN_FLIGHT } from "../../domain/loans/autopay.ts";
import { istDayStart } from "../../domain/india-date.ts";
import type { LoanState } from "../../domain/loans/servicing.ts";
import { jsonColumns } from "../db/json-rows.ts";
import { borrowerProfiles, loanApplications, mandateDebits, users } from "../db/schema.ts";
import { newReference } from "../loans/reference.server.ts";

export type MandateDebit = typeof mandateDebits.$inferSelect;

/** A new debit reference: `dd_` and 26 base-32 characters. */
export const newDebitReference = () => `dd_${newReference()}`;

/** What is unpaid of the instalments due by `on` (the oldest first: what a debit of that date pays). */
export const dueBy = (state: Pick<LoanState, "instalments">, on: IsoDate) =>
  state.instalments
    .filter((r) => r.dueDate <= on)
    .reduce((sum, r) => sum + r.principalPaise + r.interestPaise - r.paidPrincipalPaise - r.paidInterestPaise, 0);

/** A debit locked for the rest of the caller's transaction. */
export async function lockDebit({ db }: Pick<AppServices, "db">, id: string): Promise<MandateDebit | null> {
  const [d] = await db.select().from(mandateDebits).where(eq(mandateDebits.id, id)).for("update");
  return d ?? null;
}

/** The debits waiting for their date of a mandate that ended: never presented. */
export async function cancelWaitingDebits(
  { db }: Pick<AppServices, "db">,
  { mandateId, reason, at }: { mandateId: string; reason: string; at: Date },
) {
  await db
    .update(mandateDebits)
    .set({ status: "cancelled", reason, updatedAt: at })
    .where(and(eq(mandateDebits.mandateId, mandateId), eq(mandateDebits.status, "notified")));
}

/** A loan's debits by its number, newest first (with `userId`, only the borrower's own loan's). */
export async function debitsOf({ db }: Pick<AppServices, "db">, { loanNumber, userId }: { loanNumber: string; userId?: string }) {
  const rows = await db
    .select({ d: mandateDebits })
    .from(mandateDebits)
    .innerJoin(loanApplications, eq(loanApplications.id, mandateDebits.applicationId))
    .where(and(eq(loanApplications.loanNumber, loanNumber), userId ? eq(loanApplications.userId, userId) : undefined))
    .orderBy(desc(mandateDebits.presentOn), desc(mandateDebits.attempt))
    .limit(DEBITS_SHOWN);
  return rows.map(({ d }) => debitView(d));
}
const DEBITS_SHOWN = 24;

/**
 * A loan's debits as `debitsOf` lists them, as JSON beside the loan's row (`applicationId` is its
 * column): the borrower's loan page reads them in its one statement. `debitsFromJson` reads them.
 */
export const debitsColumn = (applicationId: AnyPgColumn) =>
  sql`(select coalesce(json_agg(${debitJson.sql} order by d.present_on desc, d.attempt desc), '[]') from (select * from mandate_debits x where x.application_id = ${applicationId} order by x.present_on desc, x.attempt desc limit ${sql.raw(String(DEBITS_SHOWN))}) d)`;
const debitJson = jsonColumns(mandateDebits, "d");

/** The debits of `debitsColumn` as `debitsOf` gives them. */
export const debitsFromJson = (json: unknown) => (json as Record<string, unknown>[]).map((d) => debitView(debitJson.decode(d)));

/** A debit as pages list it. */
function debitView(d: MandateDebit) {
  return {
    id: d.id,
    reference: d.reference,
    seq: d.seq,
    attempt: d.attempt,
    dueDate: d.dueDate,
    presentOn: d.presentOn,
    status: d.status,
    amountPaise: d.amountPaise ?? d.noticePaise,
    reason: d.reason,
    answeredAt: d.answeredAt?.toISOString() ?? null,
    excessPaise: d.excessPaise,
    excessChoice: d.excessChoice,
    excessRefundOn: d.excessRefundOn,
  };
}

/**
 * Operations' list (docs/product.md "Autopay"): the debits in progress (oldest presentation first)
 * and those the bank returned today, each with its loan and borrower.
 */
export async function debitsToWatch({ db }: Pick<AppServices, "db">, { today }: { today: IsoDate }) {
  const rows = await db
    .select({
      d: mandateDebits,
      loanNumber: loanApplications.loanNumber,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
    })
    .from(mandateDebits)
    .innerJoin(loanApplications, eq(loanApplications.id, mandateDebits.applicationId))
    .innerJoin(users, eq(users.id, mandateDebits.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, mandateDebits.userId))
    .where(
      or(
        inArray(mandateDebits.status, [...DEBIT_IN_FLIGHT]),
        and(eq(mandateDebits.status, "bounced"), gte(mandateDebits.answeredAt, istDayStart(today))),
      ),
    )
    .orderBy(asc(mandateDebits.presentOn), asc(mandateDebits.id))
    .limit(500);
  const view = rows.map((r) => ({
    id: r.d.id,
    loanNumber: r.loanNumber ?? "",
    name: r.name,
    mobile: r.mobile,
    seq: r.d.seq,
    attempt: r.d.attempt,
    presentOn: r.d.presentOn,
    amountPaise: r.d.amountPaise ?? r.d.noticePaise,
    status: r.d.status,
    reason: r.d.reason,
  }));
  return { inProgress: view.filter((r) => r.status !== "bounced"), bouncedToday: view.filter((r) => r.status === "bounced") };
}
