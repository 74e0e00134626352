/**
 * Reconciliation's matching (docs/product.md "The lender's books"): each statement line to its
 * journal line (the same account, side, provider id and amount, dated on or before the statement's
 * date), an exception for each one that finds none, and an exception for each journal line on the
 * gateway clearing or payout account that no statement lists once it is older than the configured
 * days. Idempotent: an exception is raised once per line (unique indexes), and one whose other side
 * turns up later is resolved by matching, with a note saying so.
 */
import { and, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type JournalCandidate, matchLine, RECONCILIATION_ENTRY_KINDS, type StatementKind } from "../../domain/books/reconciliation.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { formatRupees } from "../../domain/money.ts";
import { audit } from "../audit.server.ts";
import { journalEntries, journalLines, reconExceptions, statementLines } from "../db/schema.ts";
import { rowsOf } from "../books/journal.server.ts";
import type { Staff } from "../review/rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config">;

/** One reconciliation at a time (an import, a matching run): they write the same lines and exceptions. */
export const lockReconciliation = ({ db }: Pick<AppServices, "db">) =>
  db.execute(sql`select pg_advisory_xact_lock(hashtext('reconciliation'))`);

const CHUNK = 500;
const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

/** The journal lines that may stand for statement lines with these provider ids (never reconciliation's own entries' lines). */
export async function candidatesFor({ db }: Pick<AppServices, "db">, refs: readonly string[]): Promise<JournalCandidate[]> {
  const found: JournalCandidate[] = [];
  for (const part of chunks([...new Set(refs)])) {
    const rows = await db
      .select({
        id: journalLines.id,
        purpose: journalLines.purpose,
        ref: journalLines.providerRef,
        debit: journalLines.debitPaise,
        credit: journalLines.creditPaise,
        businessDate: journalEntries.businessDate,
        applicationId: journalLines.applicationId,
      })
      .from(journalLines)
      .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
      .where(
        and(
          inArray(journalLines.providerRef, part),
          inArray(journalLines.purpose, ["gateway_clearing", "payout_account"]),
          notInArray(journalEntries.kind, [...RECONCILIATION_ENTRY_KINDS]),
        ),
      );
    for (const r of rows)
      found.push({
        id: r.id,
        purpose: r.purpose as JournalCandidate["purpose"],
        ref: r.ref ?? "",
        side: r.debit > 0 ? "debit" : "credit",
        paise: r.debit > 0 ? r.debit : r.credit,
        businessDate: r.businessDate,
        applicationId: r.applicationId,
      });
  }
  return found;
}

/** Of these journal lines, those a statement line has matched already. */
async function takenOf({ db }: Pick<AppServices, "db">, ids: readonly number[]): Promise<Set<number>> {
  const taken = new Set<number>();
  for (const part of chunks(ids)) {
    const rows = await db
      .select({ id: statementLines.matchedLineId })
      .from(statementLines)
      .where(inArray(statementLines.matchedLineId, part));
    for (const r of rows) if (r.id !== null) taken.add(r.id);
  }
  return taken;
}

/** A note on an exception resolved by matching, in words, and its audit row. */
async function resolvedByMatching(services: Services, exceptionId: string, note: string) {
  const at = services.now();
  const done = await services.db
    .update(reconExceptions)
    .set({ resolvedAt: at, resolution: note })
    .where(and(eq(reconExceptions.id, exceptionId), isNull(reconExceptions.resolvedAt)))
    .returning({ id: reconExceptions.id });
  if (done.length)
    await audit(services, {
      by: "system",
      at,
      action: "reconciliation.exception_cleared",
      subject: { type: "recon_exception", id: exceptionId },
      details: { note },
    });
  return done.length > 0;
}

/**
 * Matches statement lines still unmatched (those of `lineIds`, or all): each to its journal line,
 * or an exception for it (once). Returns how many matched and how many exceptions were raised.
 */
export async function matchStatementLines(services: Services, lineIds?: readonly number[]) {
  const { db } = services;
  const open = await db
    .select({
      id: statementLines.id,
      kind: statementLines.kind,
      lineType: statementLines.lineType,
      providerRef: statementLines.providerRef,
      grossPaise: statementLines.grossPaise,
      valueDate: statementLines.valueDate,
      purpose: statementLines.matchPurpose,
      ref: statementLines.matchRef,
      side: statementLines.matchSide,
    })
    .from(statementLines)
    .where(
      and(eq(statementLines.state, "unmatched"), lineIds ? inArray(statementLines.id, lineIds.length ? [...lineIds] : [-1]) : undefined),
    )
    .orderBy(statementLines.id);
  if (open.length === 0) return { matched: 0, raised: 0 };
  const candidates = await candidatesFor(
    services,
    open.flatMap((l) => (l.ref ? [l.ref] : [])),
  );
  const taken = await takenOf(
    services,
    candidates.map((c) => c.id),
  );
  const at = services.now();
  let matched = 0;
  let raised = 0;
  for (const line of open) {
    const key =
      line.purpose && line.ref && line.side
        ? { purpose: line.purpose as JournalCandidate["purpose"], ref: line.ref, side: line.side }
        : null;
    const outcome = matchLine({ match: key, grossPaise: line.grossPaise, valueDate: line.valueDate }, candidates, taken);
    if (outcome.state === "matched") {
      taken.add(outcome.journalLineId);
      await db
        .update(statementLines)
        .set({ state: "matched", matchedLineId: outcome.journalLineId, matchedAt: at })
        .where(eq(statementLines.id, line.id));
      matched++;
      const [e] = await db
        .select({ id: reconExceptions.id })
        .from(reconExceptions)
        .where(and(eq(reconExceptions.statementLineId, line.id), isNull(reconExceptions.resolvedAt)));
      if (e)
        await resolvedByMatching(
          services,
          e.id,
          `Matched on ${longDate(todayIST(at))}: the books now hold this ${line.kind === "gateway_settlement" ? "money" : "payout"} (${line.ref}) for ${formatRupees(line.grossPaise)}.`,
        );
      continue;
    }
    const inserted = await db
      .insert(reconExceptions)
      .values({
        kind: line.kind,
        side: "statement",
        reason: outcome.reason,
        statementLineId: line.id,
        providerRef: line.providerRef,
        lineType: line.lineType,
        amountPaise: line.grossPaise,
        expectedPaise: outcome.expectedPaise,
        eventDate: line.valueDate ?? todayIST(at),
        bookedOn: outcome.bookedOn,
        applicationId: outcome.applicationId,
        raisedAt: at,
      })
      .onConflictDoNothing({ target: reconExceptions.statementLineId })
      .returning({ id: reconExceptions.id });
    raised += inserted.length;
  }
  return { matched, raised };
}

