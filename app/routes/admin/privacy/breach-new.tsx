import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { FormErrors, TextAreaField, TextField } from "../../../components/field.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../../context.ts";
import { istDateTimeInput } from "../../../domain/india-date.ts";
import { BREACH_SCOPE_LABEL, BREACH_SCOPES, breachFormSchema, unknownMobilesMessage } from "../../../domain/privacy/breach.ts";
import { DATA_ITEMS } from "../../../domain/privacy/notice.ts";
import type { StaffRole } from "../../../domain/roles.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { recordBreach } from "../../../server/privacy/breaches.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/breach-new";

/** Recording a personal data breach (DPDP Rules, 2025, rule 7): what the Board's report and the borrowers' notice are drafted from. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("privacy.manage")];

export function loader({ context }: Route.LoaderArgs) {
  return { now: context.get(servicesContext).now().toISOString() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: breachFormSchema(services.now()) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const done = await recordBreach(services, {
    form: submission.value,
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
  });
  if (!done.ok) return data(submission.reply({ fieldErrors: { mobiles: [unknownMobilesMessage(done.mobiles)] } }), { status: 400 });
  return redirectWithToast(services.config, request, `/admin/privacy/breaches/${done.reference}`, {
    type: "success",
    title: `Recorded as ${done.reference}. Send the borrowers' notices and the Board's report from here.`,
  });
}

/** A group of checkboxes or radio buttons with its legend, and its errors next to it. */
function Choices({
  name,
  legend,
  errors,
  errorId,
  type,
  options,
  chosen,
}: {
  name: string;
  legend: string;
  errors: string[] | undefined;
  errorId: string;
  type: "checkbox" | "radio";
  options: readonly { value: string; label: string }[];
  chosen: unknown;
}) {
  const isChosen = (value: string) => (Array.isArray(chosen) ? chosen.includes(value) : chosen === value);
  return (
    <fieldset aria-describedby={errorId}>
      <legend className="field-label">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <div key={o.value} className="flex items-start gap-2">
            <input
              id={`${name}-${o.value}`}
              type={type}
              name={name}
              value={o.value}
              defaultChecked={isChosen(o.value)}
              className="mt-1 size-4 shrink-0"
            />
            <label htmlFor={`${name}-${o.value}`}>{o.label}</label>
          </div>
        ))}
      </div>
      <div id={errorId} className="field-error" aria-live="polite">
        {errors?.length ? errors.join(" ") : null}
      </div>
    </fieldset>
  );
}

export default function NewBreach({ loaderData: d, actionData }: Route.ComponentProps) {
  // Checked in the browser against the later of the page's time and the browser's: a time typed now is not "in the future".
  const { form, fields, formErrors, busy } = useSchemaForm<ReturnType<typeof breachFormSchema>>({
    id: "breach",
    schema: () => breachFormSchema(new Date(Math.max(Date.parse(d.now), Date.now()))),
    lastResult: actionData,
    shouldValidate: "onSubmit",
  });
  return (
    <div className="max-w-3xl space-y-6">
      <p>
        <Link className="link" to="/admin/privacy/breaches">
          All breaches
        </Link>
      </p>
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Record a personal data breach</h1>
        <p className="text-slate-700">
          Record it as soon as you know of it: the report to the Data Protection Board and the notice to each affected borrower are drafted
          from what you write here, and the notice quotes your words to the borrowers, so write plainly. Times are India time.
        </p>
      </div>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField
          field={fields.discoveredAt}
          type="datetime-local"
          label="When we became aware of it"
          hint="The Board's detailed report is due 72 hours from this time."
          max={istDateTimeInput(new Date(d.now))}
        />
        <TextField
          field={fields.occurredAt}
          type="datetime-local"
          label="When it happened (if known)"
          hint="Leave it empty if it is not known yet."
          max={istDateTimeInput(new Date(d.now))}
        />
        <TextAreaField
          field={fields.description}
          label="What happened"
          hint="Its nature, where it happened (our systems or a service provider's), how and how it was found."
          rows={5}
        />
        <Choices
          name={fields.dataItems.name}
          legend="Personal data involved"
          errors={fields.dataItems.errors}
          errorId={fields.dataItems.errorId}
          type="checkbox"
          options={DATA_ITEMS.map((item) => ({ value: item.id, label: item.en.what }))}
          chosen={fields.dataItems.initialValue}
        />
        <TextAreaField
          field={fields.consequences}
          label="Its likely consequences for the borrowers"
          hint="For example: calls or messages pretending to be us, attempts to take loans in their name."
        />
        <TextAreaField field={fields.mitigation} label="What we have done and are doing to limit the harm" />
        <TextAreaField
          field={fields.borrowerSteps}
          label="What a borrower can do to protect themselves"
          hint="For example: never share a one-time code, check their credit report."
        />
        <Choices
          name={fields.scope.name}
          legend="Who it affected"
          errors={fields.scope.errors}
          errorId={fields.scope.errorId}
          type="radio"
          options={BREACH_SCOPES.map((value) => ({ value, label: BREACH_SCOPE_LABEL[value] }))}
          chosen={fields.scope.initialValue}
        />
        <TextAreaField
          field={fields.mobiles}
          label="Mobile numbers of the affected borrowers"
          hint="Only when you list them: one a line, or separated by commas. Each must be a borrower's."
          rows={4}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          Record the breach
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Record a personal data breach");
