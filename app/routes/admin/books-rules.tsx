import { getFormProps } from "@conform-to/react";
import { getInputProps } from "../../components/input-props.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { data, Form } from "react-router";
import { FormErrors, SelectField, TextAreaField, TextField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { ACCOUNT_TYPE, type BooksRuleKind, FRAMEWORK_LABEL } from "../../domain/books/chart.ts";
import {
  ACCOUNT_TYPE_LABEL,
  chartChanges,
  chartFormSchema,
  describeRule,
  frameworkFormSchema,
  percentOfBps,
  PROVISIONING_RATES,
  provisioningFormSchema,
  PURPOSE_MEANING,
  RULE_FORM_SCHEMAS,
  sameRule,
} from "../../domain/books/reports.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { ruleHistory, rulesInForce, saveRule } from "../../server/books/rules.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { BooksHeader, CELL } from "./books/parts.tsx";
import type { Route } from "./+types/books-rules";

/**
 * The books' rules (docs/product.md "The lender's books"): the framework and the lender's GST state,
 * the chart of accounts and the provisioning rates in force, each with its history (who saved each
 * version, when and why). Finance and administrators save a new version, checked by the rule's own
 * schema in the browser and here, refused when another was saved meanwhile; audited.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

const KINDS = ["framework", "chart", "provisioning"] as const satisfies readonly BooksRuleKind[];
const KIND_NAME: Record<BooksRuleKind, string> = {
  framework: "the framework",
  chart: "the chart of accounts",
  provisioning: "the provisioning rates",
};

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [rules, ...histories] = await Promise.all([rulesInForce(services), ...KINDS.map((k) => ruleHistory(services, k))]);
  const history = Object.fromEntries(
    KINDS.map((kind, i) => {
      const versions = histories[i] ?? [];
      return [
        kind,
        versions.map((h, j) => ({
          version: h.version,
          by: h.by,
          savedAt: formatDateTimeIST(h.savedAt),
          reason: h.reason,
          summary: describeRule(kind, h.value),
          changes: kind === "chart" && versions[j + 1] ? chartChanges(versions[j + 1]?.value, h.value) : [],
        })),
      ];
    }),
  ) as Record<BooksRuleKind, { version: number; by: string | null; savedAt: string; reason: string; summary: string; changes: string[] }[]>;
  return { mayManage: can(user.role, "books.manage"), rules, history };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "books.manage");
  const form = await readForm(request);
  const kind = KINDS.find((k) => k === form.get("intent"));
  if (!kind) throw data({ message: "This form is not one the page sends. Reload the page and try again." }, { status: 400 });
  const submission = parseWithZod(form, { schema: RULE_FORM_SCHEMAS[kind] });
  if (submission.status !== "success") return data({ kind, result: submission.reply() }, { status: 400 });
  const { reason, ...value } = submission.value;
  const rules = await rulesInForce(services);
  const current = rules[kind];
  const inForce = kind === "chart" ? rules.chart.accounts : current;
  const stale = (version: number) =>
    data(
      {
        kind,
        result: submission.reply({
          formErrors: [`Version ${version} was saved while you were editing. Reload the page to see it, then make your change again.`],
        }),
      },
      { status: 409 },
    );
  if (String(form.get("version")) !== String(current.version)) return stale(current.version);
  const newValue = kind === "chart" ? (value as { accounts: unknown }).accounts : value;
  if (sameRule(kind, inForce, newValue))
    return data(
      {
        kind,
        result: submission.reply({ formErrors: [`This is ${KIND_NAME[kind]} in force already: change something to save a new version.`] }),
      },
      { status: 409 },
    );
  const saved = await saveRule(services, {
    kind,
    value: newValue,
    reason,
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
    basedOn: current.version,
  });
  if (!saved.ok)
    return "stale" in saved
      ? stale(saved.stale)
      : data({ kind, result: submission.reply({ formErrors: saved.issues.map((i) => i.message) }) }, { status: 400 });
  return redirectWithToast(services.config, request, "/admin/books/rules", {
    type: "success",
    title: `Saved as version ${saved.version} of ${KIND_NAME[kind]}.`,
    description: "It applies to what is journalled from now on; a loan keeps the framework it was first booked under.",
  });
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];
const resultFor = (kind: BooksRuleKind, actionData: ActionData) => (actionData?.kind === kind ? actionData.result : undefined);

function Hidden({ kind, version }: { kind: BooksRuleKind; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={kind} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

function SaveButton({ busy, kind }: { busy: boolean; kind: BooksRuleKind }) {
  return (
    <button className="btn-primary" disabled={busy} data-testid={`save-${kind}`}>
      Save a new version
    </button>
  );
}

function FrameworkForm({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "rules-framework",
    schema: frameworkFormSchema,
    lastResult: resultFor("framework", actionData),
    defaultValue: { framework: d.rules.framework.framework, lenderState: d.rules.framework.lenderState, reason: "" },
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <Hidden kind="framework" version={d.rules.framework.version} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <SelectField field={fields.framework!} label="Framework" options={FRAMEWORK_LABEL} />
      <TextField
        field={fields.lenderState!}
        label="State of the lender's GST registration"
        hint="A borrower in this state pays CGST and SGST on the fee; elsewhere, IGST."
        autoComplete="off"
      />
      <TextAreaField field={fields.reason!} label="Why it changes" hint="Kept with the version, with your name." rows={2} />
      <SaveButton busy={busy} kind="framework" />
    </Form>
  );
}

function ChartForm({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "rules-chart",
    schema: chartFormSchema,
    lastResult: resultFor("chart", actionData),
    defaultValue: { accounts: d.rules.chart.accounts, reason: "" },
  });
  const accounts = fields.accounts!;
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <Hidden kind="chart" version={d.rules.chart.version} />
      <FormErrors id={form.errorId} errors={[...(formErrors ?? []), ...(accounts.errors ?? [])]} />
      <ul className="space-y-3">
        {accounts.getFieldList().map((row, i) => {
          const f = row.getFieldset();
          const purpose = d.rules.chart.accounts[i]?.purpose;
          const { key: purposeKey, ...purposeProps } = getInputProps(f.purpose, { type: "hidden" });
          return (
            <li key={row.key} className="rounded-xl border border-slate-200 p-3" data-testid="chart-row">
              <p className="mb-2 text-sm text-slate-700">
                {purpose ? `${PURPOSE_MEANING[purpose]} · ${ACCOUNT_TYPE_LABEL[ACCOUNT_TYPE[purpose].type]}` : ""}
              </p>
              <input key={purposeKey} {...purposeProps} />
              <div className="grid gap-3 sm:grid-cols-[9rem_minmax(0,1fr)]">
                <TextField field={f.code} label="Code" autoComplete="off" />
                <TextField field={f.name} label="Name" autoComplete="off" />
              </div>
            </li>
          );
        })}
      </ul>
      <TextAreaField field={fields.reason!} label="Why it changes" hint="Kept with the version, with your name." rows={2} />
      <SaveButton busy={busy} kind="chart" />
    </Form>
  );
}

function ProvisioningForm({ d, actionData }: { d: Data; actionData: ActionData }) {
  const p = d.rules.provisioning;
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "rules-provisioning",
    schema: provisioningFormSchema,
    lastResult: resultFor("provisioning", actionData),
    defaultValue: { ...Object.fromEntries(PROVISIONING_RATES.map((r) => [r.key, String(p[r.key])])), reason: "" },
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <Hidden kind="provisioning" version={p.version} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <div className="grid gap-4 sm:grid-cols-2">
        {PROVISIONING_RATES.map((r) => (
          <TextField
            key={r.key}
            field={fields[r.key]!}
            label={`${r.label}, basis points`}
            hint={`In force: ${p[r.key]} (${percentOfBps(p[r.key])}). 100 basis points are 1%.`}
            inputMode="numeric"
            autoComplete="off"
          />
        ))}
      </div>
      <TextAreaField field={fields.reason!} label="Why it changes" hint="Kept with the version, with your name." rows={2} />
      <SaveButton busy={busy} kind="provisioning" />
    </Form>
  );
}

function History({ kind, d }: { kind: BooksRuleKind; d: Data }) {
  const versions = d.history[kind];
  return (
    <details className="space-y-2">
      <summary className="cursor-pointer font-medium">
        History ({versions.length === 1 ? "1 version" : `${versions.length} versions`})
      </summary>
      <StaffTable
        label={`Versions of ${KIND_NAME[kind]}, table`}
        minWidth="min-w-[40rem]"
        framed={false}
        columns={["Version", "What it says", "Why", "Saved by, when"]}
      >
        {versions.map((h) => (
          <tr key={h.version} className="align-top" data-testid={`${kind}-version`}>
            <td className={`${CELL} whitespace-nowrap`}>{h.version === versions[0]?.version ? `${h.version}, in force` : h.version}</td>
            <td className={CELL}>
              {h.summary}
              {h.changes.length ? (
                <ul className="mt-1 list-disc pl-5 text-slate-700">
                  {h.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              ) : null}
            </td>
            <td className={CELL}>{h.reason}</td>
            <td className={CELL}>
              {h.by ?? "The installation"}
              <span className="block text-slate-600">{h.savedAt}</span>
            </td>
          </tr>
        ))}
      </StaffTable>
    </details>
  );
}

function RuleSection({
  kind,
  title,
  d,
  inForce,
  children,
}: {
  kind: BooksRuleKind;
  title: string;
  d: Data;
  inForce: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card space-y-4" aria-labelledby={`${kind}-title`} data-testid={`rules-${kind}`}>
      <h2 id={`${kind}-title`} className="text-xl">
        {title}: version {d.rules[kind].version} in force
      </h2>
      {inForce}
      <History kind={kind} d={d} />
      {d.mayManage ? (
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <h3 className="text-lg font-semibold">Save a new version</h3>
          {children}
        </div>
      ) : null}
    </section>
  );
}

export default function BooksRules({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-5">
      <BooksHeader title="The books' rules">
        <p>
          The accounting framework, the chart of accounts and the provisioning rates are data with a history: the latest version of each is
          in force, and none is ever changed.
          {d.mayManage ? "" : " Only finance and administrators save a new version."}
        </p>
      </BooksHeader>
      <RuleSection
        kind="framework"
        title="Framework"
        d={d}
        inForce={<p data-testid="framework-in-force">{describeRule("framework", d.rules.framework)}</p>}
      >
        <FrameworkForm key={d.rules.framework.version} d={d} actionData={actionData} />
      </RuleSection>
      <RuleSection
        kind="chart"
        title="Chart of accounts"
        d={d}
        inForce={
          <StaffTable label="Chart of accounts in force, table" minWidth="min-w-[32rem]" framed={false} columns={["Code", "Name", "Type"]}>
            {d.rules.chart.accounts.map((a) => (
              <tr key={a.purpose} data-testid="chart-account">
                <td className={`${CELL} font-mono`}>{a.code}</td>
                <td className={CELL}>{a.name}</td>
                <td className={CELL}>{ACCOUNT_TYPE_LABEL[ACCOUNT_TYPE[a.purpose].type]}</td>
              </tr>
            ))}
          </StaffTable>
        }
      >
        <ChartForm key={d.rules.chart.version} d={d} actionData={actionData} />
      </RuleSection>
      <RuleSection
        kind="provisioning"
        title="Provisioning rates"
        d={d}
        inForce={
          <ul className="list-disc space-y-1 pl-5" data-testid="provisioning-in-force">
            {PROVISIONING_RATES.map((r) => (
              <li key={r.key}>
                {r.label}: {percentOfBps(d.rules.provisioning[r.key])}
              </li>
            ))}
          </ul>
        }
      >
        <ProvisioningForm key={d.rules.provisioning.version} d={d} actionData={actionData} />
      </RuleSection>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "The books' rules");
