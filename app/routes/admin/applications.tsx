import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { z } from "zod";
import { servicesContext } from "../../context.ts";
import { type LoanKind, shortReference } from "../../domain/loans/application.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import {
  formatWorkingAge,
  QUEUE_PAGE_SIZE,
  QUEUE_VIEWS,
  type QueueView,
  WORKING_DAY_MINUTES,
  workingMinutesBetween,
} from "../../domain/review.ts";
import { pageMeta } from "../../lib/meta.ts";
import { reviewQueue } from "../../server/review/read.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/applications";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("applications.view")];

/** The queue's filters live in the URL, so a view can be bookmarked and shared; anything unknown falls back to the default. */
const filterSchema = z.object({
  view: z.enum(Object.keys(QUEUE_VIEWS) as [QueueView, ...QueueView[]]).catch("open"),
  product: z.enum(["emi", "salary_advance"]).nullable().catch(null),
  mine: z.literal("1").nullable().catch(null),
  q: z
    .string()
    .trim()
    .transform((v) => v.slice(0, 100))
    .catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const params = new URL(request.url).searchParams;
  const f = filterSchema.parse({
    view: params.get("view") ?? undefined,
    product: params.get("product") || null,
    mine: params.get("mine") || null,
    q: params.get("q") ?? "",
    page: params.get("page") ?? 1,
  });
  const filter = { view: f.view, product: f.product as LoanKind | null, mine: f.mine === "1", q: f.q, page: f.page };
  const { rows, total } = await reviewQueue(services, { staffId: user.id, filter });
  const now = services.now();
  return {
    filter,
    total,
    staffId: user.id,
    rows: rows.map((r) => ({
      reference: r.reference,
      kindName: r.kindName,
      status: r.status,
      amountPaise: r.amountPaise,
      tenureMonths: r.tenureMonths,
      name: r.name,
      mobile: r.mobile,
      assigneeId: r.assigneeId,
      assigneeName: r.assigneeName,
      ask: r.ask,
      payout: r.payout,
      signedAt: r.signedAt?.toISOString() ?? null,
      ageMinutes: r.signedAt ? workingMinutesBetween(r.signedAt, r.decidedAt ?? now, services.config.holidays) : null,
    })),
  };
}

type Filter = Awaited<ReturnType<typeof loader>>["filter"];
function queueHref(filter: Filter, page: number) {
  const p = new URLSearchParams();
  if (filter.view !== "open") p.set("view", filter.view);
  if (filter.product) p.set("product", filter.product);
  if (filter.mine) p.set("mine", "1");
  if (filter.q) p.set("q", filter.q);
  if (page > 1) p.set("page", String(page));
  const qs = p.toString();
  return `/admin/applications${qs ? `?${qs}` : ""}`;
}

export default function Applications({ loaderData }: Route.ComponentProps) {
  const { filter, rows, total, staffId } = loaderData;
  const first = (filter.page - 1) * QUEUE_PAGE_SIZE + 1;
  const last = Math.min(total, filter.page * QUEUE_PAGE_SIZE);
  const decided = filter.view === "approved" || filter.view === "rejected";
  return (
    <div className="space-y-5">
      <h1 className="text-2xl sm:text-3xl">Applications</h1>
      <Form method="get" className="card grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_auto_auto] lg:items-end" role="search">
        <div>
          <label htmlFor="view" className="field-label">
            Show
          </label>
          <select id="view" name="view" className="field-input" defaultValue={filter.view}>
            {Object.entries(QUEUE_VIEWS).map(([value, v]) => (
              <option key={value} value={value}>
                {v.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="product" className="field-label">
            Product
          </label>
          <select id="product" name="product" className="field-input" defaultValue={filter.product ?? ""}>
            <option value="">Both</option>
            <option value="emi">EMI loan</option>
            <option value="salary_advance">Salary advance</option>
          </select>
        </div>
        <div>
          <label htmlFor="q" className="field-label">
            Search
          </label>
          <input
            id="q"
            name="q"
            type="search"
            className="field-input"
            defaultValue={filter.q}
            aria-describedby="q-hint"
            placeholder="Reference, mobile, name or PAN's last 4"
          />
          <p id="q-hint" className="sr-only">
            Application reference, 10-digit mobile number, part of the name, or the last 4 characters of the PAN.
          </p>
        </div>
        <div className="flex items-center gap-2 pb-3">
          <input id="mine" name="mine" type="checkbox" value="1" defaultChecked={filter.mine} className="size-4" />
          <label htmlFor="mine">Assigned to me</label>
        </div>
        <button type="submit" className="btn-primary">
          Show
        </button>
      </Form>
      <p className="text-slate-700" aria-live="polite" data-testid="queue-count">
        {total === 0
          ? "Nothing matches."
          : first > total
            ? `Page ${filter.page} is past the end: there are ${total}.`
            : `Showing ${first}–${last} of ${total}, oldest submission first.`}
      </p>
      {rows.length ? (
        <StaffTable
          label="Applications"
          minWidth="min-w-[48rem]"
          columns={["Application", "Borrower", "Amount", "Status", "Officer", `${decided ? "Time to decision" : "Waiting"} (working time)`]}
        >
          {rows.map((r) => (
            <tr key={r.reference} data-testid="queue-row">
              <td className="px-3 py-2">
                <Link className="link font-mono" to={`/admin/applications/${r.reference}`}>
                  {shortReference(r.reference)}
                </Link>
                <span className="block text-slate-600">{r.kindName}</span>
              </td>
              <td className="px-3 py-2">
                {staffBorrowerName({ fullName: r.name, mobile: r.mobile })}
                {r.name ? <span className="block text-slate-600">+91 {r.mobile}</span> : null}
              </td>
              <td className="px-3 py-2 tabular-nums">
                {r.amountPaise ? formatRupees(r.amountPaise) : "—"}
                {r.tenureMonths ? <span className="block text-slate-600">{r.tenureMonths} months</span> : null}
              </td>
              <td className="px-3 py-2">
                {STATUS_TEXT[r.status].label}
                {r.status === "under_review" && r.ask === "open" ? (
                  <span className="mt-1 block w-fit rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                    Waiting for borrower
                  </span>
                ) : null}
                {r.status === "under_review" && r.ask === "answered" ? (
                  <span className="mt-1 block w-fit rounded bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">
                    Borrower answered
                  </span>
                ) : null}
                {r.status === "approved" && r.payout ? (
                  <span
                    className={`mt-1 block w-fit rounded px-2 py-0.5 text-xs font-semibold ${r.payout === "requested" ? "bg-sky-100 text-sky-900" : "bg-amber-100 text-amber-900"}`}
                  >
                    {r.payout === "requested" ? "Payout on its way" : `Last payout ${r.payout}`}
                  </span>
                ) : null}
              </td>
              <td className="px-3 py-2">{r.assigneeId === staffId ? "You" : (r.assigneeName ?? "—")}</td>
              <td
                className={`px-3 py-2 tabular-nums ${!decided && r.ageMinutes !== null && r.ageMinutes > WORKING_DAY_MINUTES ? "font-semibold text-danger-600" : ""}`}
              >
                {r.ageMinutes === null ? "—" : formatWorkingAge(r.ageMinutes)}
              </td>
            </tr>
          ))}
        </StaffTable>
      ) : (
        <p className="card" data-testid="queue-empty">
          {filter.q || filter.product || filter.mine ? "No application matches these filters." : "No application is in this view."}
        </p>
      )}
      <PageLinks
        prev={filter.page > 1 ? queueHref(filter, filter.page - 1) : null}
        next={last < total ? queueHref(filter, filter.page + 1) : null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Applications");
