import { Fragment } from "react";
import { Link } from "../../lib/link.tsx";
import { QueryField } from "../../components/field.tsx";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import {
  BOOKS_EXPORT_LIMIT,
  isJournalFiltered,
  JOURNAL_PAGE_SIZE,
  journalFilterQuery,
  parseJournalFilter,
  rupeesText,
} from "../../domain/books/reports.ts";
import { longDate } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { chartAccounts, type JournalLineShown, journalKinds, journalPage } from "../../server/books/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { BooksHeader, CELL, DebitCredit, FilterForm, LoanCell, right, ShowButton } from "./books/parts.tsx";
import type { Route } from "./+types/books-journal";

/**
 * The journal searched (docs/product.md "The lender's books"): by date, kind, loan, an amount on one
 * of its lines, or words of the narration; newest first, each entry with its lines (an entry of many
 * lines, a day's accrual, by account). Exported as CSV, a row a line, or as Tally vouchers.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { filter, problems } = parseJournalFilter(new URL(request.url).searchParams);
  const [page, kinds, chart] = await Promise.all([journalPage(services, filter), journalKinds(services), chartAccounts(services)]);
  const line = (l: JournalLineShown) => ({ ...l, account: chart.account(l.purpose) });
  return {
    filter,
    problems,
    kinds: filter.kind && !kinds.includes(filter.kind) ? [...kinds, filter.kind] : kinds,
    total: page.total,
    loanKnown: page.loanKnown,
    entries: page.entries.map((e) => ({ ...e, lines: e.lines.map(line), loanLines: e.loanLines.map(line) })),
  };
}

type Data = Route.ComponentProps["loaderData"];
type LineData = Data["entries"][number]["lines"][number];

function LineRow({ l, testId }: { l: LineData; testId: string }) {
  return (
    <tr data-testid={testId}>
      <td className={`${CELL} pl-6`}>
        <span className="font-mono">{l.account.code}</span> {l.account.name}
        {l.lines > 1 ? <span className="block text-slate-600">{l.lines.toLocaleString("en-IN")} lines</span> : null}
      </td>
      <LoanCell loanNumber={l.loanNumber} />
      <DebitCredit debit={l.debit} credit={l.credit} />
    </tr>
  );
}

export default function Journal({ loaderData: d }: Route.ComponentProps) {
  const f = d.filter;
  const query = journalFilterQuery(f);
  const href = (page: number) => {
    const qs = journalFilterQuery(f, page);
    return `/admin/books/journal${qs ? `?${qs}` : ""}`;
  };
  const first = (f.page - 1) * JOURNAL_PAGE_SIZE + 1;
  const last = Math.min(d.total, f.page * JOURNAL_PAGE_SIZE);
  const problem = (key: keyof Data["problems"]) => d.problems[key];
  return (
    <div className="space-y-5">
      <BooksHeader
        title="Journal"
        downloads={[
          { href: `/admin/books/journal.csv${query ? `?${query}` : ""}`, label: "Download CSV", testId: "journal-csv" },
          { href: `/admin/books/journal.xml${query ? `?${query}` : ""}`, label: "Download Tally XML", testId: "journal-xml" },
        ]}
      >
        <p>
          Every journal entry, newest first. Entries are never changed: a correction is a reversing entry. The Tally file holds journal
          vouchers for the company open in Tally, one ledger entry per account (its ledgers must bear the chart's account names).
        </p>
      </BooksHeader>
      <FilterForm label="Search the journal" className="sm:grid-cols-2 lg:grid-cols-3">
        <QueryField id="from" label="From" value={f.from ?? ""} problem={problem("from")} />
        <QueryField id="to" label="To" value={f.to ?? ""} problem={problem("to")} />
        <div>
          <label htmlFor="kind" className="field-label">
            Kind
          </label>
          <select id="kind" name="kind" className="field-input" defaultValue={f.kind ?? ""} aria-describedby="kind-error">
            <option value="">Any kind</option>
            {d.kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <p id="kind-error" className="field-error">
            {problem("kind") ?? null}
          </p>
        </div>
        <QueryField
          type="text"
          id="loan"
          label="Loan number"
          value={f.loan ?? ""}
          problem={problem("loan")}
          placeholder="SL and 8 digits"
          maxLength={10}
        />
        <QueryField
          type="text"
          id="amount"
          label="Amount on a line (₹)"
          value={f.amountPaise ? rupeesText(f.amountPaise) : ""}
          problem={problem("amount")}
          inputMode="decimal"
          maxLength={20}
        />
        <QueryField type="text" id="text" label="Narration contains" value={f.text ?? ""} problem={problem("text")} maxLength={100} />
        <p className="field-hint sm:col-span-2 lg:col-span-2">Entry dates (the accounting date), both included.</p>
        <ShowButton clear={isJournalFiltered(f) ? "/admin/books/journal" : null} />
      </FilterForm>
      <p className="text-slate-700" aria-live="polite" data-testid="journal-count">
        {d.total === 0
          ? f.loan && !d.loanKnown
            ? `No loan has the number ${f.loan}.`
            : "No entry matches."
          : first > d.total
            ? `Page ${f.page} is past the end: there are ${d.total.toLocaleString("en-IN")} entries.`
            : `Entries ${first.toLocaleString("en-IN")}–${last.toLocaleString("en-IN")} of ${d.total.toLocaleString("en-IN")}, newest first.`}
        {d.total > 0 ? ` The files hold the newest ${BOOKS_EXPORT_LIMIT.toLocaleString("en-IN")} lines (Tally: entries) at most.` : ""}
      </p>
      {d.entries.length ? (
        <StaffTable
          label="Journal entries and their lines, table"
          minWidth="min-w-[44rem]"
          columns={["Account", "Loan", right("Debit"), right("Credit")]}
        >
          {d.entries.map((e) => (
            <Fragment key={e.id}>
              <tr className="bg-slate-50 align-top" data-testid="journal-entry" data-entry-no={e.entryNo}>
                <th scope="rowgroup" colSpan={4} className={`${CELL} text-left font-normal`}>
                  <span className="font-semibold">
                    Entry {e.entryNo} · {longDate(e.entryDate)} · {e.kind}
                  </span>
                  {e.loanNumber ? (
                    <>
                      {" · "}
                      <Link className="link font-mono" to={`/admin/loans/${e.loanNumber}`}>
                        {e.loanNumber}
                      </Link>
                    </>
                  ) : null}
                  <span className="block" data-testid="journal-narration">
                    {e.narration}
                  </span>
                  {e.businessDate !== e.entryDate ? (
                    <span className="block text-slate-600">
                      Event of {longDate(e.businessDate)}, journalled on the first open day after its month closed.
                    </span>
                  ) : null}
                  {e.reversesNo !== null ? <span className="block text-slate-600">Reverses entry {e.reversesNo}.</span> : null}
                  {e.byAccount ? (
                    <span className="block text-slate-600">{e.lineCount.toLocaleString("en-IN")} lines, shown summed by account.</span>
                  ) : null}
                </th>
              </tr>
              {e.lines.map((l, i) => (
                <LineRow key={`${l.purpose}-${i}`} l={l} testId="journal-line" />
              ))}
              {e.loanLines.map((l, i) => (
                <LineRow key={`loan-${l.purpose}-${i}`} l={l} testId="journal-loan-line" />
              ))}
            </Fragment>
          ))}
        </StaffTable>
      ) : null}
      <PageLinks
        prev={f.page > 1 ? href(Math.min(f.page - 1, Math.max(1, Math.ceil(d.total / JOURNAL_PAGE_SIZE)))) : null}
        next={last < d.total && first <= d.total ? href(f.page + 1) : null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Journal");
