import { randomUUID } from "node:crypto";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { ErrorText, Field, FormErrors } from "../../components/field.tsx";
import { TicketHeading } from "../../components/ticket-status.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import {
  answerLateness,
  answerWithinDays,
  assignSchema,
  CREDIT_INFORMATION_PAISE_PER_DAY_LATE,
  escalation,
  latenessText,
  parseTicketReference,
  RESOLVE_WITHIN_DAYS,
  staffNoteSchema,
  staffReplySchema,
  statusSchema,
  TICKET_STATUS_STAFF_LABEL,
  TICKET_STATUSES,
  ticketSummary,
} from "../../domain/help.ts";
import { loanName } from "../../domain/loans/application.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { formatDateIST, formatDateTimeIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { staffTicket, ticketStaff } from "../../server/help/read.server.ts";
import { staffActs, type StaffActResult } from "../../server/help/staff-acts.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/ticket";

/** One ticket for support: the thread with internal notes, reply, note, assignment and status; each audited. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("tickets.manage")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const reference = parseTicketReference(params.reference);
  const [found, staff] = await Promise.all([reference ? staffTicket(services, reference) : null, ticketStaff(services)]);
  if (!found) notFoundFullPath(request);
  const { ticket: t } = found;
  const now = services.now();
  const lateness = answerLateness(t, now);
  return {
    me: user.id,
    staff,
    // One key a form: the reply and the note are sent apart.
    once: { reply: randomUUID(), note: randomUUID() },
    ticket: {
      ...ticketSummary(t, now),
      source: t.source,
      assignedTo: t.assignedTo,
      escalation: escalation(t, now),
      answerWithinDays: answerWithinDays(t.category),
      lateness: latenessText(lateness),
      compensationPaise: lateness.compensationPaise,
      reopened: t.reopenedCount,
      borrowerId: t.userId,
    },
    person: {
      name: found.name ?? t.contactName,
      mobile: found.mobile ?? t.contactMobile,
      email: found.email ?? t.contactEmail,
    },
    loan:
      found.applicationRef && found.kindOfLoan
        ? {
            name: loanName({ kind: found.kindOfLoan, loanNumber: found.loanNumber, reference: found.applicationRef }),
            href: found.loanNumber ? `/admin/loans/${found.loanNumber}` : `/admin/applications/${found.applicationRef}`,
          }
        : null,
    messages: found.messages.map((m) => ({
      id: m.id,
      author: m.author,
      internal: m.internal,
      body: m.body,
      at: m.createdAt.toISOString(),
      emailedAt: m.emailedAt?.toISOString() ?? null,
      staffName: m.staffName,
    })),
  };
}

const SCHEMAS = { reply: staffReplySchema, note: staffNoteSchema, assign: assignSchema, status: statusSchema } as const;
type Intent = keyof typeof SCHEMAS;

const REFUSED: Record<Exclude<StaffActResult, { ok: true }>["reason"], string> = {
  not_found: "This ticket does not exist.",
  closed: "The ticket is closed: reopen it (change its status) before replying.",
  bad_staff: "Choose a support colleague or an administrator who can take tickets.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const reference = parseTicketReference(params.reference);
  if (!reference) notFoundFullPath(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  if (!Object.hasOwn(SCHEMAS, intent)) throw data({ message: "That is not something this page does." }, { status: 400 });
  const submission = parseWithZod(form, { schema: SCHEMAS[intent as Intent] });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const done = await staffActs(services, {
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
    reference,
    act: submission.value,
  });
  if (!done.ok && done.reason === "not_found") notFoundFullPath(request);
  if (!done.ok) return data({ intent, result: submission.reply({ formErrors: [REFUSED[done.reason]] }) }, { status: 409 });
  return redirectWithToast(services.config, request, `/admin/tickets/${reference}`, { type: "success", title: done.message });
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];
const resultFor = (actionData: ActionData, intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);

/** A form of the ticket page that writes a message (a reply, a note): its key, its box, what else it asks, its button. */
function MessageForm({
  intent,
  once,
  form,
  message,
  formErrors,
  label,
  rows,
  button,
  busy,
  children,
}: {
  intent: "reply" | "note";
  once: string;
  form: { props: ReturnType<typeof getFormProps>; errorId: string };
  message: Parameters<typeof getTextareaProps>[0] & { errors?: string[]; errorId: string; key?: string };
  formErrors: string[] | undefined;
  label: string;
  rows: number;
  button: ReactNode;
  busy: boolean;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className="space-y-3" {...form.props}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="once" value={once} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <Field id={message.id} label={label} errors={message.errors} errorId={message.errorId}>
        <textarea className="field-input min-h-20" rows={rows} maxLength={2000} {...getTextareaProps(message)} key={message.key} />
      </Field>
      {children}
      <button type="submit" className={intent === "reply" ? "btn-primary" : "btn-secondary"} disabled={busy}>
        {button}
      </button>
    </Form>
  );
}

