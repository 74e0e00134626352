import { Link } from "../../lib/link.tsx";
import { servicesContext } from "../../context.ts";
import { formatWorkingAge, WORKING_DAY_MINUTES, workingMinutesBetween } from "../../domain/review.ts";
import { pageMeta } from "../../lib/meta.ts";
import { payoutCounts } from "../../server/payouts/read.server.ts";
import { staffHomeCounts } from "../../server/review/read.server.ts";
import { can } from "../../domain/roles.ts";
import { ticketCounts } from "../../server/help/read.server.ts";
import { overdueLoanCount } from "../../server/servicing/collections.server.ts";
import { openExceptionCount } from "../../server/reconciliation/read.server.ts";
import { requireStaffMiddleware, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/home";

/** The staff home: what needs action now, each count a link to its queue (every staff role; each sees the counts its role acts on). */
export const middleware: Route.MiddlewareFunction[] = [requireStaffMiddleware];

interface Tile {
  label: string;
  n: number;
  to: string;
  alarm?: boolean;
}

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [review, payouts, tickets, overdue, exceptions] = await Promise.all([
    can(user.role, "applications.view") ? staffHomeCounts(services, user.id) : null,
    can(user.role, "applications.view") ? payoutCounts(services) : null,
    can(user.role, "tickets.manage") ? ticketCounts(services) : null,
    can(user.role, "collections.manage") ? overdueLoanCount(services) : null,
    can(user.role, "books.view") ? openExceptionCount(services) : null,
  ]);
  const tiles: Tile[] = [];
  if (review && payouts)
    tiles.push(
      { label: "New applications, not taken", n: review.signed, to: "/admin/applications?view=signed" },
      { label: "Yours, under review", n: review.mine, to: "/admin/applications?view=under_review&mine=1" },
      { label: "Answered by the borrower, yours", n: review.answeredMine, to: "/admin/applications?view=under_review&mine=1" },
      { label: "Under review, all officers", n: review.underReview, to: "/admin/applications?view=under_review" },
      { label: "Waiting for the borrower", n: review.waiting, to: "/admin/applications?view=under_review" },
      { label: "Approved, to disburse", n: review.approved, to: "/admin/applications?view=approved" },
      { label: "Payouts on their way", n: payouts.inFlight, to: "/admin/applications?view=approved" },
      {
        label: "Payouts stuck, no answer from the bank",
        n: payouts.stuck,
        to: "/admin/applications?view=approved",
        alarm: payouts.stuck > 0,
      },
    );
  if (overdue !== null) tiles.push({ label: "Loans overdue, in collections", n: overdue, to: "/admin/collections" });
  if (tickets)
    tiles.push(
      { label: "Open tickets", n: tickets.open, to: "/admin/tickets" },
      { label: "Tickets past their due date", n: tickets.overdue, to: "/admin/tickets?view=overdue", alarm: tickets.overdue > 0 },
      { label: "Answers the borrower did not accept", n: tickets.notAccepted, to: "/admin/tickets?view=not_accepted" },
    );
  if (exceptions !== null) tiles.push({ label: "Reconciliation exceptions open", n: exceptions, to: "/admin/reconciliation" });
  const oldestMinutes = review?.oldestSignedAt
    ? workingMinutesBetween(review.oldestSignedAt, services.now(), services.config.holidays)
    : null;
  return { tiles, oldestMinutes, reviews: Boolean(review) };
}

export default function StaffHome({ loaderData }: Route.ComponentProps) {
  const { tiles, oldestMinutes } = loaderData;
  const late = oldestMinutes !== null && oldestMinutes > WORKING_DAY_MINUTES;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">What needs action</h1>
      {tiles.length ? (
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3" aria-label="Counts">
          {tiles.map((t) => (
            <li key={t.label}>
              <Link
                to={t.to}
                className={`card block hover:border-brand-400 focus-visible:border-brand-600 ${t.alarm ? "border-danger-600" : ""}`}
                data-testid="home-count"
              >
                <span className={`block text-3xl font-bold tabular-nums ${t.alarm ? "text-danger-600" : "text-slate-900"}`}>{t.n}</span>
                <span className="mt-1 block text-slate-700">{t.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">Nothing waits for your role here. The menu above lists the pages you can open.</p>
      )}
      {loaderData.reviews ? (
        <p className={late ? "font-semibold text-danger-600" : "text-slate-700"} data-testid="oldest-age">
          {oldestMinutes === null
            ? "No application is waiting for a decision."
            : `The oldest application waiting for a decision was submitted ${formatWorkingAge(oldestMinutes)} of working time ago${late ? ": over the target of one working day." : " (target: a decision within one working day)."}`}
        </p>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Back office");
