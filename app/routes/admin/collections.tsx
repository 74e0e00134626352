import { Link } from "react-router";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { KIND_NAME, type LoanKind } from "../../domain/loans/application.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { CONTACT_OUTCOMES } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { bucketCounts, collectionsQueue } from "../../server/servicing/collections.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import type { Route } from "./+types/collections";

/** The collections queue by RBI bucket (docs/product.md "Loan servicing"): most days past due first, with the latest contact. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("collections.manage")];

const TABS = {
  "SMA-0": { label: "SMA-0 (1–30 days)", min: 1, max: 30 },
  "SMA-1": { label: "SMA-1 (31–60 days)", min: 31, max: 60 },
  "SMA-2": { label: "SMA-2 (61–90 days)", min: 61, max: 90 },
  NPA: { label: "NPA (over 90 days)", min: 91, max: null },
} as const;
type Tab = keyof typeof TABS;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const asked = url.searchParams.get("bucket");
  const counts = await bucketCounts(services);
  // No bucket chosen (the menu, the staff home): the first bucket that holds a loan, SMA-0 when none does.
  const first = (Object.keys(TABS) as Tab[]).find((b) => counts.some((c) => c.bucket === b && c.loans > 0)) ?? "SMA-0";
  const bucket: Tab = asked && Object.hasOwn(TABS, asked) ? (asked as Tab) : first;
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
  const tab = TABS[bucket];
  const queue = await collectionsQueue(services, { minDpd: tab.min, maxDpd: tab.max, page });
  const link = (p: number) => `/admin/collections?bucket=${encodeURIComponent(bucket)}${p > 1 ? `&page=${p}` : ""}`;
  return { bucket, counts, ...queue, prev: page > 1 ? link(page - 1) : null, next: queue.more ? link(page + 1) : null };
}

export default function Collections({ loaderData: d }: Route.ComponentProps) {
  const count = new Map(d.counts.map((c) => [c.bucket, c]));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Collections</h1>
      <nav aria-label="Buckets" className="flex flex-wrap gap-2">
        {(Object.keys(TABS) as Tab[]).map((b) => (
          <Link
            key={b}
            to={`/admin/collections?bucket=${encodeURIComponent(b)}`}
            aria-current={b === d.bucket ? "page" : undefined}
            className={b === d.bucket ? "btn-primary" : "btn-secondary"}
          >
            {TABS[b].label}: {count.get(b)?.loans ?? 0}
          </Link>
        ))}
      </nav>
      {d.rows.length === 0 ? (
        <p className="card">No loan is in this bucket.</p>
      ) : (
        <StaffTable
          label={`Loans in ${d.bucket}`}
          minWidth="min-w-[56rem]"
          columns={["Loan", "Borrower", "Days past due", "Overdue and penal", "Principal outstanding", "Last contact", "Follow up"]}
        >
          {d.rows.map((r) => (
            <tr key={r.loanNumber}>
              <td className="px-3 py-2">
                <Link className="link font-mono" to={`/admin/loans/${r.loanNumber}`}>
                  {r.loanNumber}
                </Link>
                <span className="block text-xs text-slate-600">{KIND_NAME[r.kind as LoanKind]}</span>
              </td>
              <td className="px-3 py-2">
                {staffBorrowerName({ fullName: r.name, mobile: r.mobile })}
                {r.name && r.mobile ? <span className="block text-xs text-slate-600">+91 {r.mobile}</span> : null}
              </td>
              <td className="px-3 py-2 tabular-nums">{r.dpd}</td>
              <td className="px-3 py-2 tabular-nums">{formatRupees(r.overduePaise + r.penalDuePaise)}</td>
              <td className="px-3 py-2 tabular-nums">{formatRupees(r.outstandingPrincipalPaise)}</td>
              <td className="px-3 py-2">
                {r.lastOutcome ? (CONTACT_OUTCOMES[r.lastOutcome as keyof typeof CONTACT_OUTCOMES] ?? r.lastOutcome) : "None yet"}
                {r.lastNoteAt ? <span className="block text-xs text-slate-600">{formatDateTimeIST(new Date(r.lastNoteAt))}</span> : null}
              </td>
              <td className="px-3 py-2">{r.followUpOn ? longDate(r.followUpOn) : "—"}</td>
            </tr>
          ))}
        </StaffTable>
      )}
      <PageLinks prev={d.prev} next={d.next} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Collections");