function ReplyForm({ once, lastResult }: { once: string; lastResult: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "reply",
    schema: staffReplySchema,
    lastResult: resultFor(lastResult, "reply"),
    shouldValidate: "onSubmit",
  });
  return (
    <MessageForm
      intent="reply"
      once={once}
      form={{ props: getFormProps(form), errorId: form.errorId }}
      message={fields.message}
      formErrors={formErrors}
      label="Reply to the borrower"
      rows={5}
      button="Send the reply"
      busy={busy}
    >
      <fieldset>
        <legend className="field-label">Then the ticket is</legend>
        <div className="flex flex-wrap gap-3">
          {(["in_progress", "waiting", "resolved"] as const).map((s) => (
            <label key={s} className="flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 has-checked:border-brand-600">
              <input type="radio" name="then" value={s} className="size-4" />
              {TICKET_STATUS_STAFF_LABEL[s]}
            </label>
          ))}
        </div>
        <div id={fields.then.errorId} className="field-error" aria-live="polite">
          <ErrorText errors={fields.then.errors} />
        </div>
      </fieldset>
    </MessageForm>
  );
}

function NoteForm({ once, lastResult }: { once: string; lastResult: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "note",
    schema: staffNoteSchema,
    lastResult: resultFor(lastResult, "note"),
    shouldValidate: "onSubmit",
  });
  return (
    <MessageForm
      intent="note"
      once={once}
      form={{ props: getFormProps(form), errorId: form.errorId }}
      message={fields.message}
      formErrors={formErrors}
      label="Internal note (the borrower never sees it)"
      rows={3}
      button="Save the note"
      busy={busy}
    />
  );
}

function Thread({ messages }: { messages: Data["messages"] }) {
  return (
    <ol className="space-y-3">
      {messages.map((m) =>
        m.author === "system" ? (
          <li key={m.id} className="text-sm text-slate-600 italic">
            {m.body} {m.staffName ? `(${m.staffName}) ` : ""}
            <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at))}</time>
          </li>
        ) : (
          <li
            key={m.id}
            className={`rounded-xl border p-4 ${m.internal ? "border-amber-300 bg-amber-50" : m.author === "staff" ? "border-brand-200 bg-brand-50" : "border-slate-200 bg-white"}`}
            data-testid={m.internal ? "internal-note" : `message-${m.author}`}
          >
            <p className="flex flex-wrap justify-between gap-2 text-sm text-slate-700">
              <span className="font-semibold text-slate-900">
                {m.author === "borrower" ? "Borrower" : (m.staffName ?? "Staff")}
                {m.internal ? " · internal note" : ""}
              </span>
              <span>
                <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at))}</time>
                {m.emailedAt ? " · e-mailed" : ""}
              </span>
            </p>
            <p className="mt-1 break-words whitespace-pre-line">{m.body}</p>
          </li>
        ),
      )}
    </ol>
  );
}

