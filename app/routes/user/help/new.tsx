import { randomUUID } from "node:crypto";
import type { ReactNode } from "react";
import { type FieldMetadata, getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { ErrorText, Field, FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { LenderNote } from "../../../components/lender-trust.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { servicesContext } from "../../../context.ts";
import {
  addToTicketSchema,
  answerWithinDays,
  helpPath,
  raiseTicketSchema,
  RESOLVE_WITHIN_DAYS,
  TICKET_CATEGORIES,
  TICKET_KINDS,
  type TicketCategory,
  type TicketKind,
  type TicketLimit,
} from "../../../domain/help.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { borrowerActs } from "../../../server/help/borrower-acts.server.ts";
import { type OpenTicket, raiseTicket, ticketLimitNow } from "../../../server/help/raise.server.ts";
import { ticketLoanChoices } from "../../../server/help/read.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/new";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { msg } from "../../../i18n/form-message.ts";
import { languageOf, pageMessages, translatorFor } from "../../../web/i18n.server.ts";

/**
 * What the page says at a limit of new tickets (`when`: the time a new one may be raised, in the
 * page's language), and the open tickets a message may be added to.
 */
function limitView(limit: TicketLimit | null, open: readonly OpenTicket[], language: Language) {
  if (!limit) return null;
  return {
    kind: limit.kind,
    limit: String(limit.limit),
    when: limit.kind === "day" ? formatDateTimeIST(limit.resetAt, language) : "",
    open: open.map((t) => ({ reference: t.reference, subject: t.subject, status: t.status })),
  };
}

/**
 * The form to raise a ticket; `?loan=` (one of the borrower's references) chooses the loan it
 * concerns. At a limit of new tickets (docs/product.md "Help and grievances") the form adds the
 * message to one of their open tickets instead, and says why next to it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const [loans, now] = await Promise.all([ticketLoanChoices(services, user.id), ticketLimitNow(services, user.id)]);
  const asked = new URL(request.url).searchParams.get("loan")?.toLowerCase() ?? "";
  return {
    messages: pageMessages(context, ["help"]),
    meta: { title: translatorFor(context, "help")("newMeta.title") },
    loans,
    loan: loans.some((l) => l.value === asked) ? asked : "",
    once: randomUUID(),
    limit: limitView(now.limit, now.open, languageOf(context)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  if (form.get("intent") === "add") {
    const submission = parseWithZod(form, { schema: addToTicketSchema });
    if (submission.status !== "success") {
      const now = await ticketLimitNow(services, user.id);
      return data(
        { form: "add" as const, result: submission.reply(), limit: limitView(now.limit, now.open, languageOf(context)), typed: "" },
        { status: 400 },
      );
    }
    const { ticket, once, message } = submission.value;
    const added = await borrowerActs(services, { userId: user.id, reference: ticket, act: { intent: "reply", once, message } });
    if (!added.ok) {
      // Not theirs (or not there) reads the same as no longer open: nothing is said about another's ticket.
      const now = await ticketLimitNow(services, user.id);
      return data(
        {
          form: "add" as const,
          result: submission.reply({ fieldErrors: { ticket: [msg("help.errors.notOpen")] } }),
          limit: limitView(now.limit, now.open, languageOf(context)),
          typed: "",
        },
        { status: 400 },
      );
    }
    return redirectWithToast(services.config, request, helpPath(ticket), {
      type: "success",
      title: msg("help.new.added", { reference: ticket }),
      description: msg("help.new.addedDescription"),
    });
  }
  const submission = parseWithZod(form, { schema: raiseTicketSchema });
  if (submission.status !== "success")
    return data({ form: "raise" as const, result: submission.reply(), limit: null, typed: "" }, { status: 400 });
  const raised = await raiseTicket(services, { userId: user.id, input: submission.value });
  if (!raised.ok && raised.reason === "at_limit") {
    // Nothing typed is lost: the title and the message go into the message to add.
    const { subject, message } = submission.value;
    return data(
      {
        form: "raise" as const,
        result: submission.reply(),
        limit: limitView(raised.limit, raised.open, languageOf(context)),
        typed: `${subject}\n\n${message}`,
      },
      { status: 409 },
    );
  }
  if (!raised.ok)
    return data(
      {
        form: "raise" as const,
        result: submission.reply({ fieldErrors: { loan: [msg("help.errors.loanNotYours")] } }),
        limit: null,
        typed: "",
      },
      { status: 400 },
    );
  return redirectWithToast(services.config, request, helpPath(raised.reference), {
    type: "success",
    title: msg("help.new.raised", { reference: raised.reference }),
    description: msg("help.new.raisedDescription"),
  });
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const limit = actionData?.limit ?? loaderData.limit;
  const t = useTranslations("help");
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <p>
        <Link className="link" to="/User/Help">
          {t("back")}
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">{t("raise")}</h1>
      {limit ? (
        <AddToOpenTicket
          limit={limit}
          once={loaderData.once}
          typed={actionData?.typed ?? ""}
          lastResult={actionData?.form === "add" ? actionData.result : undefined}
        />
      ) : (
        <NewTicketForm loaderData={loaderData} lastResult={actionData?.form === "raise" ? actionData.result : undefined} />
      )}
      <LenderNote />
    </div>
  );
}

/** At a limit of new tickets: why, in plain words, and the form that adds the message to an open ticket. */
function AddToOpenTicket({
  limit,
  once,
  typed,
  lastResult,
}: {
  limit: NonNullable<ReturnType<typeof limitView>>;
  once: string;
  typed: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    schema: addToTicketSchema,
    lastResult,
    defaultValue: { ticket: limit.open[0]?.reference ?? "", message: typed },
  });
  const t = useTranslations("help");
  return (
    <Form method="post" className="card space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="once" value={once} />
      <p className="rounded-lg border border-amber-300 bg-amber-50 p-3" role="status" id="ticket-limit" data-testid="ticket-limit">
        {limit.kind === "open" ? t("new.limitOpen", { limit: limit.limit }) : t("new.limitDay", { limit: limit.limit, when: limit.when })}
      </p>
      <FormErrors id={form.errorId} errors={formErrors} />
      <RadioCards
        field={fields.ticket}
        legend={t("new.addTo")}
        describedBy="ticket-limit"
        options={limit.open.map((ticket) => ({
          value: ticket.reference,
          title: (
            <>
              <span className="font-mono">{ticket.reference}</span>: {ticket.subject}
            </>
          ),
          hint: t(`status.${ticket.status}`),
        }))}
      />
      <MessageAndSend field={fields.message} busy={busy} send={t("new.addSend")} />
    </Form>
  );
}

function NewTicketForm({
  loaderData,
  lastResult,
}: {
  loaderData: Route.ComponentProps["loaderData"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { loans, loan, once } = loaderData;
  const { form, fields, formErrors, busy } = useSchemaForm({
    schema: raiseTicketSchema,
    lastResult,
    defaultValue: { loan },
  });
  const t = useTranslations("help");
  const categories = Object.fromEntries(
    (Object.keys(TICKET_CATEGORIES) as TicketCategory[]).map((c) => [c, t(`categories.${c}`)]),
  ) as Record<TicketCategory, string>;
  return (
    <>
      <p className="text-slate-700">{t("new.intro", { days: String(RESOLVE_WITHIN_DAYS) })}</p>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="once" value={once} />
        <FormErrors id={form.errorId} errors={formErrors} />
        <RadioCards
          field={fields.kind}
          legend={t("new.kind")}
          columns
          options={(Object.keys(TICKET_KINDS) as TicketKind[]).map((kind) => ({
            value: kind,
            title: t(`kinds.${kind}`),
            hint: t(`kindHints.${kind}`),
          }))}
        />
        <div>
          <SelectField field={fields.category} label={t("new.category")} options={categories} />
          <p className="text-sm text-slate-700">{t("new.creditInformation", { days: String(answerWithinDays("credit_information")) })}</p>
        </div>
        {loans.length ? (
          <Field id={fields.loan.id} label={t("new.loan")} errors={fields.loan.errors} errorId={fields.loan.errorId}>
            <select
              key={fields.loan.key}
              id={fields.loan.id}
              name={fields.loan.name}
              className="field-input"
              defaultValue={typeof fields.loan.initialValue === "string" ? fields.loan.initialValue : ""}
              aria-invalid={fields.loan.errors?.length ? true : undefined}
              aria-describedby={fields.loan.errors?.length ? fields.loan.errorId : undefined}
            >
              <option value="">{t("new.noLoan")}</option>
              {loans.map((l) => (
                <option key={l.value} value={l.value}>
                  {t("loanName", { kind: l.kind, number: l.number, reference: l.reference })}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <TextField field={fields.subject} label={t("new.title")} hint={t("new.titleHint")} maxLength={120} />
        <MessageAndSend field={fields.message} busy={busy} send={t("new.send")} />
      </Form>
    </>
  );
}

/** The message (what the borrower writes) and the button that sends the form. */
function MessageAndSend({ field, busy, send }: { field: FieldMetadata<string>; busy: boolean; send: string }) {
  const t = useTranslations("help.new");
  return (
    <>
      <Field id={field.id} label={t("message")} errors={field.errors} errorId={field.errorId}>
        <textarea className="field-input min-h-36" rows={6} maxLength={2000} {...getTextareaProps(field)} />
      </Field>
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
        {busy ? t("sending") : send}
      </button>
    </>
  );
}

/** A required choice of one, as cards with a title and a hint: its errors under them, read with each card. */
function RadioCards({
  field,
  legend,
  options,
  describedBy,
  columns = false,
}: {
  field: { name: string; key: string | undefined; initialValue?: unknown; errors?: string[]; errorId: string };
  legend: string;
  options: { value: string; title: ReactNode; hint: ReactNode }[];
  describedBy?: string;
  columns?: boolean;
}) {
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="field-label">{legend}</legend>
      <div className={columns ? "mt-2 grid gap-3 sm:grid-cols-2" : "mt-2 grid gap-3"}>
        {options.map((o) => (
          <label
            key={o.value}
            className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
          >
            <input
              type="radio"
              name={field.name}
              value={o.value}
              key={`${o.value}-${field.key}`}
              defaultChecked={field.initialValue === o.value}
              required
              aria-describedby={field.errors?.length ? field.errorId : undefined}
              className="row-span-2 mt-1 size-4"
            />
            <span className="font-semibold">{o.title}</span>
            <span className="text-sm text-slate-700">{o.hint}</span>
          </label>
        ))}
      </div>
      <div id={field.errorId} className="field-error" aria-live="polite">
        <ErrorText errors={field.errors} />
      </div>
    </fieldset>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
