import { Link } from "react-router";
import { servicesContext } from "../../context.ts";
import { formatWorkingAge, WORKING_DAY_MINUTES, workingMinutesBetween } from "../../domain/review.ts";
import { pageMeta } from "../../lib/meta.ts";
import { payoutCounts } from "../../server/payouts/read.server.ts";
import { staffHomeCounts } from "../../server/review/read.server.ts";
import { can } from "../../domain/roles.ts";
import { ticketCounts } from "../../server/help/tickets.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/home";

/** The staff home: what needs action now, each count a link to its queue (every staff role sees it). */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("applications.view")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [review, payouts, tickets] = await Promise.all([
    staffHomeCounts(services, user.id),
    payoutCounts(services),
    can(user.role, "tickets.manage") ? ticketCounts(services) : null,
  ]);
  const counts = { ...review, payoutsInFlight: payouts.inFlight, payoutsStuck: payouts.stuck };
  const oldestMinutes = counts.oldestSignedAt
    ? workingMinutesBetween(counts.oldestSignedAt, services.now(), services.config.holidays)
    : null;
  return { counts, tickets, oldestMinutes };
}

export default function StaffHome({ loaderData }: Route.ComponentProps) {
  const { counts, tickets, oldestMinutes } = loaderData;
  const tiles = [
    { label: "New applications, not taken", n: counts.signed, to: "/admin/applications?view=signed" },
    { label: "Yours, under review", n: counts.mine, to: "/admin/applications?view=under_review&mine=1" },
    { label: "Answered by the borrower, yours", n: counts.answeredMine, to: "/admin/applications?view=under_review&mine=1" },
    { label: "Under review, all officers", n: counts.underReview, to: "/admin/applications?view=under_review" },
    { label: "Waiting for the borrower", n: counts.waiting, to: "/admin/applications?view=under_review" },
    { label: "Approved, to disburse", n: counts.approved, to: "/admin/applications?view=approved" },
    { label: "Payouts on their way", n: counts.payoutsInFlight, to: "/admin/applications?view=approved" },
    {
      label: "Payouts stuck, no answer from the bank",
      n: counts.payoutsStuck,
      to: "/admin/applications?view=approved",
      alarm: counts.payoutsStuck > 0,
    },
    ...(tickets
      ? [
          { label: "Open tickets", n: tickets.open, to: "/admin/tickets" },
          { label: "Tickets past 30 days", n: tickets.overdue, to: "/admin/tickets?view=overdue", alarm: tickets.overdue > 0 },
          { label: "Answers the borrower did not accept", n: tickets.notAccepted, to: "/admin/tickets?view=not_accepted" },
        ]
      : []),
  ];
  const late = oldestMinutes !== null && oldestMinutes > WORKING_DAY_MINUTES;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">What needs action</h1>
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3" aria-label="Counts">
        {tiles.map((t) => (
          <li key={t.label}>
            <Link
              to={t.to}
              className={`card block hover:border-brand-400 focus-visible:border-brand-600 ${"alarm" in t && t.alarm ? "border-danger-600" : ""}`}
              data-testid="home-count"
            >
              <span className={`block text-3xl font-bold tabular-nums ${"alarm" in t && t.alarm ? "text-danger-600" : "text-slate-900"}`}>
                {t.n}
              </span>
              <span className="mt-1 block text-slate-700">{t.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className={late ? "font-semibold text-danger-600" : "text-slate-700"} data-testid="oldest-age">
        {oldestMinutes === null
          ? "No application is waiting for a decision."
          : `The oldest application waiting for a decision was submitted ${formatWorkingAge(oldestMinutes)} of working time ago${late ? ": over the target of one working day." : " (target: a decision within one working day)."}`}
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Back office");