/**
 * Journal-side exceptions resolved by matching: the journal line's payment or payout is now on a
 * statement (matched to it, or listed with another amount or date, whose own exception says how).
 */
async function clearListedBookLines(services: Services): Promise<number> {
  const rows = await rowsOf<{
    id: string;
    kind: StatementKind;
    line_id: string;
    state: string;
    file_name: string;
    value_date: string | null;
  }>(
    services.db,
    sql`
    select distinct on (e.id) e.id, e.kind, s.id as line_id, s.state, i.file_name, s.value_date
    from recon_exceptions e
    join journal_lines jl on jl.id = e.journal_line_id
    join statement_lines s on s.duplicate_of is null and s.match_purpose = jl.purpose and s.match_ref = jl.provider_ref
      and s.match_side = case when jl.debit_paise > 0 then 'debit' else 'credit' end
    join statement_imports i on i.id = s.import_id
    where e.resolved_at is null and e.side = 'books'
    order by e.id, (s.matched_line_id = jl.id) desc nulls last, s.id`,
  );
  let cleared = 0;
  for (const r of rows) {
    const where = `${r.file_name}${r.value_date ? ` (${longDate(r.value_date)})` : ""}`;
    const note =
      r.state === "matched"
        ? `Matched on ${longDate(todayIST(services.now()))} to a line of ${where}.`
        : `Listed on ${where}, which does not match it: that statement line's own exception says how.`;
    if (await resolvedByMatching(services, r.id, note)) cleared++;
  }
  return cleared;
}

/**
 * An exception for each journal line on the gateway clearing or payout account, with a provider
 * id, dated `unmatchedAfterDays` or more before `today`, that no statement line stands for. Once
 * per line (its unique index): running it again raises nothing new.
 */
async function raiseUnlisted(services: Services, today: IsoDate): Promise<number> {
  const cutoff = addDays(today, -services.config.reconciliation.unmatchedAfterDays);
  const at = services.now();
  const kinds = sql.join(
    RECONCILIATION_ENTRY_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const raised = await rowsOf<{ id: string }>(
    services.db,
    sql`
    insert into recon_exceptions (kind, side, reason, journal_line_id, provider_ref, line_type, amount_paise, event_date, booked_on,
      application_id, raised_at)
    select case when jl.purpose = 'gateway_clearing' then 'gateway_settlement' else 'payout_statement' end, 'books', 'not_on_statement',
      jl.id, jl.provider_ref,
      case when jl.purpose = 'gateway_clearing' then (case when jl.debit_paise > 0 then 'payment' else 'payment_reversal' end)
        else (case when jl.credit_paise > 0 then 'payout' else 'payout_reversal' end) end,
      jl.debit_paise + jl.credit_paise, je.business_date, je.business_date, jl.application_id, ${at}
    from journal_lines jl
    join journal_entries je on je.id = jl.entry_id
    where jl.purpose in ('gateway_clearing', 'payout_account') and jl.provider_ref is not null
      and je.kind not in (${kinds}) and je.business_date <= ${cutoff}
      and not exists (select 1 from statement_lines s where s.duplicate_of is null and s.match_purpose = jl.purpose
        and s.match_ref = jl.provider_ref and s.match_side = case when jl.debit_paise > 0 then 'debit' else 'credit' end)
    on conflict (journal_line_id) do nothing
    returning id`,
  );
  return raised.length;
}

/**
 * Matching for everything (the daily run, "Match again", after each import): statement lines
 * still unmatched tried again, journal-side exceptions whose statement turned up resolved, and
 * journal lines older than the configured days that no statement lists raised. Run inside the
 * caller's transaction holding `lockReconciliation`.
 */
export async function reconcileAll(services: Services) {
  const today = todayIST(services.now());
  const statement = await matchStatementLines(services);
  const cleared = await clearListedBookLines(services);
  const unlisted = await raiseUnlisted(services, today);
  return { matched: statement.matched, raised: statement.raised + unlisted, cleared };
}

/**
 * Matching on its own, in a transaction of its own: the daily job, or finance's "Match again"
 * (audited with what it did; the job's run only when it did something).
 */
export function runMatching(services: Services, by: { staff: Staff; client: Client } | "system" = "system") {
  return services.db.transaction(async (tx) => {
    const s = { ...services, db: tx };
    await lockReconciliation(s);
    const done = await reconcileAll(s);
    if (by !== "system" || done.matched || done.raised || done.cleared)
      await audit(s, {
        by: by === "system" ? "system" : by.staff,
        client: by === "system" ? null : by.client,
        at: services.now(),
        action: "reconciliation.matched",
        details: done,
      });
    return done;
  });
}
