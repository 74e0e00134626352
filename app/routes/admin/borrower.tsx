import { Link } from "react-router";
import { FactRows } from "../../components/loan-flow.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { servicesContext } from "../../context.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import { formatDateIST, formatDateTimeIST } from "../../lib/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { borrowerDetails } from "../../server/borrowers/read.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/borrower";

/** One borrower (docs/product.md "Borrowers"): profile, applications, loans and history; every staff role. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("borrowers.manage")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const details = await borrowerDetails(context.get(servicesContext), params.id);
  if (!details) notFoundFullPath(request);
  const { person, applications, history, completeness } = details;
  const references = new Map(applications.map((a) => [a.id, a.reference]));
  return {
    person: { ...person, createdAt: person.createdAt.toISOString(), mobileVerifiedAt: person.mobileVerifiedAt?.toISOString() ?? null },
    kyc: {
      done: completeness.completeCount,
      of: completeness.sections.length,
      missing: completeness.sections.filter((s) => !s.complete).map((s) => s.name),
    },
    applications: applications.map(({ id: _id, ...a }) => ({
      ...a,
      kindName: KIND_NAME[a.product],
      createdAt: a.createdAt.toISOString(),
      signedAt: a.signedAt?.toISOString() ?? null,
      decidedAt: a.decidedAt?.toISOString() ?? null,
    })),
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      details: h.details as Record<string, unknown>,
      at: h.at.toISOString(),
      who: h.actorName ?? h.actorRole ?? "—",
      reference: h.subjectId ? (references.get(h.subjectId) ?? null) : null,
    })),
  };
}

const describe = (action: string, d: Record<string, unknown>) => {
  if (action === "loan.status") return `Status: ${String(d.from ?? "new")} → ${String(d.to)}`;
  if (action.startsWith("payout.")) return `Payout ${action.slice(7)}${d.utr ? `, UTR ${String(d.utr)}` : ""}`;
  return action;
};

export default function BorrowerPage({ loaderData }: Route.ComponentProps) {
  const { person: p, kyc, applications, history } = loaderData;
  const loans = applications.filter((a) => a.loanNumber);
  return (
    <div className="space-y-6">
      <p>
        <Link className="link" to="/admin/borrowers">
          ← Borrowers
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">{p.name ?? "Name not given"}</h1>
      <section className="card space-y-3" aria-labelledby="profile-title">
        <h2 id="profile-title" className="text-xl">
          Profile
        </h2>
        <FactRows
          rows={[
            ["Mobile", p.mobile ? `+91 ${p.mobile}${p.mobileVerifiedAt ? " (verified)" : " (not verified)"}` : "—"],
            ["E-mail", p.email ?? "—"],
            ["PAN", p.panMasked ?? "—"],
            ["Date of birth", p.dateOfBirth ?? "—"],
            ["Member since", formatDateIST(new Date(p.createdAt))],
            ["KYC", `${kyc.done} of ${kyc.of} sections${kyc.missing.length ? `; missing: ${kyc.missing.join(", ")}` : ""}`],
          ]}
        />
      </section>
      <section className="card space-y-3" aria-labelledby="loans-title">
        <h2 id="loans-title" className="text-xl">
          Loans
        </h2>
        {loans.length ? (
          <ul className="divide-y divide-slate-200" data-testid="borrower-loans">
            {loans.map((a) => (
              <li key={a.reference} className="py-2">
                <p className="font-semibold">
                  {a.loanNumber} · {a.kindName} of {a.amountPaise ? formatRupees(a.amountPaise) : "—"} · {STATUS_TEXT[a.status].label}
                </p>
                <p className="text-sm text-slate-700">
                  Disbursed {a.disbursalDate ?? "—"}
                  {a.payout ? `: ${formatRupees(a.payout.amountPaise)}, UTR ${a.payout.utr ?? "—"}` : ""}
                  {a.loan
                    ? ` · ${a.loan.instalments} instalments, ${a.loan.firstDue} to ${a.loan.lastDue}, ${formatRupees(a.loan.totalDuePaise)} in all`
                    : ""}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p>No loan disbursed.</p>
        )}
      </section>
      <section className="card space-y-3" aria-labelledby="applications-title">
        <h2 id="applications-title" className="text-xl">
          Applications
        </h2>
        {applications.length ? (
          <StaffTable
            label="Their applications, table"
            minWidth="min-w-[36rem]"
            framed={false}
            columns={["Application", "Amount", "Status", "Started"]}
          >
            {applications.map((a) => (
              <tr key={a.reference} data-testid="borrower-application">
                <td className="px-3 py-2">
                  <Link className="link font-mono" to={`/admin/applications/${a.reference}`}>
                    {a.reference.toUpperCase().slice(0, 10)}…
                  </Link>
                  <span className="block text-slate-600">{a.kindName}</span>
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {a.amountPaise ? formatRupees(a.amountPaise) : "—"}
                  {a.tenureMonths ? <span className="block text-slate-600">{a.tenureMonths} months</span> : null}
                </td>
                <td className="px-3 py-2">{STATUS_TEXT[a.status].label}</td>
                <td className="px-3 py-2">{formatDateIST(new Date(a.createdAt))}</td>
              </tr>
            ))}
          </StaffTable>
        ) : (
          <p>No applications.</p>
        )}
      </section>
      <section className="card space-y-3" aria-labelledby="history-title">
        <h2 id="history-title" className="text-xl">
          History
        </h2>
        {history.length ? (
          <ol className="space-y-1 text-sm" data-testid="borrower-history">
            {history.map((h) => (
              <li key={h.id}>
                {formatDateTimeIST(new Date(h.at))} · {describe(h.action, h.details)}
                {h.reference ? ` (${h.reference.toUpperCase().slice(0, 10)}…)` : ""} · {h.who}
              </li>
            ))}
          </ol>
        ) : (
          <p>Nothing recorded yet.</p>
        )}
        <p className="text-sm text-slate-600">The latest 50 entries. The full record is in the audit log.</p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.person.name ?? "Borrower");