export default function StaffTicket({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = d.ticket;
  const errorsOf = (intent: Intent) => {
    const r = resultFor(actionData, intent);
    return r?.error?.[""] ?? undefined;
  };
  return (
    <div className="space-y-6">
      <p>
        <Link className="link" to="/admin/tickets">
          ← Tickets
        </Link>
      </p>
      <TicketHeading ticket={t} staff>
        {t.source === "contact" ? " · from the contact form (answered by e-mail)" : ""}
        {t.reopened ? ` · reopened ${t.reopened} ${t.reopened === 1 ? "time" : "times"}` : ""}
      </TicketHeading>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="space-y-6">
          <section aria-labelledby="thread-title" className="space-y-3">
            <h2 id="thread-title" className="text-xl">
              Messages
            </h2>
            <Thread messages={d.messages} />
          </section>
          {t.status !== "closed" ? (
            <section aria-labelledby="reply-title" className="card space-y-3">
              <h2 id="reply-title" className="text-xl">
                Reply
              </h2>
              <ReplyForm once={d.once.reply} lastResult={actionData} />
            </section>
          ) : null}
          <section aria-labelledby="note-title" className="card space-y-3">
            <h2 id="note-title" className="text-xl">
              Note
            </h2>
            <NoteForm once={d.once.note} lastResult={actionData} />
          </section>
        </div>
        <aside className="space-y-4" aria-label="Ticket details">
          <dl className="card space-y-2 text-sm">
            <div>
              <dt className="text-slate-600">From</dt>
              <dd>
                {t.borrowerId ? (
                  <Link className="link" to={`/admin/borrowers/${t.borrowerId}`}>
                    {staffBorrowerName({ fullName: d.person.name, mobile: d.person.mobile })}
                  </Link>
                ) : (
                  staffBorrowerName({ fullName: d.person.name, mobile: d.person.mobile })
                )}
                {d.person.mobile ? <span className="block">+91 {d.person.mobile}</span> : null}
                {d.person.email ? <span className="block break-all">{d.person.email}</span> : null}
              </dd>
            </div>
            {d.loan ? (
              <div>
                <dt className="text-slate-600">About</dt>
                <dd>
                  <Link className="link" to={d.loan.href}>
                    {d.loan.name}
                  </Link>
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="text-slate-600">Raised</dt>
              <dd>
                {formatDateTimeIST(new Date(t.createdAt))} ({t.ageDays} {t.ageDays === 1 ? "day" : "days"} ago)
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Answer due by</dt>
              <dd className={t.late ? "font-semibold text-danger-600" : ""}>
                {`${formatDateIST(new Date(t.dueBy))} (${t.answerWithinDays} days)`}
                {t.lateness ? (
                  <span className="block" data-testid="ticket-lateness">
                    {t.lateness}
                  </span>
                ) : null}
              </dd>
            </div>
            {t.compensationPaise > 0 ? (
              <div>
                <dt className="text-slate-600">Compensation owed to the borrower</dt>
                <dd className="font-semibold text-danger-600" data-testid="ticket-compensation">
                  {formatRupees(t.compensationPaise)}
                  <span className="block font-normal text-slate-700">
                    {t.late
                      ? `${formatRupees(CREDIT_INFORMATION_PAISE_PER_DAY_LATE)} for each day the answer to a dispute of credit information is late: it grows each day until the ticket is resolved.`
                      : `${formatRupees(CREDIT_INFORMATION_PAISE_PER_DAY_LATE)} for each day the answer to a dispute of credit information was late.`}
                  </span>
                </dd>
              </div>
            ) : null}
            {t.escalation ? (
              <div>
                <dt className="text-slate-600">Ombudsman</dt>
                <dd className="font-semibold text-danger-600">
                  {t.escalation === "late"
                    ? `Not resolved in ${RESOLVE_WITHIN_DAYS} days: the borrower may escalate.`
                    : "The borrower does not accept the answer."}
                </dd>
              </div>
            ) : null}
          </dl>
          <Form method="post" className="card space-y-3">
            <input type="hidden" name="intent" value="assign" />
            <FormErrors errors={errorsOf("assign")} />
            <label htmlFor="assign-staff" className="field-label">
              Assigned to
            </label>
            <select id="assign-staff" name="staff" className="field-input" defaultValue={t.assignedTo ?? d.me}>
              {d.staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                  {s.id === d.me ? " (you)" : ""}
                </option>
              ))}
            </select>
            <button type="submit" className="btn-secondary">
              {t.assignedTo ? "Assign" : "Assign (nobody has it)"}
            </button>
          </Form>
          <Form method="post" className="card space-y-3">
            <input type="hidden" name="intent" value="status" />
            <FormErrors errors={errorsOf("status")} />
            <label htmlFor="ticket-status" className="field-label">
              Status
            </label>
            <select id="ticket-status" name="status" className="field-input" defaultValue={t.status}>
              {TICKET_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {TICKET_STATUS_STAFF_LABEL[s]}
                </option>
              ))}
            </select>
            <button type="submit" className="btn-secondary">
              Change the status
            </button>
          </Form>
        </aside>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Ticket ${loaderData.ticket.reference}` : "Ticket");
