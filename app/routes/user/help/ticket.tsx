import { randomUUID } from "node:crypto";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { data, Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
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
  TICKET_STATUS_LABEL,
  TICKET_STATUSES,
  ticketSummary,
} from "../../../domain/help.ts";
import { shortReference } from "../../../domain/loans/application.ts";
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
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { msg } from "../../../i18n/form-message.ts";
import { externalLink, linkTo } from "../../../lib/rich-text.tsx";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { languageOf, pageMessages, translatorFor } from "../../../web/i18n.server.ts";

const ombudsmanLink = externalLink(OMBUDSMAN_URL, "link");
const newTicketLink = linkTo("/User/Help/new", "link");

/** A status by the words the thread's line was stored with (TICKET_STATUS_LABEL, English). */
const statusNamed = (label: string) => TICKET_STATUSES.find((s) => TICKET_STATUS_LABEL[s] === label);

/**
 * A line the thread shows for what happened to the ticket, stored in English: said again as a
 * message key (in the page's language) when it is one of ours; otherwise as it is.
 */
function systemLine(body: string): string {
  if (body === "You said you do not accept this answer.") return msg("help.ticket.system.notAccepted");
  const change = /^Status changed from (.+) to (.+)\.$/.exec(body);
  const from = change ? statusNamed(change[1] ?? "") : undefined;
  const to = change ? statusNamed(change[2] ?? "") : undefined;
  if (from && to) return msg("help.ticket.system.statusChanged", { from, to });
  return body;
}

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
  const language = languageOf(context);
  const say = translatorFor(context, "help");
  return {
    messages: pageMessages(context, ["help"]),
    meta: { title: say("ticketMeta.title", { reference: t.reference }) },
    ticket: {
      ...ticketSummary(t, now),
      kindCode: t.kind,
      categoryCode: t.category,
      resolvedAt: t.resolvedAt?.toISOString() ?? null,
      notAccepted: Boolean(t.notAcceptedAt),
      open: OPEN_STATUSES.includes(t.status),
      reopenUntil: canReopen(t, now) && t.resolvedAt ? reopenUntil(t.resolvedAt).toISOString() : null,
      loan:
        t.applicationRef && t.loanKind
          ? {
              kind: t.loanKind,
              number: t.loanNumber ?? "none",
              reference: shortReference(t.applicationRef),
              href: t.loanNumber ? loanPath(t.loanKind, t.loanNumber) : null,
            }
          : null,
    },
    escalation: escalate
      ? {
          why: escalate,
          text: escalationText(
            {
              reference: t.reference,
              subject: t.subject,
              createdAt: t.createdAt,
              resolvedAt: t.resolvedAt,
              lenderName: services.config.public.lender.name,
              formatDate: (d) => formatDateIST(d, language),
            },
            (key, values) => say(`escalation.lines.${key}`, values as never),
          ),
        }
      : null,
    thread: messages.map((m) => ({
      id: m.id,
      author: m.author,
      body: m.author === "system" ? systemLine(m.body) : m.body,
      at: m.createdAt.toISOString(),
    })),
    once: randomUUID(),
  };
}

/** Why an act on the ticket is refused (a ticket not theirs is not found, before these). */
const REFUSED = {
  not_found: msg("help.ticket.refused.not_found"),
  closed: msg("help.ticket.refused.closed"),
  resolved: msg("help.ticket.refused.resolved"),
  not_resolved: msg("help.ticket.refused.not_resolved"),
  too_late: msg("help.ticket.refused.too_late", { days: REOPEN_WITHIN_DAYS }),
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
  const intent = submission.value.intent;
  return redirectWithToast(services.config, request, helpPath(reference), {
    type: "success",
    title:
      intent === "reopen"
        ? msg("help.ticket.done.reopen", { reference })
        : intent === "reply"
          ? msg("help.ticket.done.reply")
          : msg("help.ticket.done.notAccepted"),
  });
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
  const t = useTranslations("help.escalation");
  return (
    <section aria-labelledby="escalate-title" className="card border-amber-400 bg-amber-50" data-testid="escalation">
      <h2 id="escalate-title" className="text-xl">
        {t("heading")}
      </h2>
      <p className="mt-2">
        {e.why === "late"
          ? t.rich("late", { days: String(RESOLVE_WITHIN_DAYS), reference, link: ombudsmanLink })
          : t.rich("notAccepted", { reference, link: ombudsmanLink })}
      </p>
      <label htmlFor="escalation-text" className="field-label mt-3">
        {t("detailsLabel")}
      </label>
      <textarea id="escalation-text" readOnly className="field-input min-h-32 bg-white font-mono text-sm" rows={5} value={e.text} />
      <button
        type="button"
        className="btn-secondary mt-3"
        onClick={() => {
          void navigator.clipboard?.writeText(e.text).then(() => setCopied(true));
        }}
      >
        {copied ? t("copied") : t("copy")}
      </button>
      <span className="sr-only" aria-live="polite">
        {copied ? t("copiedStatus") : ""}
      </span>
    </section>
  );
}

