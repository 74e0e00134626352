import { randomUUID } from "node:crypto";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { Field, FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { LenderNote } from "../../../components/lender-trust.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { servicesContext } from "../../../context.ts";
import {
  helpPath,
  raiseTicketSchema,
  RESOLVE_WITHIN_DAYS,
  TICKET_CATEGORIES,
  TICKET_KINDS,
  type TicketKind,
} from "../../../domain/help.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { raiseTicket, ticketLoanChoices } from "../../../server/help/tickets.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/new";

const KIND_HINT: Record<TicketKind, string> = {
  complaint: "Something went wrong and you want it put right. Complaints are answered within 30 days, or you may go to the RBI Ombudsman.",
  request: "A question, or something you need from us (a document, a change to your details).",
};

/** The form to raise a ticket; `?loan=` (one of the borrower's references) chooses the loan it concerns. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const loans = await ticketLoanChoices(context.get(servicesContext), user.id);
  const asked = new URL(request.url).searchParams.get("loan")?.toLowerCase() ?? "";
  return { loans, loan: loans.some((l) => l.value === asked) ? asked : "", once: randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const submission = parseWithZod(await readForm(request), { schema: raiseTicketSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const raised = await raiseTicket(services, { userId: user.id, input: submission.value });
  if (!raised.ok) return data(submission.reply({ fieldErrors: { loan: ["Choose one of your loans from the list."] } }), { status: 400 });
  return redirectWithToast(services.config, request, helpPath(raised.reference), {
    type: "success",
    title: `Ticket ${raised.reference} raised`,
    description: "We have sent the reference to your mobile by SMS.",
  });
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { loans, loan, once } = loaderData;
  const { form, fields, formErrors, busy } = useSchemaForm({
    schema: raiseTicketSchema,
    lastResult: actionData,
    defaultValue: { loan },
  });
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <p>
        <Link className="link" to="/User/Help">
          ← Help
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">Raise a ticket</h1>
      <p className="text-slate-700">
        Tell us what happened or what you need. You get a reference at once (also by SMS), and an answer within {RESOLVE_WITHIN_DAYS} days,
        usually within two working days. Never write your OTP, PIN or full card or account number here.
      </p>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="once" value={once} />
        <FormErrors id={form.errorId} errors={formErrors} />
        <fieldset>
          <legend className="field-label">Is it a complaint or a question?</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {(Object.keys(TICKET_KINDS) as TicketKind[]).map((kind) => (
              <label
                key={kind}
                className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  name={fields.kind.name}
                  value={kind}
                  key={`${kind}-${fields.kind.key}`}
                  defaultChecked={fields.kind.initialValue === kind}
                  required
                  aria-describedby={fields.kind.errors?.length ? fields.kind.errorId : undefined}
                  className="row-span-2 mt-1 size-4"
                />
                <span className="font-semibold">{TICKET_KINDS[kind]}</span>
                <span className="text-sm text-slate-700">{KIND_HINT[kind]}</span>
              </label>
            ))}
          </div>
          <div id={fields.kind.errorId} className="field-error" aria-live="polite">
            {fields.kind.errors?.join(" ")}
          </div>
        </fieldset>
        <SelectField field={fields.category} label="What is it about?" options={TICKET_CATEGORIES} />
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
        <Field id={fields.message.id} label="Your message" errors={fields.message.errors} errorId={fields.message.errorId}>
          <textarea className="field-input min-h-36" rows={6} maxLength={2000} {...getTextareaProps(fields.message)} />
        </Field>
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? "Sending…" : "Raise the ticket"}
        </button>
      </Form>
      <LenderNote />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Raise a ticket");
