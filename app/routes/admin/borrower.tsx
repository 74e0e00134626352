import { randomUUID } from "node:crypto";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { getInputProps } from "../../components/input-props.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { Field, FormErrors } from "../../components/field.tsx";
import { FactRows } from "../../components/loan-flow.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { staffNoticeSchema } from "../../domain/notifications.ts";
import { noticesOf, sendStaffNotice } from "../../server/notifications/staff-notice.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { KIND_NAME, shortReference } from "../../domain/loans/application.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import { formatDateIST, formatDateTimeIST, todayIST } from "../../domain/india-date.ts";
import { ckycStateText } from "../../domain/ckyc.ts";
import { ckycStateOf } from "../../server/ckyc/read.server.ts";
import { pageMeta } from "../../lib/meta.ts";
import { borrowerDetails } from "../../server/borrowers/read.server.ts";
import { KeptEvaluations } from "../../components/policy-table.tsx";
import { borrowerJudgements } from "../../server/review/policy.server.ts";
import { StatusBadge } from "../../components/ticket-status.tsx";
import { can } from "../../domain/roles.ts";
import { borrowerTickets } from "../../server/help/read.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/borrower";

/** One borrower (docs/product.md "Borrowers"): profile, applications, loans and history; every staff role. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("borrowers.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const details = await borrowerDetails(services, params.id);
  if (!details) notFoundFullPath(request);
  const [notices, tickets, judgements, ckyc] = await Promise.all([
    noticesOf(services, details.person.id),
    borrowerTickets(services, details.person.id),
    // The judgements hold bureau scores: for the roles that read the review page or the credit policy.
    can(user.role, "applications.view") || can(user.role, "policy.view") ? borrowerJudgements(services, details.person.id) : null,
    ckycStateOf(services, details.person.id),
  ]);
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
    notices: notices.map((n) => ({
      id: n.id,
      title: n.title,
      event: n.event,
      at: n.availableAt.toISOString(),
      read: Boolean(n.readAt),
      sentBy: n.sentBy,
      channels: n.channels,
    })),
    tickets: tickets.map((t) => ({ reference: t.reference, subject: t.subject, status: t.status, updatedAt: t.updatedAt.toISOString() })),
    judgements,
    ckyc: ckycStateText(ckyc, todayIST(services.now())),
    canOpenTickets: can(user.role, "tickets.manage"),
    canOpenApplications: can(user.role, "applications.view"),
    canSendNotices: can(user.role, "borrowers.manage"),
    // Compliance's link to draft a suspicious-transaction report; no one else sees it.
    canReportSuspicion: can(user.role, "aml.manage"),
    // Sent with the notice form: the same form sent twice is one notice.
    once: randomUUID(),
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

/** A notice to this borrower (docs/product.md "Notifications"): in-app, push, e-mail; the fixed SMS when urgent. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "borrowers.manage");
  const submission = parseWithZod(await readForm(request), { schema: staffNoticeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const sent = await sendStaffNotice(services, {
    staff: user,
    borrowerId: params.id,
    ...submission.value,
    urgent: submission.value.urgent ?? false,
    client: context.get(requestContext),
  });
  if (!sent.ok) notFoundFullPath(request);
  return redirectWithToast(services.config, request, `/admin/borrowers/${params.id}`, {
    type: "success",
    title: sent.sent ? "Notice sent." : "This notice was sent already.",
  });
}

const CHANNEL_NAME = { sms: "SMS", email: "E-mail", push: "Push" } as const;

function NoticeForm({ once, lastResult }: { once: string; lastResult: Route.ComponentProps["actionData"] }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "notice",
    schema: staffNoticeSchema,
    lastResult,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="notice" />
      <input type="hidden" name="once" value={once} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <Field id={fields.title.id} label="Title" errors={fields.title.errors} errorId={fields.title.errorId}>
        <input {...getInputProps(fields.title, { type: "text" })} key={fields.title.key} className="field-input" maxLength={80} />
      </Field>
      <Field id={fields.message.id} label="Message" errors={fields.message.errors} errorId={fields.message.errorId}>
        <textarea
          {...getTextareaProps(fields.message)}
          key={fields.message.key}
          className="field-input min-h-24"
          rows={4}
          maxLength={1000}
        />
      </Field>
      <div className="flex items-start gap-2">
        <input {...getInputProps(fields.urgent, { type: "checkbox" })} key={fields.urgent.key} className="mt-1 size-5 shrink-0" />
        <label htmlFor={fields.urgent.id}>
          Urgent: also send the SMS “You have a new message from us. Open the app to read it.” (the text itself never goes by SMS)
        </label>
      </div>
      <button className="btn-primary" disabled={busy}>
        Send the notice
      </button>
    </Form>
  );
}

const describe = (what: string, d: Record<string, unknown>) => {
  if (what === "loan.status") return `Status: ${String(d.from ?? "new")} → ${String(d.to)}`;
  if (what.startsWith("payout.")) return `Payout ${what.slice(7)}${d.utr ? `, UTR ${String(d.utr)}` : ""}`;
  if (what === "ckyc.uploaded") return `CKYC record uploaded, number ${String(d.ckycNumber)}`;
  if (what === "ckyc.found") return `CKYC record found at the registry, number ${String(d.ckycNumber)}`;
  if (what === "ckyc.upload_failed") return `CKYC upload failed: ${String(d.reason)}`;
  if (what === "ckyc.retry") return "CKYC upload tried again";
  return what;
};

export default function BorrowerPage({ loaderData, actionData }: Route.ComponentProps) {
  const { person: p, kyc, applications, history, notices, once, tickets, canOpenTickets } = loaderData;
  const loans = applications.filter((a) => a.loanNumber);
  return (
    <div className="space-y-6">
      <p>
        <Link className="link" to="/admin/borrowers">
          ← Borrowers
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">{staffBorrowerName({ fullName: p.name, mobile: p.mobile })}</h1>
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
            ["CKYC", loaderData.ckyc],
          ]}
        />
        {loaderData.canReportSuspicion ? (
          <p>
            <Link className="link" to={`/admin/aml/reports/new?borrower=${p.id}`}>
              Draft a suspicious-transaction report about this borrower
            </Link>
          </p>
        ) : null}
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
                  {loaderData.canOpenApplications ? (
                    <Link className="link font-mono" to={`/admin/applications/${a.reference}`}>
                      {shortReference(a.reference)}
                    </Link>
                  ) : (
                    <span className="font-mono">{shortReference(a.reference)}</span>
                  )}
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
      <section className="card space-y-3" aria-labelledby="tickets-title">
        <h2 id="tickets-title" className="text-xl">
          Tickets
        </h2>
        {tickets.length ? (
          <ul className="divide-y divide-slate-200" data-testid="borrower-tickets">
            {tickets.map((t) => (
              <li key={t.reference} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {canOpenTickets ? (
                    <Link className="link font-mono" to={`/admin/tickets/${t.reference}`}>
                      {t.reference}
                    </Link>
                  ) : (
                    <span className="font-mono">{t.reference}</span>
                  )}{" "}
                  {t.subject}
                  <span className="block text-sm text-slate-600">Last change {formatDateIST(new Date(t.updatedAt))}</span>
                </span>
                <StatusBadge status={t.status} staff />
              </li>
            ))}
          </ul>
        ) : (
          <p>No tickets.</p>
        )}
      </section>
      {loaderData.judgements ? (
        <section className="card space-y-3" aria-labelledby="policy-title">
          <h2 id="policy-title" className="text-xl">
            Credit policy judgements
          </h2>
          <p className="text-sm text-slate-600">
            Each offer taken, terms chosen, signing, decision and disbursal, with the policy version and every rule.
          </p>
          <KeptEvaluations kept={loaderData.judgements} />
        </section>
      ) : null}
      <section className="card space-y-3" aria-labelledby="notices-title">
        <h2 id="notices-title" className="text-xl">
          Notices
        </h2>
        {notices.length ? (
          <ol className="space-y-2 text-sm" data-testid="borrower-notices">
            {notices.map((n) => (
              <li key={n.id}>
                <span className="font-semibold">{n.title}</span> · {formatDateTimeIST(new Date(n.at))} · {n.read ? "read" : "unread"}
                {n.sentBy ? ` · from ${n.sentBy}` : ""}
                {n.channels.length ? ` · ${n.channels.map((c) => `${CHANNEL_NAME[c.channel]} ${c.status}`).join(", ")}` : ""}
              </li>
            ))}
          </ol>
        ) : (
          <p>No notices yet.</p>
        )}
        {loaderData.canSendNotices ? (
          <>
            <h3 className="text-lg">Send a notice</h3>
            <NoticeForm once={once} lastResult={actionData} />
          </>
        ) : null}
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
                {h.reference ? ` (${shortReference(h.reference)})` : ""} · {h.who}
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

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? staffBorrowerName({ fullName: loaderData.person.name, mobile: loaderData.person.mobile }) : "Borrower");
