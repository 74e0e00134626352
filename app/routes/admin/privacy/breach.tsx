import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { CheckboxField, FormErrors, TextField } from "../../../components/field.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "../../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../../context.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import { boardReportSchema, breachDue, parseBreachReference, sendNoticesSchema } from "../../../domain/privacy/breach.ts";
import { dataItemNames, TO_COMPLETE } from "../../../domain/privacy/breach-drafts.ts";
import { BREACH_REPORT_HOURS } from "../../../domain/privacy/notice.ts";
import { can, type StaffRole } from "../../../domain/roles.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { breachDrafts, markBoardReported, readBreach, sendBreachNotices } from "../../../server/privacy/breaches.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { invalidForm, readForm } from "../../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/breach";

/**
 * One breach of the register (DPDP Rules, 2025, rule 7): the record, the draft report to the Data
 * Protection Board and the notice to each affected borrower, as text to copy; marking the Board's
 * report made and sending the notices, each audited.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("privacy.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const reference = parseBreachReference(params.reference);
  const b = reference ? await readBreach(services, reference) : null;
  if (!b) notFoundFullPath(request);
  const due = breachDue(b.discoveredAt, services.now(), b.boardReportedAt);
  const when = (at: Date | null) => (at ? formatDateTimeIST(at) : null);
  return {
    reference: b.reference,
    discovered: formatDateTimeIST(b.discoveredAt),
    occurred: when(b.occurredAt),
    description: b.description,
    items: dataItemNames(b.dataItems, "en"),
    consequences: b.consequences,
    mitigation: b.mitigation,
    borrowerSteps: b.borrowerSteps,
    everyone: b.scope === "all",
    recorded: `${formatDateTimeIST(b.recordedAt)} by ${b.recordedByName ?? "a former colleague"}`,
    due: { at: formatDateTimeIST(due.due), text: due.text, late: due.late },
    reported: b.boardReportedAt ? { at: formatDateTimeIST(b.boardReportedAt), by: b.boardReportedByName, ref: b.boardReference } : null,
    sent: b.noticesSentAt ? { at: formatDateTimeIST(b.noticesSentAt), by: b.noticesSentByName } : null,
    affected: b.affected,
    told: b.told,
    drafts: breachDrafts(services, b),
    mayManage: can(user.role, "privacy.manage"),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "privacy.manage");
  const by = { staff: { id: user.id, role: user.role as StaffRole }, client: context.get(requestContext) };
  const reference = parseBreachReference(params.reference);
  if (!reference) notFoundFullPath(request);
  const here = `/admin/privacy/breaches/${reference}`;
  const form = await readForm(request);
  switch (String(form.get("intent") ?? "")) {
    case "report": {
      const s = parseWithZod(form, { schema: boardReportSchema });
      if (s.status !== "success") return invalidForm("report", s.reply());
      const done = await markBoardReported(services, { reference, boardReference: s.value.boardReference, ...by });
      if (!done.ok && done.reason === "not_found") notFoundFullPath(request);
      return redirectWithToast(services.config, request, here, {
        type: done.ok ? "success" : "error",
        title: done.ok
          ? "Marked: the report was made to the Data Protection Board."
          : "A colleague marked the Board's report made already.",
      });
    }
    case "notify": {
      const s = parseWithZod(form, { schema: sendNoticesSchema });
      if (s.status !== "success") return invalidForm("notify", s.reply());
      const done = await sendBreachNotices(services, { reference, ...by });
      if (!done.ok) notFoundFullPath(request);
      return redirectWithToast(services.config, request, here, {
        type: "success",
        title: done.again
          ? "Sent again to any affected borrower not told yet: nobody is told twice."
          : "The notices are on their way to every affected borrower.",
      });
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];
const count = (n: number) => n.toLocaleString("en-IN");

function ReportForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "report",
    schema: boardReportSchema,
    lastResult: resultFor(actionData, "report"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="report" />
      <TextField field={fields.boardReference} label="The Board's reference for the report" />
      <button type="submit" className="btn-primary" disabled={busy}>
        Mark the Board's report made
      </button>
    </Form>
  );
}

function NotifyForm({ d, actionData }: { d: Data; actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "notify",
    schema: sendNoticesSchema,
    lastResult: resultFor(actionData, "notify"),
    shouldValidate: "onSubmit",
  });
  const whom = d.everyone ? `every borrower (${count(d.affected)} now)` : `the ${count(d.affected)} listed borrowers`;
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="notify" />
      <CheckboxField field={fields.confirm} label={`I have read the notice below: send it to ${whom}.`} />
      <button type="submit" className={d.sent ? "btn-secondary" : "btn-primary"} disabled={busy}>
        {d.sent ? "Send again to anyone not told yet" : "Send the notices"}
      </button>
    </Form>
  );
}

/** A draft as text to copy: read-only, labelled. */
function Draft({ id, label, text, lang, rows }: { id: string; label: string; text: string; lang?: string; rows: number }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea id={id} readOnly lang={lang} rows={rows} className="field-input text-sm" value={text} />
    </div>
  );
}

