import { Link } from "../../lib/link.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { DEBIT_STATUS_STAFF_TEXT } from "../../domain/loans/autopay.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { debitsToWatch } from "../../server/mandates/debit-rows.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import type { Route } from "./+types/autopay";

/** Autopay debits for operations (docs/product.md "Autopay"): those in progress, and those the bank returned today. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("payments.manage")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return debitsToWatch(services, { today: todayIST(services.now()) });
}

type Row = Route.ComponentProps["loaderData"]["inProgress"][number];

function DebitRows({ rows, label }: { rows: readonly Row[]; label: string }) {
  return (
    <StaffTable label={label} minWidth="min-w-[52rem]" columns={["Loan", "Borrower", "Instalment", "Presented on", "Amount", "Status"]}>
      {rows.map((r) => (
        <tr key={r.id}>
          <td className="px-3 py-2">
            <Link className="link font-mono" to={`/admin/loans/${r.loanNumber}`}>
              {r.loanNumber}
            </Link>
          </td>
          <td className="px-3 py-2">{staffBorrowerName({ fullName: r.name, mobile: r.mobile })}</td>
          <td className="px-3 py-2">{r.attempt > 1 ? `${r.seq} (presented again)` : r.seq}</td>
          <td className="px-3 py-2">{longDate(r.presentOn)}</td>
          <td className="px-3 py-2 tabular-nums">{formatRupees(r.amountPaise)}</td>
          <td className="px-3 py-2">
            {DEBIT_STATUS_STAFF_TEXT[r.status]}
            {r.reason ? `: ${r.reason}` : ""}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

export default function Autopay({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Autopay debits</h1>
      <section aria-labelledby="in-progress-title" className="space-y-3">
        <h2 id="in-progress-title">In progress: {d.inProgress.length}</h2>
        {d.inProgress.length ? (
          <DebitRows rows={d.inProgress} label="Debits in progress, oldest presentation first" />
        ) : (
          <p className="card">No debit is waiting for the bank's answer.</p>
        )}
      </section>
      <section aria-labelledby="bounced-title" className="space-y-3">
        <h2 id="bounced-title">Returned by the bank today: {d.bouncedToday.length}</h2>
        {d.bouncedToday.length ? (
          <DebitRows rows={d.bouncedToday} label="Debits returned today" />
        ) : (
          <p className="card">No debit was returned today.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Autopay debits");
