import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { KIND_NAME, type LoanKind } from "../../domain/loans/application.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { CASE_SORTS, type CaseSort, PROMISE_FILTERS, PROMISE_STATUS_TEXT, type PromiseFilter } from "../../domain/collections.ts";
import { CONTACT_OUTCOMES } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { bucketCounts } from "../../server/servicing/collections.server.ts";
import { casesQueue, myCallTasks } from "../../server/collections/read.server.ts";
import { businessToday } from "../../server/loan-account/account.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/collections";

/**
 * The collections desk (docs/product.md "Collections"): open cases by RBI bucket, filtered by who
 * works them and by their latest promise, sorted by days past due, age or priority; the staff
 * member's own call tasks due first.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("collections.manage")];

const TABS = {
  "SMA-0": { label: "SMA-0 (1–30 days)", min: 1, max: 30 },
  "SMA-1": { label: "SMA-1 (31–60 days)", min: 31, max: 60 },
  "SMA-2": { label: "SMA-2 (61–90 days)", min: 61, max: 90 },
  NPA: { label: "NPA (over 90 days)", min: 91, max: null },
} as const;
type Tab = keyof typeof TABS;

const WHO = { any: "Anyone", me: "Me", unassigned: "Nobody yet" } as const;
const PROMISE_FILTER_TEXT: Record<PromiseFilter, string> = {
  any: "Any",
  open: "Open",
  broken: "Broken",
  kept: "Kept",
  none: "No promise",
};
const SORT_TEXT: Record<CaseSort, string> = { dpd: "Most days past due", age: "Oldest case", priority: "Priority" };

const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const url = new URL(request.url);
  const counts = await bucketCounts(services);
  // No bucket chosen (the menu, the staff home): the first bucket that holds a loan, SMA-0 when none does.
  const first = (Object.keys(TABS) as Tab[]).find((b) => counts.some((c) => c.bucket === b && c.loans > 0)) ?? "SMA-0";
  const bucket = pick(url.searchParams.get("bucket"), Object.keys(TABS) as Tab[], first);
  const who = pick(url.searchParams.get("who"), Object.keys(WHO) as (keyof typeof WHO)[], "any");
  const promise = pick(url.searchParams.get("promise"), PROMISE_FILTERS, "any");
  const sort = pick(url.searchParams.get("sort"), CASE_SORTS, "dpd");
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
  const today = businessToday(services);
  const tab = TABS[bucket];
  const queue = await casesQueue(services, {
    minDpd: tab.min,
    maxDpd: tab.max,
    assignee: who === "me" ? user.id : who === "unassigned" ? "unassigned" : null,
    promise,
    sort,
    page,
    today,
  });
  const query = (p: number) => {
    const q = new URLSearchParams({ bucket, who, promise, sort });
    if (p > 1) q.set("page", String(p));
    return `/admin/collections?${q}`;
  };
  return {
    bucket,
    who,
    promise,
    sort,
    counts,
    tasks: await myCallTasks(services, { staffId: user.id, today }),
    ...queue,
    prev: page > 1 ? query(page - 1) : null,
    next: queue.more ? query(page + 1) : null,
  };
}

export default function Collections({ loaderData: d }: Route.ComponentProps) {
  const count = new Map(d.counts.map((c) => [c.bucket, c]));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-2xl sm:text-3xl">Collections</h1>
        <Link className="link" to="/admin/collections/rules">
          Dunning rules
        </Link>
      </div>
      {d.tasks.length ? (
        <section className="card space-y-2" aria-labelledby="tasks-title">
          <h2 id="tasks-title" className="text-xl">
            Your calls due
          </h2>
          <ul className="space-y-1">
            {d.tasks.map((t) => (
              <li key={t.id}>
                <Link className="link font-mono" to={`/admin/loans/${t.loanNumber}#case-title`}>
                  {t.loanNumber}
                </Link>{" "}
                from {longDate(t.dueOn)}
                {t.stepDpd ? ` (the day ${t.stepDpd} rule)` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <nav aria-label="Buckets" className="flex flex-wrap gap-2">
        {(Object.keys(TABS) as Tab[]).map((b) => (
          <Link
            key={b}
            to={`/admin/collections?${new URLSearchParams({ bucket: b, who: d.who, promise: d.promise, sort: d.sort })}`}
            aria-current={b === d.bucket ? "page" : undefined}
            className={b === d.bucket ? "btn-primary" : "btn-secondary"}
          >
            {TABS[b].label}: {count.get(b)?.loans ?? 0}
          </Link>
        ))}
      </nav>
      <Form method="get" className="card flex flex-wrap items-end gap-4">
        <input type="hidden" name="bucket" value={d.bucket} />
        <label className="space-y-1">
          <span className="block text-sm font-medium">Worked by</span>
          <select name="who" defaultValue={d.who} className="field-input">
            {Object.entries(WHO).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1">
          <span className="block text-sm font-medium">Latest promise</span>
          <select name="promise" defaultValue={d.promise} className="field-input">
            {PROMISE_FILTERS.map((k) => (
              <option key={k} value={k}>
                {PROMISE_FILTER_TEXT[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1">
          <span className="block text-sm font-medium">Sort by</span>
          <select name="sort" defaultValue={d.sort} className="field-input">
            {CASE_SORTS.map((k) => (
              <option key={k} value={k}>
                {SORT_TEXT[k]}
              </option>
            ))}
          </select>
        </label>
        <button className="btn-secondary">Show</button>
      </Form>
      {d.rows.length === 0 ? (
        <p className="card">No open case matches.</p>
      ) : (
        <StaffTable
          label={`Open cases in ${d.bucket}`}
          minWidth="min-w-[72rem]"
          columns={[
            "Loan",
            "Borrower",
            "Days past due",
            "Overdue and penal",
            "Case age",
            "Worked by",
            "Promise",
            "Last contact",
            "Calls due",
          ]}
        >
          {d.rows.map((r) => (
            <tr key={r.caseId} className={r.priority === "high" ? "bg-amber-50" : undefined}>
              <td className="px-3 py-2">
                <Link className="link font-mono" to={`/admin/loans/${r.loanNumber}#case-title`}>
                  {r.loanNumber}
                </Link>
                <span className="block text-xs text-slate-600">
                  {KIND_NAME[r.kind as LoanKind]}
                  {r.priority === "high" ? ", high priority" : ""}
                  {r.paused ? ", reminders paused" : ""}
                </span>
              </td>
              <td className="px-3 py-2">
                {staffBorrowerName({ fullName: r.name, mobile: r.mobile })}
                {r.name && r.mobile ? <span className="block text-xs text-slate-600">+91 {r.mobile}</span> : null}
              </td>
              <td className="px-3 py-2 tabular-nums">{r.dpd}</td>
              <td className="px-3 py-2 tabular-nums">{formatRupees(r.owedPaise)}</td>
              <td className="px-3 py-2 tabular-nums">{r.ageDays} days</td>
              <td className="px-3 py-2">{r.assignee ?? "Nobody yet"}</td>
              <td className="px-3 py-2">
                {r.promise ? PROMISE_STATUS_TEXT[r.promise] : "None"}
                {r.promiseDueOn ? <span className="block text-xs text-slate-600">by {longDate(r.promiseDueOn)}</span> : null}
              </td>
              <td className="px-3 py-2">
                {r.lastOutcome ? (CONTACT_OUTCOMES[r.lastOutcome as keyof typeof CONTACT_OUTCOMES] ?? r.lastOutcome) : "None yet"}
                {r.lastContactAt ? (
                  <span className="block text-xs text-slate-600">{formatDateTimeIST(new Date(r.lastContactAt))}</span>
                ) : null}
              </td>
              <td className="px-3 py-2 tabular-nums">{r.openTasks}</td>
            </tr>
          ))}
        </StaffTable>
      )}
      <PageLinks prev={d.prev} next={d.next} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Collections");