export default function Ticket({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket: t, thread, escalation: e, once } = loaderData;
  const say = useTranslations("help");
  const language = useLocale() as Language;
  const text = useMessageText();
  // Reopening refused when its form is no longer shown (too late): why, where the form was.
  const reopenRefused = !t.reopenUntil && actionData?.initialValue?.intent === "reopen" ? actionData.error?.[""] : undefined;
  const notAccepted = useSchemaForm({
    id: "not_accepted",
    schema: borrowerTicketSchema,
    lastResult: actionData?.initialValue?.intent === "not_accepted" ? actionData : undefined,
  });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <p>
        <Link className="link" to="/User/Help">
          {say("back")}
        </Link>
      </p>
      <TicketHeading ticket={{ ...t, kind: say(`kinds.${t.kindCode}`), category: say(`categories.${t.categoryCode}`) }} />
      <dl className="card grid gap-x-6 gap-y-2 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-600">{say("ticket.raisedOn")}</dt>
          <dd>{formatDateIST(new Date(t.createdAt), language)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t.resolvedAt ? say("ticket.answeredOn") : say("ticket.answerDueBy")}</dt>
          <dd>{formatDateIST(new Date(t.resolvedAt ?? t.dueBy), language)}</dd>
        </div>
        {t.loan ? (
          <div>
            <dt className="text-sm text-slate-600">{say("ticket.about")}</dt>
            <dd>
              {t.loan.href ? (
                <Link className="link" to={t.loan.href}>
                  {say("loanName", t.loan)}
                </Link>
              ) : (
                say("loanName", t.loan)
              )}
            </dd>
          </div>
        ) : null}
      </dl>

      {e ? <Escalation escalation={e} reference={t.reference} /> : null}

      <section aria-labelledby="messages-title" className="space-y-3">
        <h2 id="messages-title" className="text-xl">
          {say("ticket.messages")}
        </h2>
        <ol className="space-y-3">
          {thread.map((m) =>
            m.author === "system" ? (
              <li key={m.id} className="text-sm text-slate-600 italic">
                {text(m.body)} <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at), language)}</time>
              </li>
            ) : (
              <li
                key={m.id}
                className={`rounded-xl border p-4 ${m.author === "staff" ? "border-brand-200 bg-brand-50 sm:mr-8" : "border-slate-200 bg-white sm:ml-8"}`}
                data-testid={`message-${m.author}`}
              >
                <p className="flex flex-wrap justify-between gap-2 text-sm text-slate-600">
                  <span className="font-semibold text-slate-800">{m.author === "staff" ? say("ticket.support") : say("ticket.you")}</span>
                  <time dateTime={m.at}>{formatDateTimeIST(new Date(m.at), language)}</time>
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
            {say("ticket.reply")}
          </h2>
          <MessageForm
            intent="reply"
            once={once}
            lastResult={actionData}
            label={say("ticket.replyLabel")}
            button={say("ticket.sendReply")}
          />
        </section>
      ) : (
        <section aria-labelledby="after-title" className="card space-y-4">
          <h2 id="after-title" className="text-xl">
            {t.status === "resolved" ? say("ticket.solved") : say("ticket.closed")}
          </h2>
          {t.reopenUntil ? (
            <MessageForm
              intent="reopen"
              once={once}
              lastResult={actionData}
              label={say("ticket.reopenLabel", { date: formatDateIST(new Date(t.reopenUntil), language) })}
              button={say("ticket.reopen")}
            />
          ) : (
            <>
              <FormErrors errors={reopenRefused ?? undefined} />
              <p>{say.rich("ticket.furtherNew", { reference: t.reference, link: newTicketLink })}</p>
            </>
          )}
          {!t.notAccepted ? (
            <Form method="post" {...getFormProps(notAccepted.form)} className="space-y-2 border-t border-slate-200 pt-4">
              <FormErrors id={notAccepted.form.errorId} errors={notAccepted.formErrors} />
              <input type="hidden" name="intent" value="not_accepted" />
              <p className="text-slate-700">{say("ticket.notAcceptIntro")}</p>
              <button type="submit" className="btn-secondary" disabled={notAccepted.busy}>
                {say("ticket.notAccept")}
              </button>
            </Form>
          ) : null}
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