export default function Breach({ loaderData: d, actionData }: Route.ComponentProps) {
  const record: [string, string][] = [
    ["Became aware", d.discovered],
    ["Happened", d.occurred ?? "Not known yet"],
    ["What happened", d.description],
    ["Personal data involved", d.items],
    ["Likely consequences", d.consequences],
    ["What we are doing", d.mitigation],
    ["What a borrower can do", d.borrowerSteps],
    ["Who it affected", d.everyone ? `Every borrower (${count(d.affected)} accounts now)` : `${count(d.affected)} listed borrowers`],
    ["Recorded", d.recorded],
  ];
  return (
    <div className="space-y-8">
      <p>
        <Link className="link" to="/admin/privacy/breaches">
          All breaches
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">
        Breach <span className="font-mono">{d.reference}</span>
      </h1>
      <section aria-labelledby="board-title" className="card space-y-3">
        <h2 id="board-title" className="text-xl">
          Report to the Data Protection Board
        </h2>
        {d.reported ? (
          <p data-testid="board-reported">
            Made {d.reported.at} by {d.reported.by ?? "a former colleague"}, the Board's reference {d.reported.ref} ({d.due.text}).
          </p>
        ) : (
          <p className={d.due.late ? "font-semibold text-danger-600" : ""}>
            The detailed report is due by {d.due.at}, {BREACH_REPORT_HOURS} hours after we became aware: {d.due.text}.
          </p>
        )}
        {d.mayManage && !d.reported ? <ReportForm actionData={actionData} /> : null}
      </section>
      <section aria-labelledby="notices-title" className="card space-y-3">
        <h2 id="notices-title" className="text-xl">
          Notices to the affected borrowers
        </h2>
        <p data-testid="notices-state">
          {d.sent
            ? `Sent from ${d.sent.at} by ${d.sent.by ?? "a former colleague"}: ${count(d.told)} of ${count(d.affected)} borrowers told so far.`
            : "Not sent yet. Each affected borrower gets the notice below in the app and by SMS, and by e-mail where they gave an address."}
        </p>
        {d.mayManage ? <NotifyForm d={d} actionData={actionData} /> : null}
      </section>
      <section aria-labelledby="record-title" className="space-y-3">
        <h2 id="record-title" className="text-xl">
          The record
        </h2>
        <dl className="card grid gap-x-6 gap-y-2 sm:grid-cols-[12rem_1fr]">
          {record.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-semibold">{term}</dt>
              <dd className="whitespace-pre-line break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="drafts-title" className="space-y-4">
        <h2 id="drafts-title" className="text-xl">
          Drafts
        </h2>
        <p className="max-w-3xl text-slate-700">
          Copy the report into the Board's portal; write the lines that begin “{TO_COMPLETE.slice(1)}” first, since the register does not
          hold them. The notice is what each affected borrower receives.
        </p>
        <Draft id="draft-board" label="Report to the Data Protection Board of India" text={d.drafts.board} rows={30} />
        <div className="grid gap-4 lg:grid-cols-2">
          <Draft
            id="draft-notice-en"
            label="Notice to each affected borrower (English)"
            text={`${d.drafts.notice.en.title}\n\n${d.drafts.notice.en.body}\n\nSMS: ${d.drafts.notice.en.sms}`}
            rows={18}
          />
          <Draft
            id="draft-notice-hi"
            label="Notice to each affected borrower (Hindi)"
            lang="hi"
            text={`${d.drafts.notice.hi.title}\n\n${d.drafts.notice.hi.body}\n\nSMS: ${d.drafts.notice.hi.sms}`}
            rows={18}
          />
        </div>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Breach ${params.reference ?? ""}`);
