import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { Field, FormErrors, TextField } from "../../../components/field.tsx";
import { LoanFlow, MissingDetails, MoneyRows } from "../../../components/loan-flow.tsx";
import { parseRupeesToPaise } from "../../../domain/money.ts";
import { stepPath, termsSchema } from "../../../domain/loans/application.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { linkTo } from "../../../lib/rich-text.tsx";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { languageOf } from "../../../web/i18n.server.ts";
import { longDate } from "../../../domain/india-date.ts";
import { emiQuote, processingFee, salaryAdvanceQuote } from "../../../domain/loan-math.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { Route } from "./+types/step0";
import { readForm } from "../../../web/forms.server.ts";
import { offerFor, saveTerms } from "../../../server/loans/offer.server.ts";
import { obligationsNote } from "../../../domain/credit-policy/words.ts";
import { creditCheckState } from "../../../server/quick-start/offer.server.ts";
import { CreditCheckPanel } from "../../../components/credit-check.tsx";
import { postCreditCheck } from "../../../web/credit-check.server.ts";
import { cancelFromStep, type LoadedStep, loadStep, stepPage } from "../../../web/new-loan-step.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

const DEFAULT_TENURE = 12;

/** The offer this application is chosen within: the credit policy on the borrower as they are now. */
const offerOf = ({ services, user, kind, application }: LoadedStep, language: Language) =>
  offerFor(services, { userId: user.id, kind, applicationId: application.id, tenureMonths: application.tenureMonths, language });

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step0");
  const { application, kind, reference } = loaded;
  const result = await offerOf(loaded, languageOf(args.context));
  const base = {
    ...stepPage(args.context, "Step0"),
    kind,
    reference,
    status: loaded.state.status,
    done: loaded.done,
    missing: result.ok ? [] : result.missing,
    creditCheck: null,
  };
  if (!result.ok) return { ...base, offer: null };
  // The PAN check or a fresh bureau report is still needed: the consent form, or what happens next.
  const creditCheck = creditCheckState([result.verdict], result.bureauState);
  if (creditCheck) return { ...base, creditCheck, offer: null };
  const offer = result;
  const b = offer.bounds;
  const tenure = application.tenureMonths ?? Math.min(b.maxTenure, Math.max(b.minTenure, DEFAULT_TENURE));
  const suggested = kind === "emi" ? (b.maxByTenure[tenure] ?? 0) : b.maxAmountPaise;
  return {
    ...base,
    offer: {
      eligible: offer.eligible,
      reasons: offer.reasons,
      bounds: b,
      rateBps: offer.rateBps,
      fees: { feeBps: offer.product.feeBps, minFeePaise: offer.product.minFeePaise, gstBps: offer.product.gstBps },
      assumedDisbursalDate: offer.assumedDisbursalDate,
      salaryDay: offer.salaryDay,
      note: obligationsNote(offer.verdict),
    },
    values: {
      amount: String((application.amountPaise ?? suggested) / 100),
      tenure: String(tenure),
    },
  };
}

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step0");
  const formData = await readForm(args.request);
  if (formData.get("intent") === "cancel") return cancelFromStep(loaded, args.request);
  const here = stepPath(loaded.kind, loaded.reference, "Step0");
  if (formData.get("intent") === "credit_check") {
    const { services, user, request: client } = loaded;
    return postCreditCheck({ services, request: args.request, formData, userId: user.id, client, then: here });
  }
  const offer = await offerOf(loaded, languageOf(args.context));
  // No offer (refused, a check or profile details missing): nothing to save; the page says why.
  if (!offer.ok || !offer.eligible) throw redirect(here);
  const submission = parseWithZod(formData, { schema: termsSchema(offer.bounds) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveTerms(loaded.services, { userId: loaded.user.id, application: loaded.application, chosen: submission.value, offer });
  throw redirect(stepPath(loaded.kind, loaded.reference, "Step1"));
}

export default function Step0({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, reference, offer } = loaderData;
  const t = useTranslations("applySteps.terms");
  const say = useMessageText();
  return (
    <LoanFlow kind={kind} reference={reference} step="Step0" status={loaderData.status} done={loaderData.done} title={t("title", { kind })}>
      {loaderData.missing.length ? <MissingDetails items={loaderData.missing.map((m) => ({ fact: m.fact, href: m.href }))} /> : null}
      {loaderData.creditCheck ? <CreditCheckPanel state={loaderData.creditCheck} lastResult={actionData} /> : null}
      {offer && !offer.eligible ? (
        <section className="card border-amber-300 bg-amber-50" aria-labelledby="reasons-title">
          <h2 id="reasons-title" className="text-xl">
            {t("cannotOffer", { kind })}
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-5" data-testid="offer-reasons">
            {offer.reasons.map((r) => (
              <li key={r.code}>{say(r.message)}</li>
            ))}
          </ul>
          <p className="mt-3 text-slate-700">{t.rich("outOfDate", { link: profileLink })}</p>
        </section>
      ) : null}
      {offer?.eligible && "values" in loaderData && loaderData.values ? (
        <TermsForm loaderData={{ ...loaderData, offer, values: loaderData.values }} actionData={actionData} />
      ) : null}
    </LoanFlow>
  );
}

type Loaded = Route.ComponentProps["loaderData"];
type TermsProps = {
  loaderData: Loaded & { offer: NonNullable<Loaded["offer"]>; values: { amount: string; tenure: string } };
  actionData: Route.ComponentProps["actionData"];
};

function TermsForm({ loaderData, actionData }: TermsProps) {
  const { offer, kind } = loaderData;
  const navigation = useNavigation();
  const schema = termsSchema(offer.bounds);
  const { form, fields, formErrors } = useSchemaForm({ schema, lastResult: actionData, defaultValue: loaderData.values });
  const b = offer.bounds;
  const tenure = Number(fields.tenure.value ?? loaderData.values.tenure);
  const max = kind === "emi" ? (b.maxByTenure[tenure] ?? 0) : b.maxAmountPaise;
  const amountPaise = parseRupeesToPaise(String(fields.amount.value ?? loaderData.values.amount));
  const valid = amountPaise !== null && amountPaise >= b.minAmountPaise && amountPaise <= max && amountPaise % b.stepPaise === 0;
  const t = useTranslations("applySteps.terms");
  const say = useMessageText();
  return (
    <Form method="post" className="card space-y-5" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <p>
        {kind === "emi"
          ? t("rateEmi", { rate: (offer.rateBps / 100).toFixed(2) })
          : t("rateAdvance", { rate: (offer.rateBps / 100).toFixed(2), max: formatRupees(b.maxAmountPaise) })}
      </p>
      {offer.note ? (
        <p className="text-sm text-slate-700" data-testid="obligations-note">
          {say(offer.note)}
        </p>
      ) : null}
      {kind === "emi" ? (
        <Field id={fields.tenure.id} label={t("tenure")} errors={fields.tenure.errors} errorId={fields.tenure.errorId}>
          <select
            key={fields.tenure.key}
            id={fields.tenure.id}
            name={fields.tenure.name}
            className="field-input"
            defaultValue={loaderData.values.tenure}
            aria-invalid={fields.tenure.errors?.length ? true : undefined}
            aria-describedby={fields.tenure.errors?.length ? fields.tenure.errorId : undefined}
          >
            {Object.entries(b.maxByTenure).map(([months, maxPaise]) => (
              <option key={months} value={months}>
                {maxPaise >= b.minAmountPaise ? t("tenureUpTo", { months, max: formatRupees(maxPaise) }) : t("tenureNone", { months })}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <TextField
        field={fields.amount}
        label={t("amount")}
        hint={t("amountHint", { min: formatRupees(b.minAmountPaise), max: formatRupees(max), step: formatRupees(b.stepPaise) })}
        inputMode="numeric"
      />
      {valid && amountPaise !== null ? <QuotePreview offer={offer} kind={kind} amountPaise={amountPaise} tenure={tenure} /> : null}
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
        {t("save")}
      </button>
    </Form>
  );
}

/** What these terms cost, from the same loan math as the KFS (shown again, exactly, at Step5). */
function QuotePreview({
  offer,
  kind,
  amountPaise,
  tenure,
}: {
  offer: TermsProps["loaderData"]["offer"];
  kind: string;
  amountPaise: number;
  tenure: number;
}) {
  const t = useTranslations("applySteps.terms");
  const language = useLocale() as Language;
  const fee = processingFee(amountPaise, offer.fees);
  const rows: [string, string][] = [];
  if (kind === "emi") {
    const q = emiQuote({
      principalPaise: amountPaise,
      annualRateBps: offer.rateBps,
      months: tenure,
      upfrontPaise: fee.totalUpfrontPaise,
      disbursalDate: offer.assumedDisbursalDate,
    });
    rows.push(
      [t("emi"), formatRupees(q.emiPaise)],
      [t("firstInstalment"), q.schedule[0]?.dueDate ? longDate(q.schedule[0].dueDate, language) : ""],
      [t("totalInterest"), formatRupees(q.totalInterestPaise)],
      [t("fee"), formatRupees(fee.totalUpfrontPaise)],
      [t("receive"), formatRupees(q.netDisbursedPaise)],
      [t("apr"), `${q.aprPercent.toFixed(2)}%`],
    );
  } else if (offer.salaryDay) {
    const q = salaryAdvanceQuote({
      principalPaise: amountPaise,
      dailyRateBps: offer.rateBps,
      disbursalDate: offer.assumedDisbursalDate,
      salaryDay: offer.salaryDay,
      fees: offer.fees,
    });
    rows.push(
      [t("repaymentDate"), t("repaymentOn", { date: longDate(q.repaymentDate, language), days: q.days })],
      [t("interest"), formatRupees(q.interestPaise)],
      [t("repay"), formatRupees(q.totalRepayablePaise)],
      [t("fee"), formatRupees(fee.totalUpfrontPaise)],
      [t("receive"), formatRupees(q.netDisbursedPaise)],
      [t("apr"), `${q.aprPercent.toFixed(2)}%`],
    );
  }
  return (
    <div className="rounded-lg bg-slate-50 p-4" aria-live="polite" data-testid="quote-preview">
      <p className="text-sm text-slate-600">{t("ifOn", { date: longDate(offer.assumedDisbursalDate, language) })}</p>
      <MoneyRows rows={rows} />
    </div>
  );
}

const profileLink = linkTo("/User/Profile", "link");

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
