import { Link } from "../../lib/link.tsx";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { StatusBadge } from "../../components/ticket-status.tsx";
import { servicesContext } from "../../context.ts";
import { answerLateness, latenessText, TICKET_VIEWS, type TicketView, ticketSummary } from "../../domain/help.ts";
import { formatDateIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { ticketCounts, ticketQueue } from "../../server/help/read.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/tickets";

/**
 * The support queue (docs/product.md "Help and grievances"): oldest first, with age, the due date
 * (its category's days) and how late the answer is, with the compensation owed for a late answer
 * to a dispute of credit information.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("tickets.manage")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const url = new URL(request.url);
  const asked = url.searchParams.get("view") ?? "open";
  const view: TicketView = Object.hasOwn(TICKET_VIEWS, asked) ? (asked as TicketView) : "open";
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
  const [queue, counts] = await Promise.all([ticketQueue(services, { view, staffId: user.id, page }), ticketCounts(services)]);
  const now = services.now();
  const link = (p: number) => `/admin/tickets?view=${view}${p > 1 ? `&page=${p}` : ""}`;
  return {
    view,
    counts,
    rows: queue.rows.map((t) => ({
      ...ticketSummary(t, now),
      lateness: latenessText(answerLateness(t, now)),
      source: t.source,
      name: t.name,
      mobile: t.mobile,
      assignee: t.assignee,
    })),
    prev: page > 1 ? link(page - 1) : null,
    next: queue.more ? link(page + 1) : null,
  };
}

export default function Tickets({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Tickets</h1>
      <p className="text-slate-700" data-testid="ticket-counts">
        {d.counts.open} open, {d.counts.unassigned} not assigned,{" "}
        <span className={d.counts.overdue ? "font-semibold text-danger-600" : ""}>{d.counts.overdue} past the due date</span>.
      </p>
      <nav aria-label="Ticket views" className="flex flex-wrap gap-2">
        {(Object.keys(TICKET_VIEWS) as TicketView[]).map((v) => (
          <Link
            key={v}
            to={`/admin/tickets?view=${v}`}
            aria-current={v === d.view ? "page" : undefined}
            className={v === d.view ? "btn-primary" : "btn-secondary"}
          >
            {TICKET_VIEWS[v]}
          </Link>
        ))}
      </nav>
      {d.rows.length === 0 ? (
        <p className="card">No ticket here.</p>
      ) : (
        <StaffTable
          label={`Tickets: ${TICKET_VIEWS[d.view]}`}
          minWidth="min-w-[60rem]"
          columns={["Ticket", "From", "Status", "Assigned to", "Age", "Answer due by"]}
        >
          {d.rows.map((t) => (
            <tr key={t.reference} className={t.late ? "bg-danger-50" : undefined}>
              <td className="px-3 py-2">
                <Link className="link font-mono" to={`/admin/tickets/${t.reference}`}>
                  {t.reference}
                </Link>
                <span className="block max-w-[22rem] truncate">{t.subject}</span>
                <span className="block text-xs text-slate-600">
                  {t.kind} · {t.category}
                </span>
              </td>
              <td className="px-3 py-2">
                {staffBorrowerName({ fullName: t.name, mobile: t.mobile })}
                <span className="block text-xs text-slate-600">
                  {t.mobile ? `+91 ${t.mobile}` : ""}
                  {t.source === "contact" ? " · contact form" : ""}
                </span>
              </td>
              <td className="px-3 py-2">
                <StatusBadge status={t.status} staff />
              </td>
              <td className="px-3 py-2">{t.assignee ?? "Nobody yet"}</td>
              <td className="px-3 py-2 tabular-nums">
                {t.ageDays} {t.ageDays === 1 ? "day" : "days"}
              </td>
              <td className={`px-3 py-2 ${t.late ? "font-semibold text-danger-600" : ""}`}>
                {formatDateIST(new Date(t.dueBy))}
                {t.lateness ? (
                  <span className="block text-sm text-danger-600" data-testid="ticket-lateness">
                    {t.lateness}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      <PageLinks prev={d.prev} next={d.next} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Tickets");
