import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { ASSET_CLASS_LABEL } from "../../domain/books/chart.ts";
import { lastDayOf, monthLabel, parseMonthParam } from "../../domain/books/reports.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { portfolioReport } from "../../server/books/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { BooksHeader, CELL, FilterForm, MONEY_CELL, right, ShowButton } from "./books/parts.tsx";
import type { Route } from "./+types/books-portfolio";

/**
 * The portfolio by RBI's asset class (docs/product.md "The lender's books"): the active loans now,
 * from their balances in the books, and a month end's classification as its provisioning kept it.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const today = todayIST(services.now());
  const { month: asked, problems } = parseMonthParam(new URL(request.url).searchParams);
  const report = await portfolioReport(services, { asked, today });
  if (asked && asked !== report.month)
    problems.month = `${monthLabel(asked)} has no month-end classification kept: showing ${report.month ? monthLabel(report.month) : "none"}.`;
  return { today, problems, ...report };
}

const sum = <T,>(rows: readonly T[], pick: (r: T) => number) => rows.reduce((s, r) => s + pick(r), 0);

export default function Portfolio({ loaderData: d }: Route.ComponentProps) {
  const nowTotal = {
    loans: sum(d.now, (r) => r.loans),
    principal: sum(d.now, (r) => r.principal),
    interestReceivable: sum(d.now, (r) => r.interestReceivable),
    interestSuspense: sum(d.now, (r) => r.interestSuspense),
    bookValue: sum(d.now, (r) => r.bookValue),
    provision: sum(d.now, (r) => r.provision),
  };
  return (
    <div className="space-y-5">
      <BooksHeader
        title="Portfolio by asset class"
        downloads={[
          { href: `/admin/books/portfolio.csv${d.month ? `?month=${d.month}` : ""}`, label: "Download CSV", testId: "portfolio-csv" },
        ]}
      >
        <p>
          Standard: not NPA. Sub-standard: NPA for up to 12 months. Doubtful: NPA for longer. A loan is NPA when any loan of its borrower is
          over 90 days past due; a loss asset is one the lender writes off.
        </p>
      </BooksHeader>
      <section className="space-y-3" aria-labelledby="now-title">
        <h2 id="now-title" className="text-xl">
          Active loans now ({longDate(d.today)})
        </h2>
        <StaffTable
          label="Active loans by asset class, table"
          minWidth="min-w-[52rem]"
          columns={[
            "Asset class",
            right("Loans"),
            right("Principal outstanding"),
            right("Interest receivable"),
            right("Interest in suspense"),
            right("Book value"),
            right("Provision held"),
          ]}
        >
          {d.now.map((r) => (
            <tr key={r.assetClass} data-testid="portfolio-now" data-class={r.assetClass}>
              <th scope="row" className={`${CELL} text-left font-medium`}>
                {ASSET_CLASS_LABEL[r.assetClass]}
              </th>
              <td className={MONEY_CELL} data-testid="loans">
                {r.loans.toLocaleString("en-IN")}
              </td>
              <td className={MONEY_CELL} data-testid="principal">
                {formatRupees(r.principal)}
              </td>
              <td className={MONEY_CELL} data-testid="interest">
                {formatRupees(r.interestReceivable)}
              </td>
              <td className={MONEY_CELL} data-testid="suspense">
                {formatRupees(r.interestSuspense)}
              </td>
              <td className={MONEY_CELL}>{formatRupees(r.bookValue)}</td>
              <td className={MONEY_CELL} data-testid="provision">
                {formatRupees(r.provision)}
              </td>
            </tr>
          ))}
          <tr className="bg-slate-50 font-semibold" data-testid="portfolio-now-total">
            <th scope="row" className={`${CELL} text-left`}>
              Total
            </th>
            <td className={MONEY_CELL}>{nowTotal.loans.toLocaleString("en-IN")}</td>
            <td className={MONEY_CELL}>{formatRupees(nowTotal.principal)}</td>
            <td className={MONEY_CELL}>{formatRupees(nowTotal.interestReceivable)}</td>
            <td className={MONEY_CELL}>{formatRupees(nowTotal.interestSuspense)}</td>
            <td className={MONEY_CELL}>{formatRupees(nowTotal.bookValue)}</td>
            <td className={MONEY_CELL}>{formatRupees(nowTotal.provision)}</td>
          </tr>
        </StaffTable>
        <p className="field-hint">
          Book value: principal and interest receivable less interest in suspense, what provisioning reads. The provision held is what the
          last month end set aside, moved since by write-offs and loans settled.
        </p>
      </section>
      <section className="space-y-3" aria-labelledby="month-title">
        <h2 id="month-title" className="text-xl">
          {d.month ? `At the end of ${monthLabel(d.month)}` : "At a month end"}
        </h2>
        {d.months.length ? (
          <FilterForm label="Month end" className="sm:grid-cols-[minmax(0,16rem)_auto]">
            <div>
              <label htmlFor="month" className="field-label">
                Month end
              </label>
              <select id="month" name="month" className="field-input" defaultValue={d.month ?? ""} aria-describedby="month-error">
                {d.months.map((m) => (
                  <option key={m} value={m}>
                    {monthLabel(m)}
                  </option>
                ))}
              </select>
              <p id="month-error" className="field-error">
                {d.problems.month ?? null}
              </p>
            </div>
            <ShowButton />
          </FilterForm>
        ) : null}
        {d.month ? (
          <>
            <StaffTable
              label={`Loans at the end of ${monthLabel(d.month)} by asset class, table`}
              minWidth="min-w-[32rem]"
              columns={["Asset class", right("Loans"), right("Book value"), right("Provision required")]}
            >
              {d.monthEnd.map((r) => (
                <tr key={r.assetClass} data-testid="portfolio-month" data-class={r.assetClass}>
                  <th scope="row" className={`${CELL} text-left font-medium`}>
                    {ASSET_CLASS_LABEL[r.assetClass]}
                  </th>
                  <td className={MONEY_CELL} data-testid="loans">
                    {r.loans.toLocaleString("en-IN")}
                  </td>
                  <td className={MONEY_CELL} data-testid="book">
                    {formatRupees(r.bookValue)}
                  </td>
                  <td className={MONEY_CELL} data-testid="provision">
                    {formatRupees(r.provision)}
                  </td>
                </tr>
              ))}
              <tr className="bg-slate-50 font-semibold">
                <th scope="row" className={`${CELL} text-left`}>
                  Total
                </th>
                <td className={MONEY_CELL}>{sum(d.monthEnd, (r) => r.loans).toLocaleString("en-IN")}</td>
                <td className={MONEY_CELL}>{formatRupees(sum(d.monthEnd, (r) => r.bookValue))}</td>
                <td className={MONEY_CELL}>{formatRupees(sum(d.monthEnd, (r) => r.provision))}</td>
              </tr>
            </StaffTable>
            <p className="field-hint">
              As the month's provisioning classified each loan on {longDate(lastDayOf(d.month))}: kept, never worked out again.
            </p>
          </>
        ) : (
          <p className="card">No month end has been provisioned yet: the daily run provisions each month the day after it ends.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Portfolio by asset class");
