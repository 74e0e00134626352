import { shortReference } from "../../domain/loans/application.ts";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks } from "../../components/staff-table.tsx";
import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { servicesContext } from "../../context.ts";
import {
  ACTOR_ROLE_LABEL,
  actorValue,
  AUDIT_EXPORT_LIMIT,
  AUDIT_PAGE_SIZE,
  auditFilterQuery,
  detailPairs,
  isFiltered,
  parseAuditFilter,
} from "../../domain/audit.ts";
import { DOCUMENT_KINDS } from "../../domain/kyc/documents.ts";
import { can, ROLE_LABEL, type StaffRole, type UserRole } from "../../domain/roles.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { auditFilterChoices, auditPage, type AuditRow } from "../../server/audit/read.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/audit";

/** The audit log (PRODUCT.md §12): every role may read it; only `audit.export` downloads it. Nobody edits or deletes it. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("audit.view")];

/** Who did it, as the page shows it. */
function who(r: AuditRow) {
  if (r.actorRole === "system") return { name: "System", role: null };
  if (r.actorRole === "borrower") return { name: "Borrower", role: null };
  if (!r.actorUserId && !r.actorRole) return { name: "Unknown", role: "not signed in" };
  return { name: r.actorName ?? "Staff member", role: r.actorRole ? (ACTOR_ROLE_LABEL[r.actorRole] ?? r.actorRole) : null };
}

