import { type FieldMetadata, getFormProps } from "@conform-to/react";
import { getInputProps } from "../../components/input-props.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { ErrorText, FormErrors, SelectField, TextAreaField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import {
  DUNNING_CHANNEL_LABEL,
  DUNNING_CHANNELS,
  DUNNING_FORM_ROWS,
  DUNNING_TONE_LABEL,
  type DunningStep,
  dunningFormSchema,
  dunningFormValues,
  dunningRowFields,
  dunningStepsEqual,
  dunningStepText,
} from "../../domain/collections.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { currentDunningRules, dunningHistory, saveDunningRules } from "../../server/collections/dunning.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/collections-rules";

/**
 * The dunning rules (docs/product.md "Collections"), data with a history: the version in force, each
 * step in words, and every version with who saved it, when and why. The collections desk reads it;
 * an administrator saves a new version (checked by the same schema in the browser and here).
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("collections.manage")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [current, history] = await Promise.all([currentDunningRules(services), dunningHistory(services)]);
  const inForce = history.find((h) => h.version === current.version);
  return {
    version: current.version,
    steps: current.steps,
    savedBy: inForce?.by ?? null,
    savedAt: inForce?.savedAt.toISOString() ?? null,
    reason: inForce?.reason ?? null,
    history: history.map((h) => ({ ...h, savedAt: h.savedAt.toISOString() })),
    mayManage: can(user.role, "settings.manage"),
    formValues: dunningFormValues(current.steps),
    rows: Math.min(current.steps.length + 2, DUNNING_FORM_ROWS),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "settings.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: dunningFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const current = await currentDunningRules(services);
  if (String(form.get("version")) !== String(current.version))
    return data(
      submission.reply({
        formErrors: [
          `Version ${current.version} was saved while you were editing. Reload the page to see it, then make your change again.`,
        ],
      }),
      { status: 409 },
    );
  if (dunningStepsEqual(current.steps, submission.value.steps))
    return data(submission.reply({ formErrors: ["These steps are the rules in force already: change a step to save a new version."] }), {
      status: 409,
    });
  const saved = await saveDunningRules(services, { staff, client, ...submission.value, basedOn: current.version });
  if (!saved.ok)
    return data(
      submission.reply({
        formErrors: [`Version ${saved.current} was saved while you were editing. Reload the page to see it, then make your change again.`],
      }),
      { status: 409 },
    );
  return redirectWithToast(services.config, request, "/admin/collections/rules", {
    type: "success",
    title: `Saved as version ${saved.version}. The daily pass sends reminders by it from its next run.`,
  });
}

type Data = Route.ComponentProps["loaderData"];

function Steps({ steps, testId }: { steps: readonly DunningStep[]; testId?: string }) {
  return (
    <ul className="list-disc space-y-1 pl-5" data-testid={testId}>
      {steps.map((s) => (
        <li key={s.dpd}>{dunningStepText(s)}</li>
      ))}
    </ul>
  );
}

function Check({ field, label }: { field: FieldMetadata<string | boolean | undefined>; label: string }) {
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  return (
    <label className="flex items-center gap-2">
      <input key={key} className="size-4 shrink-0" {...props} />
      {label}
    </label>
  );
}

function RulesForm({ data: d, lastResult }: { data: Data; lastResult: Route.ComponentProps["actionData"] }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "dunning-rules",
    schema: dunningFormSchema,
    lastResult,
    defaultValue: d.formValues,
  });
  return (
    <section className="card space-y-4" aria-labelledby="save-title">
      <h2 id="save-title" className="text-xl">
        Save a new version
      </h2>
      <p className="text-slate-700">
        A step is sent when a case reaches its day past due (1 to 720), once. It sends a message, makes a call task for the case's staff
        member, or both. A row without a day is no step: clear the day, or tick Remove, to drop a step.
      </p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="version" value={d.version} />
        <FormErrors id={form.errorId} errors={formErrors} />
        {Array.from({ length: d.rows }, (_, i) => {
          const f = dunningRowFields(i);
          const day = fields[f.dpd]!;
          const { key: dayKey, ...dayProps } = getInputProps(day, { type: "text" });
          return (
            <fieldset key={i} className="rounded-xl border border-slate-200 p-3 sm:p-4" data-testid={`dunning-row-${i}`}>
              <legend className="px-1 font-semibold">{i < d.steps.length ? `Step ${i + 1}` : `Step ${i + 1} (new)`}</legend>
              <div className="grid grid-cols-2 items-start gap-x-4 gap-y-3 sm:grid-cols-[8rem_11rem_minmax(0,1fr)] sm:gap-x-6 xl:grid-cols-[8rem_11rem_max-content_max-content]">
                <div>
                  <label htmlFor={day.id} className="field-label">
                    Day past due
                  </label>
                  <input key={dayKey} className="field-input" inputMode="numeric" {...dayProps} />
                </div>
                <SelectField field={fields[f.tone]!} label="Tone" options={DUNNING_TONE_LABEL} />
                <fieldset className="col-span-2 sm:col-span-1">
                  <legend className="field-label">Channels</legend>
                  <div className="flex flex-wrap gap-x-5 gap-y-2 pt-1">
                    {DUNNING_CHANNELS.map((c) => (
                      <Check key={c} field={fields[f[c]]!} label={DUNNING_CHANNEL_LABEL[c]} />
                    ))}
                  </div>
                </fieldset>
                <div className="col-span-2 flex flex-wrap gap-x-6 gap-y-2 sm:col-span-3 xl:col-span-1 xl:flex-col xl:pt-6">
                  <Check field={fields[f.call]!} label="Call task" />
                  {i < d.steps.length ? <Check field={fields[f.remove]!} label="Remove this step" /> : null}
                </div>
              </div>
              {/* The day's error across the row: a duplicate day or a step that does nothing is the row's problem. */}
              <div id={day.errorId} className="field-error" aria-live="polite">
                <ErrorText errors={day.errors} />
              </div>
            </fieldset>
          );
        })}
        <TextAreaField field={fields.reason!} label="Why it changes" hint="Kept with the version, with your name." rows={2} />
        <button className="btn-primary" disabled={busy}>
          Save a new version
        </button>
      </Form>
    </section>
  );
}

