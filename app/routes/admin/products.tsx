import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Field, FormErrors, TextField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { emiProductSchema, riskBandSchema, salaryAdvanceProductSchema } from "../../domain/product-settings.ts";
import { bpsToPercentText, paiseToRupeesText } from "../../domain/settings-fields.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { productHistory, saveProductTerms, saveRiskBand } from "../../server/products-admin.server.ts";
import { loadProducts } from "../../server/products.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/products";

/** Products (docs/product.md "Products"): administrators only; every change versioned and audited. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("settings.manage")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const [{ emi, salaryAdvance, riskBands }, history] = await Promise.all([loadProducts(services), productHistory(services)]);
  const common = (p: typeof emi) => ({
    minAmount: paiseToRupeesText(p.minAmountPaise),
    maxAmount: paiseToRupeesText(p.maxAmountPaise),
    amountStep: paiseToRupeesText(p.amountStepPaise),
    minTenure: String(p.minTenure),
    maxTenure: String(p.maxTenure),
    rate: bpsToPercentText(p.rateBps),
    fee: bpsToPercentText(p.feeBps),
    minFee: paiseToRupeesText(p.minFeePaise),
    gst: bpsToPercentText(p.gstBps),
    penalCharge: paiseToRupeesText(p.penalChargePaise),
    coolingOffDays: String(p.coolingOffDays),
    autopayBeforeDisbursal: p.autopayBeforeDisbursal ? "on" : "",
  });
  return {
    emi: common(emi),
    salaryAdvance: common(salaryAdvance),
    bands: riskBands.map((b) => ({
      id: b.id,
      order: b.sortOrder,
      minIncome: paiseToRupeesText(b.minIncomePaise),
      maxEmiShare: b.maxEmiToIncomeBps === null ? "" : bpsToPercentText(b.maxEmiToIncomeBps),
      rate: bpsToPercentText(b.rateBps),
    })),
    history: history.map((h) => ({ ...h, changedAt: h.changedAt.toISOString() })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const saved = (version: number | null) =>
    redirectWithToast(services.config, request, "/admin/products", {
      type: "success",
      title: version === null ? "Nothing changed." : `Saved as version ${version}. It applies to offers made from now on.`,
    });
  if (intent === "emi" || intent === "salary_advance") {
    const submission = parseWithZod(form, { schema: intent === "emi" ? emiProductSchema : salaryAdvanceProductSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const { version } = await saveProductTerms(services, { staff, client, code: intent, ...submission.value });
    return saved(version);
  }
  if (intent === "band") {
    const submission = parseWithZod(form, { schema: riskBandSchema });
    if (submission.status !== "success")
      return data({ intent: `band-${String(form.get("band"))}`, result: submission.reply() }, { status: 400 });
    const outcome = await saveRiskBand(services, { staff, client, ...submission.value });
    if (!outcome.ok) throw data({ message: "There is no such risk band." }, { status: 404 });
    return saved(outcome.version);
  }
  throw data({ message: "Unknown action." }, { status: 400 });
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];
const lastFor = (actionData: ActionData, intent: string) => (actionData && actionData.intent === intent ? actionData.result : undefined);

function NoteField({
  field,
}: {
  field: { id: string; name: string; errorId: string; errors?: string[]; key?: string; initialValue?: unknown; descriptionId: string };
}) {
  return (
    <Field
      id={field.id}
      label="Why it changes"
      hint="Kept with the version."
      hintId={field.descriptionId}
      errors={field.errors}
      errorId={field.errorId}
    >
      <textarea className="field-input min-h-16" rows={2} {...getTextareaProps(field as never, { ariaDescribedBy: field.descriptionId })} />
    </Field>
  );
}

function ProductForm({
  code,
  title,
  values,
  actionData,
}: {
  code: "emi" | "salary_advance";
  title: string;
  values: Data["emi"];
  actionData: ActionData;
}) {
  const emi = code === "emi";
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: code,
    schema: emi ? emiProductSchema : salaryAdvanceProductSchema,
    lastResult: lastFor(actionData, code),
    defaultValue: { ...values, note: "" },
  });
  return (
    <section className="card space-y-4" aria-labelledby={`${code}-title`}>
      <h2 id={`${code}-title`} className="text-xl">
        {title}
      </h2>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={code} />
        <FormErrors id={form.errorId} errors={formErrors} />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField field={fields.minAmount} label="Smallest amount (₹)" inputMode="decimal" />
          <TextField field={fields.maxAmount} label="Largest amount (₹)" inputMode="decimal" />
          <TextField field={fields.amountStep} label="Amount step (₹)" inputMode="decimal" />
          <TextField field={fields.minTenure} label={emi ? "Shortest term (months)" : "Fewest days"} inputMode="numeric" />
          <TextField field={fields.maxTenure} label={emi ? "Longest term (months)" : "Most days"} inputMode="numeric" />
          <TextField field={fields.rate} label={emi ? "Default annual rate (%)" : "Rate a day (%)"} inputMode="decimal" />
          <TextField field={fields.fee} label="Processing fee (% of the amount)" inputMode="decimal" />
          <TextField field={fields.minFee} label="Smallest fee (₹)" inputMode="decimal" />
          <TextField field={fields.gst} label="GST on the fee (%)" inputMode="decimal" />
          <TextField field={fields.penalCharge} label="Penal charge (₹)" inputMode="decimal" />
          <TextField field={fields.coolingOffDays} label="Cooling-off (days)" inputMode="numeric" />
        </div>
        <p className="flex items-start gap-2">
          <input
            id={fields.autopayBeforeDisbursal.id}
            name={fields.autopayBeforeDisbursal.name}
            type="checkbox"
            defaultChecked={values.autopayBeforeDisbursal === "on"}
            className="mt-1 size-4"
          />
          <label htmlFor={fields.autopayBeforeDisbursal.id}>Pay out only once the borrower's autopay is active</label>
        </p>
        <NoteField field={fields.note} />
        <button className="btn-primary" disabled={busy}>
          Save a new version
        </button>
      </Form>
    </section>
  );
}

function BandForm({ band, actionData }: { band: Data["bands"][number]; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: `band-${band.id}`,
    schema: riskBandSchema,
    lastResult: lastFor(actionData, `band-${band.id}`),
    defaultValue: { band: String(band.id), minIncome: band.minIncome, maxEmiShare: band.maxEmiShare, rate: band.rate, note: "" },
  });
  return (
    <Form method="post" className="space-y-3 border-t border-slate-200 pt-4 first:border-0 first:pt-0" {...getFormProps(form)}>
      <h3 className="font-semibold">Band {band.order}</h3>
      <input type="hidden" name="intent" value="band" />
      <input type="hidden" name="band" value={band.id} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={fields.minIncome} label="From net monthly income (₹)" inputMode="decimal" />
        <TextField field={fields.maxEmiShare} label="Most EMIs as % of income (empty: no limit)" inputMode="decimal" />
        <TextField field={fields.rate} label="Annual rate (%)" inputMode="decimal" />
      </div>
      <NoteField field={fields.note} />
      <button className="btn-secondary" disabled={busy}>
        Save band {band.order}
      </button>
    </Form>
  );
}

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const { emi, salaryAdvance, bands, history } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Loan products</h1>
      <p className="text-slate-700">
        A change applies to offers made after it is saved, and shows on Rate-terms and the calculator at once. Applications already signed
        keep their Key Fact Statement.
      </p>
      <ProductForm code="emi" title="EMI loan" values={emi} actionData={actionData} />
      <section className="card space-y-4" aria-labelledby="bands-title">
        <h2 id="bands-title" className="text-xl">
          EMI loan risk bands
        </h2>
        <p className="text-sm text-slate-600">A borrower gets the first band their income and existing EMIs qualify for.</p>
        {bands.map((b) => (
          <BandForm key={b.id} band={b} actionData={actionData} />
        ))}
      </section>
      <ProductForm code="salary_advance" title="Salary advance" values={salaryAdvance} actionData={actionData} />
      <section className="card space-y-3" aria-labelledby="versions-title">
        <h2 id="versions-title" className="text-xl">
          Versions
        </h2>
        {history.length ? (
          <StaffTable
            label="Versions, table"
            minWidth="min-w-[44rem]"
            framed={false}
            columns={["Version", "What changed", "Why", "Who and when"]}
          >
            {history.map((h) => (
              <tr key={`${h.code}-${h.version}`} data-testid="product-version">
                <td className="px-3 py-2 whitespace-nowrap">
                  {h.code === "emi" ? "EMI loan" : "Salary advance"} v{h.version}
                  <span className="block text-slate-600">{h.part}</span>
                </td>
                <td className="px-3 py-2">
                  {Object.keys(h.after)
                    .filter((k) => h.before[k] !== h.after[k])
                    .map((k) => `${k}: ${String(h.before[k])} → ${String(h.after[k])}`)
                    .join("; ")}
                </td>
                <td className="px-3 py-2">{h.note}</td>
                <td className="px-3 py-2">
                  {h.changedBy ?? "—"}
                  <span className="block text-slate-600">{formatDateTimeIST(new Date(h.changedAt))}</span>
                </td>
              </tr>
            ))}
          </StaffTable>
        ) : (
          <p>No change since the products were set up.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Loan products");