/** What it was about: a loan application (linked), a borrower, a document, or what the row names. */
function subjectOf(r: AuditRow) {
  const person =
    r.borrowerName || r.borrowerMobile ? staffBorrowerName({ fullName: r.borrowerName, mobile: r.borrowerMobile }, { masked: true }) : null;
  if (r.subjectType === "loan_application" && r.reference) return { kind: "application" as const, reference: r.reference, text: person };
  if (r.subjectType === "user") return { kind: "text" as const, label: "Account", text: person ?? "Account not found" };
  if (r.subjectType === "document")
    return {
      kind: "text" as const,
      label: r.documentKind ? `Document: ${DOCUMENT_KINDS[r.documentKind] ?? r.documentKind}` : "Document",
      text: person ?? "Deleted document",
    };
  if (!r.subjectType) return null;
  return { kind: "text" as const, label: r.subjectType, text: r.subjectId ? r.subjectId.slice(0, 40) : null };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { filter, notices } = parseAuditFilter(new URL(request.url).searchParams);
  const hideScreening = !can(user.role, "aml.view");
  const [{ rows, total, borrowerKnown }, choices] = await Promise.all([
    auditPage(services, { ...filter, hideScreening }),
    auditFilterChoices(services, { hideScreening }),
  ]);
  return {
    filter,
    notices,
    total,
    borrowerKnown,
    mayExport: can(user.role as UserRole, "audit.export"),
    staff: choices.staff.map((s) => ({
      id: s.id,
      label: `${s.name ?? s.email ?? "Unnamed"} (${ROLE_LABEL[s.role as StaffRole] ?? s.role}${s.disabledAt ? ", disabled" : ""})`,
    })),
    actions: filter.action && !choices.actions.includes(filter.action) ? [...choices.actions, filter.action] : choices.actions,
    rows: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      time: formatDateTimeIST(r.at),
      who: who(r),
      action: r.action,
      subject: subjectOf(r),
      details: detailPairs(r.details),
      ip: r.ip,
    })),
  };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filter, notices, total, borrowerKnown, mayExport, staff, actions, rows } = loaderData;
  const first = (filter.page - 1) * AUDIT_PAGE_SIZE + 1;
  const last = Math.min(total, filter.page * AUDIT_PAGE_SIZE);
  const query = auditFilterQuery(filter);
  const href = (page: number) => {
    const qs = auditFilterQuery(filter, page);
    return `/admin/audit${qs ? `?${qs}` : ""}`;
  };
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl sm:text-3xl">Audit log</h1>
          <p className="text-slate-700">Every staff action and every status change. It cannot be edited or deleted.</p>
        </div>
        {mayExport ? (
          <a className="btn-secondary" href={`/admin/audit.csv${query ? `?${query}` : ""}`} download data-testid="audit-csv">
            Download CSV
          </a>
        ) : null}
      </div>
      <Form
        method="get"
        className="card grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1.4fr)_minmax(0,1.6fr)_auto_auto_auto] lg:items-end"
        role="search"
        aria-label="Filter the audit log"
      >
        <div>
          <label htmlFor="actor" className="field-label">
            Who
          </label>
          <select id="actor" name="actor" className="field-input" defaultValue={actorValue(filter.actor)}>
            <option value="">Anyone</option>
            <option value="system">System</option>
            <option value="borrower">A borrower</option>
            <optgroup label="Staff">
              {staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div>
          <label htmlFor="borrower" className="field-label">
            Borrower mobile
          </label>
          <input
            id="borrower"
            name="borrower"
            type="tel"
            inputMode="numeric"
            autoComplete="off"
            maxLength={20}
            className="field-input"
            defaultValue={filter.borrower ?? ""}
            placeholder="10 digits"
          />
        </div>
        <div>
          <label htmlFor="action" className="field-label">
            Action
          </label>
          <select id="action" name="action" className="field-input" defaultValue={filter.action ?? ""}>
            <option value="">Any action</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from" className="field-label">
            From
          </label>
          <input id="from" name="from" type="date" className="field-input" defaultValue={filter.from ?? ""} />
        </div>
        <div>
          <label htmlFor="to" className="field-label">
            To
          </label>
          <input id="to" name="to" type="date" className="field-input" defaultValue={filter.to ?? ""} />
        </div>
        <div className="flex items-center gap-3">
          <button type="submit" className="btn-primary">
            Show
          </button>
          {isFiltered(filter) ? (
            <Link to="/admin/audit" className="link whitespace-nowrap">
              Clear
            </Link>
          ) : null}
        </div>
        <p className="text-sm text-slate-600 sm:col-span-2 lg:col-span-6">Dates are India time (IST), both days included.</p>
      </Form>
      {notices.length ? (
        <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900" data-testid="audit-notice">
          {notices.map((n) => (
            <p key={n}>{n}</p>
          ))}
        </div>
      ) : null}
      <p className="text-slate-700" aria-live="polite" data-testid="audit-count">
        {total === 0
          ? "Nothing matches."
          : first > total
            ? `Page ${filter.page} is past the end: there are ${total.toLocaleString("en-IN")}.`
            : `Showing ${first.toLocaleString("en-IN")}–${last.toLocaleString("en-IN")} of ${total.toLocaleString("en-IN")}, newest first.`}
        {mayExport && total > AUDIT_EXPORT_LIMIT ? ` The CSV holds the newest ${AUDIT_EXPORT_LIMIT.toLocaleString("en-IN")}.` : ""}
      </p>
      {rows.length ? (
        <>
          <p className="text-sm text-slate-600 xl:hidden" aria-hidden="true">
            Scroll the table sideways to see every column →
          </p>
          <div
            className="overflow-x-auto rounded-2xl border border-slate-200 bg-white"
            tabIndex={0}
            role="region"
            aria-label="Audit log entries"
          >
            <table className="w-full min-w-[64rem] text-left text-sm">
              <thead className="bg-slate-100 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 whitespace-nowrap">
                    Time (IST)
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Who
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Action
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Subject
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Details
                  </th>
                  <th scope="col" className="px-3 py-2">
                    IP
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 align-top">
                {rows.map((r) => (
                  <tr key={r.id} data-testid="audit-row">
                    <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                      <time dateTime={r.at}>{r.time}</time>
                    </td>
                    <td className="px-3 py-2" data-testid="audit-who">
                      {r.who.name}
                      {r.who.role ? <span className="block text-slate-600">{r.who.role}</span> : null}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs whitespace-nowrap" data-testid="audit-action">
                      {r.action}
                    </td>
                    <td className="px-3 py-2">
                      {r.subject === null ? (
                        "—"
                      ) : r.subject.kind === "application" ? (
                        <>
                          <Link className="link font-mono" to={`/admin/applications/${r.subject.reference}`}>
                            {shortReference(r.subject.reference)}
                          </Link>
                          {r.subject.text ? <span className="block text-slate-600">{r.subject.text}</span> : null}
                        </>
                      ) : (
                        <>
                          {r.subject.label}
                          {r.subject.text ? <span className="block text-slate-600">{r.subject.text}</span> : null}
                        </>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      {r.details.length ? (
                        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
                          {r.details.map((d) => (
                            <div key={d.key} className="contents">
                              <dt className="font-semibold text-slate-700">{d.key}:</dt>
                              <dd className="break-words text-slate-900" title={d.full ?? undefined}>
                                {d.value}
                              </dd>
                            </div>
                          ))}
                        </dl>
                      ) : (
                        <span className="text-slate-600">—</span>
                      )}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{r.ip ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <div className="card space-y-2" data-testid="audit-empty">
          {total > 0 ? (
            <>
              <p>There are no entries on this page.</p>
              <Link className="link" to={href(1)}>
                Go to the first page
              </Link>
            </>
          ) : isFiltered(filter) ? (
            <>
              <p>{filter.borrower && !borrowerKnown ? "No borrower has this mobile number." : "No audit entry matches these filters."}</p>
              <Link className="link" to="/admin/audit">
                Clear the filters
              </Link>
            </>
          ) : (
            <p>Nothing has been recorded yet.</p>
          )}
        </div>
      )}
      <PageLinks
        prev={filter.page > 1 ? href(Math.min(filter.page - 1, Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)))) : null}
        next={last < total && first <= total ? href(filter.page + 1) : null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Audit log");
