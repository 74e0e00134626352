import { randomUUID } from "node:crypto";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { data, Form, Link } from "react-router";
import { Field, FormErrors } from "../../../components/field.tsx";
import { TicketHeading } from "../../../components/ticket-status.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { servicesContext } from "../../../context.ts";
import {
  borrowerTicketSchema,
  canReopen,
  escalation,
  escalationText,
  helpPath,
  OMBUDSMAN_URL,
  OPEN_STATUSES,
  parseTicketReference,
  REOPEN_WITHIN_DAYS,
  reopenUntil,
  RESOLVE_WITHIN_DAYS,
  ticketSummary,
} from "../../../domain/help.ts";
import { loanName } from "../../../domain/loans/application.ts";
import { loanPath } from "../../../domain/loans/servicing.ts";
import { formatDateIST, formatDateTimeIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { borrowerActs } from "../../../server/help/borrower-acts.server.ts";
import { borrowerTicket } from "../../../server/help/read.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/ticket";

/** One of the borrower's tickets: what was said, the answer due date, reply / reopen / not accepted, and escalation. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const reference = parseTicketReference(params.reference);
  const found = reference ? await borrowerTicket(services, { userId: user.id, reference }) : null;
  if (!found) notFoundFullPath(request);
  const { ticket: t, messages } = found;
  const now = services.now();
  const escalate = escalation(t, now);
  return {
    ticket: {
      ...ticketSummary(t, now),
      resolvedAt: t.resolvedAt?.toISOString() ?? null,
      notAccepted: Boolean(t.notAcceptedAt),
      open: OPEN_STATUSES.includes(t.status),
      reopenUntil: canReopen(t, now) && t.resolvedAt ? reopenUntil(t.resolvedAt).toISOString() : null,
      loan:
        t.applicationRef && t.loanKind
          ? {
              name: loanName({ kind: t.loanKind, loanNumber: t.loanNumber, reference: t.applicationRef }),
              href: t.loanNumber ? loanPath(t.loanKind, t.loanNumber) : null,
            }
          : null,
    },
    escalation: escalate
      ? {
          why: escalate,
          text: escalationText({
            reference: t.reference,
            subject: t.subject,
            createdAt: t.createdAt,
            resolvedAt: t.resolvedAt,
            lenderName: services.config.public.lender.name,
            formatDate: formatDateIST,
          }),
        }
      : null,
    messages: messages.map((m) => ({ id: m.id, author: m.author, body: m.body, at: m.createdAt.toISOString() })),
    once: randomUUID(),
  };
}

const REFUSED = {
  not_found: "This ticket is not yours or does not exist.",
  closed: "This ticket is closed. Raise a new ticket and quote its reference.",
  resolved: "This ticket is resolved. Reopen it if the problem is not solved.",
  not_resolved: "This ticket is still open: reply to it instead.",
  too_late: `A ticket can be reopened within ${REOPEN_WITHIN_DAYS} days of its answer. Raise a new ticket and quote this reference.`,
} as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const reference = parseTicketReference(params.reference);
  if (!reference) notFoundFullPath(request);
  const submission = parseWithZod(await readForm(request), { schema: borrowerTicketSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const done = await borrowerActs(services, { userId: user.id, reference, act: submission.value });
  if (!done.ok && done.reason === "not_found") notFoundFullPath(request);
  if (!done.ok) return data(submission.reply({ formErrors: [REFUSED[done.reason]] }), { status: 409 });
  return redirectWithToast(services.config, request, helpPath(reference), { type: "success", title: done.message });
}

type Data = Route.ComponentProps["loaderData"];
type LastResult = Route.ComponentProps["actionData"];

function MessageForm({
  intent,
  once,
  lastResult,
  label,
  button,
}: {
  intent: "reply" | "reopen";
  once: string;
  lastResult: LastResult;
  label: string;
  button: string;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: intent,
    schema: borrowerTicketSchema,
    lastResult: lastResult?.initialValue?.intent === intent ? lastResult : undefined,
  });
  const message = (fields as unknown as Record<"message", typeof fields.intent>).message;
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="once" value={once} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <Field id={message.id} label={label} errors={message.errors} errorId={message.errorId}>
        <textarea className="field-input min-h-28" rows={4} maxLength={2000} {...getTextareaProps(message)} />
      </Field>
      <button type="submit" className="btn-primary" disabled={busy}>
        {button}
      </button>
    </Form>
  );
}

function Escalation({ escalation: e, reference }: { escalation: NonNullable<Data["escalation"]>; reference: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="escalate-title" className="card border-amber-400 bg-amber-50" data-testid="escalation">
      <h2 id="escalate-title" className="text-xl">
        Take it to the RBI Integrated Ombudsman
      </h2>
      <p className="mt-2">
        {e.why === "late"
          ? `We did not resolve this complaint within ${RESOLVE_WITHIN_DAYS} days.`
          : "You told us you do not accept our answer."}{" "}
        You may file a complaint with the Reserve Bank of India's Integrated Ombudsman, free of charge, at{" "}
        <a className="link" href={OMBUDSMAN_URL} rel="noreferrer">
          cms.rbi.org.in
        </a>{" "}
        (or call 14448). Quote our reference {reference} and these details:
      </p>
      <label htmlFor="escalation-text" className="field-label mt-3">
        Details to copy into the complaint
      </label>
      <textarea id="escalation-text" readOnly className="field-input min-h-32 bg-white font-mono text-sm" rows={5} value={e.text} />
      <button
        type="button"
        className="btn-secondary mt-3"
        onClick={() => {
          void navigator.clipboard?.writeText(e.text).then(() => setCopied(true));
        }}
      >
        {copied ? "Copied" : "Copy the details"}
      </button>
      <span className="sr-only" aria-live="polite">
        {copied ? "The details are copied." : ""}
      </span>
    </section>
  );
}

export default function Ticket({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket: t, messages, escalation: e, once } = loaderData;
  const notAccepted = useSchemaForm({
    id: "not_accepted",
    schema: borrowerTicketSchema,
    lastResult: actionData?.initialValue?.intent === "not_accepted" ? actionData : undefined,
  });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <p>
        <Link className="link" to="/User/Help">
          ← Help
        </Link>
      </p>
      <TicketHeading ticket={t} />
      <dl className="card grid gap-x-6 gap-y-2 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-600">Raised on</dt>
          <dd>{formatDateIST(new Date(t.createdAt))}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t.resolvedAt ? "Answered on" : "Answer due by"}</dt>
          <dd>{formatDateIST(new Date(t.resolvedAt ?? t.dueBy))}</dd>
        </div>
        {t.loan ? (
          <div>
            <dt className="text-sm text-slate-600">About</dt>
            <dd>
              {t.loan.href ? (
                <Link className="link" to={t.loan.href}>
                  {t.loan.name}
                </Link>
              ) : (
                t.loan.name
              )}
            </dd>
          </div>
        ) : null}
      </dl>

      {e ? <Escalation escalation={e} reference={t.reference} /> : null}

      <section aria-labelledby="messages-title" className="space-y-3">
        <h2 id="messages-title" className="text-xl">
          Messages
        </h2>
        <ol className="space-y-3">
          {messages.map((m) =>
            m.author === "system" ? (
              <li key={m.id} className="text-sm text-slate-600 italic">
                {m.body} <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at))}</time>
              </li>
            ) : (
              <li
                key={m.id}
                className={`rounded-xl border p-4 ${m.author === "staff" ? "border-brand-200 bg-brand-50 sm:mr-8" : "border-slate-200 bg-white sm:ml-8"}`}
                data-testid={`message-${m.author}`}
              >
                <p className="flex flex-wrap justify-between gap-2 text-sm text-slate-600">
                  <span className="font-semibold text-slate-800">{m.author === "staff" ? "Support team" : "You"}</span>
                  <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at))}</time>
                </p>
                <p className="mt-1 break-words whitespace-pre-line text-slate-900">{m.body}</p>
              </li>
            ),
          )}
        </ol>
      </section>

      {t.open ? (
        <section aria-labelledby="reply-title" className="card">
          <h2 id="reply-title" className="sr-only">
            Reply
          </h2>
          <MessageForm intent="reply" once={once} lastResult={actionData} label="Your reply" button="Send reply" />
        </section>
      ) : (
        <section aria-labelledby="after-title" className="card space-y-4">
          <h2 id="after-title" className="text-xl">
            {t.status === "resolved" ? "Is it solved?" : "This ticket is closed"}
          </h2>
          {t.reopenUntil ? (
            <MessageForm
              intent="reopen"
              once={once}
              lastResult={actionData}
              label={`Not solved? Tell us why and the ticket opens again (until ${formatDateIST(new Date(t.reopenUntil))}).`}
              button="Reopen the ticket"
            />
          ) : (
            <p>
              To take it further,{" "}
              <Link className="link" to="/User/Help/new">
                raise a new ticket
              </Link>{" "}
              and quote {t.reference}.
            </p>
          )}
          {!t.notAccepted ? (
            <Form method="post" {...getFormProps(notAccepted.form)} className="space-y-2 border-t border-slate-200 pt-4">
              <FormErrors id={notAccepted.form.errorId} errors={notAccepted.formErrors} />
              <input type="hidden" name="intent" value="not_accepted" />
              <p className="text-slate-700">If you do not accept our answer, tell us: we show you how to go to the RBI Ombudsman.</p>
              <button type="submit" className="btn-secondary" disabled={notAccepted.busy}>
                I do not accept this answer
              </button>
            </Form>
          ) : null}
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Ticket ${loaderData.ticket.reference}` : "Ticket");
