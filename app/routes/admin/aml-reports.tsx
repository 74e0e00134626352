import { Link } from "../../lib/link.tsx";
import { servicesContext } from "../../context.ts";
import { dueStanding, dueText, STR_STAGE_LABEL, type StrStage, strStage } from "../../domain/aml/str.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { can } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { strList } from "../../server/aml/str-read.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/aml-reports";

/**
 * Suspicious-transaction reports (docs/product.md "Suspicious-transaction reports"): the drafts sent
 * back, those awaiting review, those reviewed and not exported, and those exported; the late first,
 * then the soonest due. Compliance and administrators only.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("aml.view")];

const STAGES: readonly StrStage[] = ["sent_back", "awaiting_review", "reviewed", "exported"];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const today = todayIST(services.now());
  const holidays = services.config.holidays;
  const rows = (await strList(services)).map((r) => {
    const standing = dueStanding(today, r.dueOn, holidays);
    return {
      reference: r.reference,
      borrower: r.borrower,
      stage: strStage(r),
      dueOn: r.dueOn,
      late: standing.late,
      due: r.status === "exported" ? null : dueText(standing),
      suspectedAt: r.suspectedAt.toISOString(),
      exportedAt: r.exportedAt?.toISOString() ?? null,
      fiuReference: r.fiuReference,
      fromMatch: r.fromMatch,
      draftedBy: r.draftedBy,
      reviewedBy: r.reviewedBy,
    };
  });
  const sections = STAGES.map((stage) => ({
    stage,
    rows: rows
      .filter((r) => r.stage === stage)
      .sort((a, b) =>
        stage === "exported"
          ? (b.exportedAt ?? "").localeCompare(a.exportedAt ?? "")
          : Number(b.late) - Number(a.late) || a.dueOn.localeCompare(b.dueOn),
      ),
  }));
  return { sections, mayManage: can(user.role, "aml.manage") };
}

type Row = Route.ComponentProps["loaderData"]["sections"][number]["rows"][number];

function ReportItem({ r }: { r: Row }) {
  return (
    <li className="card space-y-1" data-testid={`str-${r.stage}`}>
      <p className="flex flex-wrap items-baseline gap-x-3">
        <Link className="link font-mono" to={`/admin/aml/reports/${r.reference}`}>
          {r.reference}
        </Link>
        <span className="font-semibold">{r.borrower ?? "A borrower without a KYC profile"}</span>
        {r.fromMatch ? <span className="text-sm text-slate-700">from a confirmed sanctions match</span> : null}
      </p>
      {r.due ? (
        <p className={r.late ? "font-semibold text-red-800" : ""}>
          Due {longDate(r.dueOn)}: {r.due}
        </p>
      ) : (
        <p>
          Exported {r.exportedAt ? formatDateTimeIST(new Date(r.exportedAt)) : ""}
          {r.fiuReference ? `; FIU-IND acknowledgement ${r.fiuReference}` : "; FIU-IND's acknowledgement not recorded yet"}
        </p>
      )}
      <p className="text-sm text-slate-700">
        Suspected {formatDateTimeIST(new Date(r.suspectedAt))}; drafted by {r.draftedBy ?? "the system"}
        {r.reviewedBy ? `; reviewed by ${r.reviewedBy}` : ""}
      </p>
    </li>
  );
}

export default function Reports({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <p>
        <Link className="link" to="/admin/aml">
          Sanctions screening
        </Link>
      </p>
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Suspicious-transaction reports</h1>
        <p className="max-w-3xl text-slate-700">
          Each report is drafted, reviewed by a second person and exported for FIU-IND within 7 working days of the suspicion. Nothing here
          is shown to the borrower or to staff outside compliance and administrators.
        </p>
        {d.mayManage ? (
          <p>
            <Link className="btn-primary inline-block" to="/admin/aml/reports/new">
              Draft a report
            </Link>
          </p>
        ) : null}
      </div>
      {d.sections.map((s) => (
        <section key={s.stage} aria-labelledby={`${s.stage}-title`} className="space-y-3">
          <h2 id={`${s.stage}-title`} className="text-xl">
            {STR_STAGE_LABEL[s.stage]}: {s.rows.length}
          </h2>
          {s.rows.length ? (
            <ul className="space-y-3">
              {s.rows.map((r) => (
                <ReportItem key={r.reference} r={r} />
              ))}
            </ul>
          ) : (
            <p className="card">None.</p>
          )}
        </section>
      ))}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Suspicious-transaction reports");
