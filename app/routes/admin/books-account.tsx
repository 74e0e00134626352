import { data } from "react-router";
import { Link } from "../../lib/link.tsx";
import { QueryField } from "../../components/field.tsx";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { ACCOUNT_TYPE } from "../../domain/books/chart.ts";
import { ACCOUNT_TYPE_LABEL, isPurpose, LEDGER_PAGE_SIZE, parseRange, PURPOSE_MEANING, rangeQuery } from "../../domain/books/reports.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { chartAccounts, ledgerPage, ledgerSummary } from "../../server/books/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { balanceText, BooksHeader, CELL, DebitCredit, FilterForm, LoanCell, MONEY_CELL, right, ShowButton } from "./books/parts.tsx";
import type { Route } from "./+types/books-account";

/**
 * An account's general ledger for a period (docs/product.md "The lender's books"): its balance
 * before the period, each line with the entry it belongs to and the loan it is about, the running
 * balance (right on every page: the lines before a page are summed in the database), and the
 * balance at the end.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const purpose = params.purpose;
  if (!isPurpose(purpose)) throw data({ message: "There is no such account in the books." }, { status: 404 });
  const today = todayIST(services.now());
  const { range, page, problems } = parseRange(new URL(request.url).searchParams, today);
  const [chart, summary] = await Promise.all([chartAccounts(services), ledgerSummary(services, purpose, range)]);
  const pages = Math.max(1, Math.ceil(summary.lines / LEDGER_PAGE_SIZE));
  const shownPage = Math.min(page, pages);
  const lines = await ledgerPage(services, { purpose, range, opening: summary.opening, page: shownPage, size: LEDGER_PAGE_SIZE });
  const first = lines[0];
  return {
    account: chart.account(purpose),
    type: ACCOUNT_TYPE[purpose],
    meaning: PURPOSE_MEANING[purpose],
    range,
    problems,
    today,
    summary,
    page: shownPage,
    pages,
    broughtForward: first ? first.balance - first.debit + first.credit : summary.opening,
    lines,
  };
}

export default function GeneralLedger({ loaderData: d }: Route.ComponentProps) {
  const base = `/admin/books/accounts/${d.account.purpose}`;
  const query = rangeQuery(d.range);
  const href = (page: number) => `${base}?${rangeQuery(d.range, page)}`;
  const firstNo = (d.page - 1) * LEDGER_PAGE_SIZE + 1;
  const lastNo = firstNo + d.lines.length - 1;
  return (
    <div className="space-y-5">
      <BooksHeader
        title={`${d.account.code} ${d.account.name}`}
        downloads={[{ href: `${base}/ledger.csv?${query}`, label: "Download CSV", testId: "ledger-csv" }]}
      >
        <p>
          General ledger. {ACCOUNT_TYPE_LABEL[d.type.type]} account, normally a {d.type.normal} balance
          {d.meaning !== d.account.name ? ` (${d.meaning})` : ""}.{" "}
          <Link className="link" to={`/admin/books?on=${d.range.to}`}>
            Back to the trial balance
          </Link>
        </p>
      </BooksHeader>
      <FilterForm label="Period" className="sm:grid-cols-[minmax(0,14rem)_minmax(0,14rem)_auto]">
        <QueryField id="from" label="From" value={d.range.from} problem={d.problems.from} />
        <QueryField id="to" label="To" value={d.range.to} problem={d.problems.to ?? d.problems.page} />
        <ShowButton />
        <p className="field-hint sm:col-span-3">Entry dates (the accounting date), both included. Without dates, the month to date.</p>
      </FilterForm>
      <dl className="card grid gap-4 sm:grid-cols-4" data-testid="ledger-summary">
        {[
          { label: `Opening balance, ${longDate(d.range.from)}`, value: balanceText(d.summary.opening), testId: "ledger-opening" },
          { label: "Debits in the period", value: formatRupees(d.summary.debits) },
          { label: "Credits in the period", value: formatRupees(d.summary.credits) },
          { label: `Closing balance, ${longDate(d.range.to)}`, value: balanceText(d.summary.closing), testId: "ledger-closing" },
        ].map((f) => (
          <div key={f.label}>
            <dt className="text-sm text-slate-600">{f.label}</dt>
            <dd className="money text-lg" data-testid={f.testId}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-slate-700" aria-live="polite" data-testid="ledger-count">
        {d.summary.lines === 0
          ? "No line in this period."
          : `Lines ${firstNo.toLocaleString("en-IN")}–${lastNo.toLocaleString("en-IN")} of ${d.summary.lines.toLocaleString("en-IN")}, in the order they were journalled.`}
      </p>
      <StaffTable
        label={`Ledger of ${d.account.name}, table`}
        minWidth="min-w-[60rem]"
        columns={["Date", "Entry", "Kind", "Narration", "Loan", right("Debit"), right("Credit"), right("Balance")]}
      >
        <tr className="bg-slate-50" data-testid="ledger-brought-forward">
          <th scope="row" colSpan={7} className={`${CELL} text-left font-medium`}>
            {d.page === 1 ? `Opening balance on ${longDate(d.range.from)}` : "Brought forward from the page before"}
          </th>
          <td className={MONEY_CELL}>{balanceText(d.broughtForward)}</td>
        </tr>
        {d.lines.map((l) => (
          <tr key={l.id} data-testid="ledger-line" className="align-top">
            <td className={`${CELL} whitespace-nowrap`}>{longDate(l.entryDate)}</td>
            <td className={`${CELL} font-mono`}>{l.entryNo}</td>
            <td className={CELL}>{l.kind}</td>
            <td className={CELL}>{l.narration}</td>
            <LoanCell loanNumber={l.loanNumber} />
            <DebitCredit debit={l.debit} credit={l.credit} />
            <td className={MONEY_CELL} data-testid="balance">
              {balanceText(l.balance)}
            </td>
          </tr>
        ))}
        {d.page === d.pages ? (
          <tr className="bg-slate-50 font-semibold" data-testid="ledger-closing-row">
            <th scope="row" colSpan={7} className={`${CELL} text-left`}>
              Closing balance on {longDate(d.range.to)}
            </th>
            <td className={MONEY_CELL}>{balanceText(d.summary.closing)}</td>
          </tr>
        ) : null}
      </StaffTable>
      <PageLinks prev={d.page > 1 ? href(d.page - 1) : null} next={d.page < d.pages ? href(d.page + 1) : null} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta(matches, loaderData ? `General ledger: ${loaderData.account.name}` : "General ledger");
