import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { ASSET_CLASS_LABEL, type AssetClass } from "../../domain/books/chart.ts";
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

interface Column<R> {
  heading: string;
  value: (r: R) => number;
  /** An amount in paise (else a count). */
  money?: boolean;
  testId?: string;
}

/** Rows by asset class with a total row: each column's figure, right-aligned. */
function ClassTable<R extends { assetClass: AssetClass }>({
  label,
  minWidth,
  rows,
  columns,
  testId,
}: {
  label: string;
  minWidth: string;
  rows: readonly R[];
  columns: readonly Column<R>[];
  testId: string;
}) {
  const shown = (c: Column<R>, n: number) => (c.money ? formatRupees(n) : n.toLocaleString("en-IN"));
  return (
    <StaffTable label={label} minWidth={minWidth} columns={["Asset class", ...columns.map((c) => right(c.heading))]}>
      {rows.map((r) => (
        <tr key={r.assetClass} data-testid={testId} data-class={r.assetClass}>
          <th scope="row" className={`${CELL} text-left font-medium`}>
            {ASSET_CLASS_LABEL[r.assetClass]}
          </th>
          {columns.map((c) => (
            <td key={c.heading} className={MONEY_CELL} data-testid={c.testId}>
              {shown(c, c.value(r))}
            </td>
          ))}
        </tr>
      ))}
      <tr className="bg-slate-50 font-semibold" data-testid={`${testId}-total`}>
        <th scope="row" className={`${CELL} text-left`}>
          Total
        </th>
        {columns.map((c) => (
          <td key={c.heading} className={MONEY_CELL}>
            {shown(
              c,
              rows.reduce((s, r) => s + c.value(r), 0),
            )}
          </td>
        ))}
      </tr>
    </StaffTable>
  );
}

type Data = Route.ComponentProps["loaderData"];
const NOW_COLUMNS: Column<Data["now"][number]>[] = [
  { heading: "Loans", value: (r) => r.loans, testId: "loans" },
  { heading: "Principal outstanding", value: (r) => r.principal, money: true, testId: "principal" },
  { heading: "Interest receivable", value: (r) => r.interestReceivable, money: true, testId: "interest" },
  { heading: "Interest in suspense", value: (r) => r.interestSuspense, money: true, testId: "suspense" },
  { heading: "Book value", value: (r) => r.bookValue, money: true, testId: "book" },
  { heading: "Provision held", value: (r) => r.provision, money: true, testId: "provision" },
];
const MONTH_COLUMNS: Column<Data["monthEnd"][number]>[] = [
  { heading: "Loans", value: (r) => r.loans, testId: "loans" },
  { heading: "Book value", value: (r) => r.bookValue, money: true, testId: "book" },
  { heading: "Provision required", value: (r) => r.provision, money: true, testId: "provision" },
];

export default function Portfolio({ loaderData: d }: Route.ComponentProps) {
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
        <ClassTable
          label="Active loans by asset class, table"
          minWidth="min-w-[52rem]"
          rows={d.now}
          columns={NOW_COLUMNS}
          testId="portfolio-now"
        />
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
            <ClassTable
              label={`Loans at the end of ${monthLabel(d.month)} by asset class, table`}
              minWidth="min-w-[32rem]"
              rows={d.monthEnd}
              columns={MONTH_COLUMNS}
              testId="portfolio-month"
            />
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
