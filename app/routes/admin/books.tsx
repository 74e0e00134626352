import { Link } from "../../lib/link.tsx";
import { QueryField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { ACCOUNT_TYPE_LABEL, parseOn, rangeQuery } from "../../domain/books/reports.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { trialBalance } from "../../server/books/reports.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { BooksHeader, DebitCredit, CELL, FilterForm, MONEY_CELL, right, ShowButton } from "./books/parts.tsx";
import type { Route } from "./+types/books";

/**
 * The trial balance (docs/product.md "The lender's books"): every account of the chart in force
 * with its balance at the end of a day, on its debit or credit side, and whether the two sides
 * agree; each account opens its general ledger. Finance, compliance and administrators read it.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const today = todayIST(services.now());
  const { on, problems } = parseOn(new URL(request.url).searchParams, today);
  return { today, problems, ...(await trialBalance(services, on)) };
}

export default function TrialBalance({ loaderData: d }: Route.ComponentProps) {
  const ledgerQuery = rangeQuery({ from: `${d.on.slice(0, 7)}-01`, to: d.on });
  const difference = d.totals.debit - d.totals.credit;
  return (
    <div className="space-y-5">
      <BooksHeader
        title="Trial balance"
        downloads={[{ href: `/admin/books/trial-balance.csv?on=${d.on}`, label: "Download CSV", testId: "trial-balance-csv" }]}
      >
        <p>
          Every account of the chart of accounts in force (version {d.chartVersion}) with its balance at the end of the day: the sum of its
          journal lines dated up to then. Choose an account to see its general ledger.
        </p>
      </BooksHeader>
      <FilterForm label="Trial balance date" className="sm:grid-cols-[minmax(0,16rem)_auto]">
        <QueryField id="on" label="At the end of" value={d.on} problem={d.problems.on} />
        <ShowButton clear={d.on !== d.today ? "/admin/books" : null} />
      </FilterForm>
      <p
        role="status"
        data-testid="trial-balance-agree"
        className={`rounded-xl border px-4 py-3 ${d.agree ? "border-money-600 bg-white text-money-700" : "border-danger-600 bg-danger-50 text-danger-600"}`}
      >
        {d.agree
          ? `At the end of ${longDate(d.on)} the debits and the credits agree: ${formatRupees(d.totals.debit)} each.`
          : `At the end of ${longDate(d.on)} the debits (${formatRupees(d.totals.debit)}) and the credits (${formatRupees(d.totals.credit)}) do not agree: they differ by ${formatRupees(Math.abs(difference))}.`}
      </p>
      <StaffTable
        label={`Trial balance at the end of ${longDate(d.on)}, table`}
        minWidth="min-w-[20rem]"
        columns={["Account", right("Debit"), right("Credit")]}
      >
        {d.accounts.map((a) => (
          <tr key={a.purpose} data-testid="trial-balance-row" data-purpose={a.purpose} className="align-top">
            <td className={CELL}>
              <span className="mr-2 font-mono">{a.code}</span>
              <Link className="link" to={`/admin/books/accounts/${a.purpose}?${ledgerQuery}`}>
                {a.name}
              </Link>
              <span className="block text-xs text-slate-600">{ACCOUNT_TYPE_LABEL[a.type]}</span>
            </td>
            <DebitCredit debit={a.debit} credit={a.credit} />
          </tr>
        ))}
        <tr className="bg-slate-50 font-semibold" data-testid="trial-balance-totals">
          <th scope="row" className={`${CELL} text-left`}>
            Total
          </th>
          <td className={MONEY_CELL} data-testid="debit">
            {formatRupees(d.totals.debit)}
          </td>
          <td className={MONEY_CELL} data-testid="credit">
            {formatRupees(d.totals.credit)}
          </td>
        </tr>
      </StaffTable>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Trial balance");
