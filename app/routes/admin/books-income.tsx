import { Link } from "../../lib/link.tsx";
import { QueryField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { parseRange, rangeQuery } from "../../domain/books/reports.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { incomeStatement } from "../../server/books/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { BooksHeader, CELL, FilterForm, MONEY_CELL, right, ShowButton } from "./books/parts.tsx";
import type { Route } from "./+types/books-income";

/**
 * Income for a period (docs/product.md "The lender's books"): what each income account earned
 * (credits less debits) and each expense account cost (debits less credits), the totals and the net.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { range, problems } = parseRange(new URL(request.url).searchParams, todayIST(services.now()));
  return { problems, ...(await incomeStatement(services, range)) };
}

type Data = Route.ComponentProps["loaderData"];

function Rows({ lines, query, kind }: { lines: Data["income"]; query: string; kind: "income" | "expense" }) {
  return lines.map((l) => (
    <tr key={l.purpose} data-testid={`${kind}-row`} data-purpose={l.purpose}>
      <td className={`${CELL} font-mono`}>{l.code}</td>
      <td className={CELL}>
        <Link className="link" to={`/admin/books/accounts/${l.purpose}?${query}`}>
          {l.name}
        </Link>
      </td>
      <td className={MONEY_CELL} data-testid="movement">
        {formatRupees(l.movement)}
      </td>
    </tr>
  ));
}

function Total({ label, paise, testId }: { label: string; paise: number; testId: string }) {
  return (
    <tr className="bg-slate-50 font-semibold" data-testid={testId}>
      <th scope="row" colSpan={2} className={`${CELL} text-left`}>
        {label}
      </th>
      <td className={MONEY_CELL}>{paise < 0 ? `−${formatRupees(-paise)}` : formatRupees(paise)}</td>
    </tr>
  );
}

export default function Income({ loaderData: d }: Route.ComponentProps) {
  const query = rangeQuery(d.range);
  const period = `${longDate(d.range.from)} to ${longDate(d.range.to)}`;
  return (
    <div className="space-y-5">
      <BooksHeader title="Income" downloads={[{ href: `/admin/books/income.csv?${query}`, label: "Download CSV", testId: "income-csv" }]}>
        <p>
          What each income account earned in the period (its credits less its debits) and each expense account cost (debits less credits),
          by the entries' accounting dates. Interest on an NPA loan is income only when it is received.
        </p>
      </BooksHeader>
      <FilterForm label="Period" className="sm:grid-cols-[minmax(0,14rem)_minmax(0,14rem)_auto]">
        <QueryField id="from" label="From" value={d.range.from} problem={d.problems.from} />
        <QueryField id="to" label="To" value={d.range.to} problem={d.problems.to} />
        <ShowButton />
        <p className="field-hint sm:col-span-3">Both days included. Without dates, the month to date.</p>
      </FilterForm>
      <StaffTable label={`Income, ${period}, table`} minWidth="min-w-[30rem]" columns={["Code", "Account", right("In the period")]}>
        <tr>
          <th scope="rowgroup" colSpan={3} className={`${CELL} text-left`}>
            Income
          </th>
        </tr>
        <Rows lines={d.income} query={query} kind="income" />
        <Total label="Total income" paise={d.totalIncome} testId="total-income" />
        <tr>
          <th scope="rowgroup" colSpan={3} className={`${CELL} text-left`}>
            Expenses
          </th>
        </tr>
        <Rows lines={d.expenses} query={query} kind="expense" />
        <Total label="Total expenses" paise={d.totalExpenses} testId="total-expenses" />
        <Total label={d.net < 0 ? "Net loss" : "Net income"} paise={d.net} testId="net-income" />
      </StaffTable>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Income");
