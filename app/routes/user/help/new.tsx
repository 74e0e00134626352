import { randomUUID } from "node:crypto";
import type { ReactNode } from "react";
import { type FieldMetadata, getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { ErrorText, Field, FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { LenderNote } from "../../../components/lender-trust.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { servicesContext } from "../../../context.ts";
import {
  addToTicketSchema,
  CREDIT_INFORMATION_NOTE,
  helpPath,
  raiseTicketSchema,
  RESOLVE_WITHIN_DAYS,
  TICKET_CATEGORIES,
  TICKET_KINDS,
  TICKET_LIMIT_TEXT,
  TICKET_STATUS_LABEL,
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

const KIND_HINT: Record<TicketKind, string> = {
  complaint: "Something went wrong and you want it put right. Complaints are answered within 30 days, or you may go to the RBI Ombudsman.",
  request: "A question, or something you need from us (a document, a change to your details).",
};

/** What the page says at a limit of new tickets, and the open tickets a message may be added to. */
function limitView(limit: TicketLimit | null, open: readonly OpenTicket[]) {
  if (!limit) return null;
  const why =
    limit.kind === "open" ? TICKET_LIMIT_TEXT.open(limit.limit) : TICKET_LIMIT_TEXT.day(limit.limit, formatDateTimeIST(limit.resetAt));
  return { why, open: open.map((t) => ({ reference: t.reference, subject: t.subject, status: TICKET_STATUS_LABEL[t.status] })) };
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
  return { loans, loan: loans.some((l) => l.value === asked) ? asked : "", once: randomUUID(), limit: limitView(now.limit, now.open) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  if (form.get("intent") === "add") {
    const submission = parseWithZod(form, { schema: addToTicketSchema });
    if (submission.status !== "success") {
      const now = await ticketLimitNow(services, user.id);
      return data({ form: "add" as const, result: submission.reply(), limit: limitView(now.limit, now.open), typed: "" }, { status: 400 });
    }
    const { ticket, once, message } = submission.value;
    const added = await borrowerActs(services, { userId: user.id, reference: ticket, act: { intent: "reply", once, message } });
    if (!added.ok) {
      // Not theirs (or not there) reads the same as no longer open: nothing is said about another's ticket.
      const now = await ticketLimitNow(services, user.id);
      return data(
        {
          form: "add" as const,
          result: submission.reply({ fieldErrors: { ticket: [TICKET_LIMIT_TEXT.notOpen] } }),
          limit: limitView(now.limit, now.open),
          typed: "",
        },
        { status: 400 },
      );
    }
    return redirectWithToast(services.config, request, helpPath(ticket), {
      type: "success",
      title: TICKET_LIMIT_TEXT.added(ticket),
      description: TICKET_LIMIT_TEXT.addedDescription,
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
        limit: limitView(raised.limit, raised.open),
        typed: `${subject}\n\n${message}`,
      },
      { status: 409 },
    );
  }
  if (!raised.ok)
    return data(
      {
        form: "raise" as const,
        result: submission.reply({ fieldErrors: { loan: ["Choose one of your loans from the list."] } }),
        limit: null,
        typed: "",
      },
      { status: 400 },
    );
  return redirectWithToast(services.config, request, helpPath(raised.reference), {
    type: "success",
    title: `Ticket ${raised.reference} raised`,
    description: "We have sent the reference to your mobile by SMS.",
  });
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const limit = actionData?.limit ?? loaderData.limit;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <p>
        <Link className="link" to="/User/Help">
          ← Help
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">Raise a ticket</h1>
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
  return (
    <Form method="post" className="card space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="once" value={once} />
      <p className="rounded-lg border border-amber-300 bg-amber-50 p-3" role="status" id="ticket-limit" data-testid="ticket-limit">
        {limit.why}
      </p>
      <FormErrors id={form.errorId} errors={formErrors} />
      <RadioCards
        field={fields.ticket}
        legend="Add it to"
        describedBy="ticket-limit"
        options={limit.open.map((t) => ({
          value: t.reference,
          title: (
            <>
              <span className="font-mono">{t.reference}</span>: {t.subject}
            </>
          ),
          hint: t.status,
        }))}
      />
      <MessageAndSend field={fields.message} busy={busy} send="Add it to the ticket" />
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
  return (
    <>
      <p className="text-slate-700">
        Tell us what happened or what you need. You get a reference at once (also by SMS), and an answer within {RESOLVE_WITHIN_DAYS} days,
        usually within two working days. Never write your OTP, PIN or full card or account number here.
      </p>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="once" value={once} />
        <FormErrors id={form.errorId} errors={formErrors} />
        <RadioCards
          field={fields.kind}
          legend="Is it a complaint or a question?"
          columns
          options={(Object.keys(TICKET_KINDS) as TicketKind[]).map((kind) => ({
            value: kind,
            title: TICKET_KINDS[kind],
            hint: KIND_HINT[kind],
          }))}
        />
        <div>
          <SelectField field={fields.category} label="What is it about?" options={TICKET_CATEGORIES} />
          <p className="text-sm text-slate-700">{CREDIT_INFORMATION_NOTE}</p>
        </div>
        {loans.length ? (
          <Field id={fields.loan.id} label="Which loan? (optional)" errors={fields.loan.errors} errorId={fields.loan.errorId}>
            <select
              key={fields.loan.key}
              id={fields.loan.id}
              name={fields.loan.name}
              className="field-input"
              defaultValue={typeof fields.loan.initialValue === "string" ? fields.loan.initialValue : ""}
              aria-invalid={fields.loan.errors?.length ? true : undefined}
              aria-describedby={fields.loan.errors?.length ? fields.loan.errorId : undefined}
            >
              <option value="">Not about one loan</option>
              {loans.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <TextField field={fields.subject} label="Title" hint="A few words, for example “Payment not shown”." maxLength={120} />
        <MessageAndSend field={fields.message} busy={busy} send="Raise the ticket" />
      </Form>
    </>
  );
}

/** The message (what the borrower writes) and the button that sends the form. */
function MessageAndSend({ field, busy, send }: { field: FieldMetadata<string>; busy: boolean; send: string }) {
  return (
    <>
      <Field id={field.id} label="Your message" errors={field.errors} errorId={field.errorId}>
        <textarea className="field-input min-h-36" rows={6} maxLength={2000} {...getTextareaProps(field)} />
      </Field>
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
        {busy ? "Sending…" : send}
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

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Raise a ticket");