export default function DunningRules({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p>
          <Link className="link text-sm" to="/admin/collections">
            Back to collections
          </Link>
        </p>
        <h1 className="text-2xl sm:text-3xl">Dunning rules</h1>
      </div>
      <p className="text-slate-700">
        Each night the daily pass sends every open case the latest step its days past due have reached, once: one reminder a day at most,
        between 08:00 and 19:00 India time, and none while reminders are paused, a debit is in progress or a promise is open. Every version
        is kept; the latest is in force.
      </p>
      <section className="card space-y-3" aria-labelledby="in-force-title">
        <h2 id="in-force-title" className="text-xl">
          {d.version ? `In force: version ${d.version}` : "In force: the installation's first rules"}
        </h2>
        {d.savedAt ? (
          <p className="text-slate-700">
            {d.savedBy
              ? `Saved by ${d.savedBy}, ${formatDateTimeIST(new Date(d.savedAt))}.`
              : `Set up with the installation, ${formatDateTimeIST(new Date(d.savedAt))}.`}{" "}
            Why: {d.reason}
          </p>
        ) : null}
        <Steps steps={d.steps} testId="dunning-in-force" />
      </section>
      {d.mayManage ? (
        <RulesForm key={d.version} data={d} lastResult={actionData} />
      ) : (
        <p className="card text-slate-700">Only an administrator can save a new version of the rules.</p>
      )}
      <section className="card space-y-3" aria-labelledby="history-title">
        <h2 id="history-title" className="text-xl">
          History
        </h2>
        {d.history.length ? (
          <StaffTable
            label="Versions of the dunning rules, table"
            minWidth="min-w-[44rem]"
            framed={false}
            columns={["Version", "Steps", "Why", "Saved by, when"]}
          >
            {d.history.map((h) => (
              <tr key={h.version} data-testid="dunning-version" className="align-top">
                <td className="px-3 py-2 whitespace-nowrap">
                  {h.version === d.version ? `Version ${h.version}, in force` : `Version ${h.version}`}
                </td>
                <td className="px-3 py-2">
                  <Steps steps={h.steps} />
                </td>
                <td className="px-3 py-2">{h.reason}</td>
                <td className="px-3 py-2">
                  {h.by ?? "The installation"}
                  <span className="block text-slate-600">{formatDateTimeIST(new Date(h.savedAt))}</span>
                </td>
              </tr>
            ))}
          </StaffTable>
        ) : (
          <p>No version has been saved yet: the installation's first rules apply.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Dunning rules");
