import { Link } from "../../../lib/link.tsx";
import { StaffTable } from "../../../components/staff-table.tsx";
import { servicesContext } from "../../../context.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import { breachDue } from "../../../domain/privacy/breach.ts";
import { BREACH_REPORT_HOURS } from "../../../domain/privacy/notice.ts";
import { can } from "../../../domain/roles.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { listBreaches } from "../../../server/privacy/breaches.server.ts";
import { requirePermission, signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/breaches";

/**
 * The personal-data breach register (DPDP Rules, 2025, rule 7): each breach, when the Data
 * Protection Board's report is due (72 hours from becoming aware), whether it was made and how many
 * affected borrowers have been told. Compliance and administrators only.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("privacy.view")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const now = services.now();
  const breaches = (await listBreaches(services)).map((b) => {
    const due = breachDue(b.discoveredAt, now, b.boardReportedAt);
    return {
      reference: b.reference,
      discovered: formatDateTimeIST(b.discoveredAt),
      due: formatDateTimeIST(due.due),
      dueText: due.text,
      late: due.late,
      reported: b.boardReportedAt ? formatDateTimeIST(b.boardReportedAt) : null,
      sent: b.noticesSentAt ? formatDateTimeIST(b.noticesSentAt) : null,
      everyone: b.scope === "all",
      affected: b.affected,
      told: b.told,
    };
  });
  return { breaches, mayManage: can(user.role, "privacy.manage") };
}

const count = (n: number) => n.toLocaleString("en-IN");

export default function Breaches({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Personal data breaches</h1>
        <p className="max-w-3xl text-slate-700">
          Every breach of borrowers' personal data is recorded here as soon as we become aware of it. The Data Protection Board of India is
          told at once and sent the detailed report within {BREACH_REPORT_HOURS} hours; each affected borrower is sent a notice without
          delay. Both are drafted from the record.
        </p>
      </div>
      {d.mayManage ? (
        <p>
          <Link className="btn-primary" to="/admin/privacy/breaches/new">
            Record a breach
          </Link>
        </p>
      ) : null}
      {d.breaches.length === 0 ? (
        <p className="card">No breach is recorded.</p>
      ) : (
        <StaffTable
          label="Personal data breaches"
          minWidth="min-w-[52rem]"
          columns={["Breach", "Became aware", `Board's report due (${BREACH_REPORT_HOURS} h)`, "Board told", "Borrowers told"]}
        >
          {d.breaches.map((b) => (
            <tr key={b.reference} className={b.late && !b.reported ? "bg-danger-50" : undefined} data-testid="breach-row">
              <td className="px-3 py-2">
                <Link className="link font-mono" to={`/admin/privacy/breaches/${b.reference}`}>
                  {b.reference}
                </Link>
                <span className="block text-xs text-slate-600">{b.everyone ? "Every borrower" : "Listed borrowers"}</span>
              </td>
              <td className="px-3 py-2">{b.discovered}</td>
              <td className={`px-3 py-2 ${b.late && !b.reported ? "font-semibold text-danger-600" : ""}`}>
                {b.due}
                <span className="block text-sm">{b.dueText}</span>
              </td>
              <td className="px-3 py-2">{b.reported ? `Yes, ${b.reported}` : "Not yet"}</td>
              <td className="px-3 py-2 tabular-nums">
                {b.sent ? `${count(b.told)} of ${count(b.affected)}` : "Not sent"}
                {b.sent ? <span className="block text-xs text-slate-600">from {b.sent}</span> : null}
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Personal data breaches");
