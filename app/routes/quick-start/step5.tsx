import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { ErrorText, FormErrors } from "../../components/field.tsx";
import { MissingDetails } from "../../components/loan-flow.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { longDate } from "../../domain/india-date.ts";
import { quickStepPath } from "../../domain/quick-start.ts";
import { QUICK_STEP_KEYS } from "../../components/quick-start.tsx";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { Language } from "../../i18n/languages.ts";
import { strongWith } from "../../lib/rich-text.tsx";
import { useMessageText } from "../../lib/use-message-text.ts";
import { languageOf } from "../../web/i18n.server.ts";
import { DEFAULT_OFFER_TENURE, LOAN_KINDS, offerChoiceSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import type { Route } from "./+types/step5";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { quickOffer } from "../../server/quick-start/offer.server.ts";
import { recordFunnel } from "../../server/quick-start/progress.server.ts";
import type { MissingFact } from "../../server/credit/judge.server.ts";
import { CreditCheckPanel } from "../../components/credit-check.tsx";
import { requestContext } from "../../context.ts";
import { postCreditCheck } from "../../web/credit-check.server.ts";
import { readForm } from "../../web/forms.server.ts";
import type { ProductOffer } from "../../server/quick-start/offer.server.ts";

/** The quick-start step that asks for each fact the offer needs. */
const ASKED_AT: Record<MissingFact["fact"], number> = { dateOfBirth: 1, employment: 3, existingEmis: 4 };

/** Tenure asked in the address (the tenure form works without JavaScript), else the one saved, else a year. */
function tenureOf(url: URL, saved: number | null) {
  const asked = Number(url.searchParams.get("tenure"));
  return Number.isInteger(asked) && asked > 0 ? asked : (saved ?? DEFAULT_OFFER_TENURE);
}

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 5);
  const page = quickStepPage(args.context, 5, ["applyFlow"]);
  const result = await quickOffer(services, {
    userId: user.id,
    tenureMonths: tenureOf(new URL(args.request.url), progress.tenureMonths),
    askedPaise: progress.amountPaise,
    language: languageOf(args.context),
  });
  if (!result.ok) return { ...page, completed: progress.completedSteps, missing: result.missing, offer: null, creditCheck: null };
  // The PAN check or the bureau report is still needed: the consent form, or what happens next.
  if (result.creditCheck) return { ...page, completed: progress.completedSteps, missing: [], offer: null, creditCheck: result.creditCheck };
  const { judged: _judged, ...offer } = result;
  const { offers } = offer;
  await recordFunnel(services, {
    userId: user.id,
    event: "offer_shown",
    step: 5,
    product: progress.product,
    details: {
      tenureMonths: result.tenureMonths,
      emi: { eligible: offers.emi.eligible, maxAmountPaise: offers.emi.maxAmountPaise, reasons: offers.emi.reasons.map((r) => r.code) },
      salary_advance: {
        eligible: offers.salary_advance.eligible,
        maxAmountPaise: offers.salary_advance.maxAmountPaise,
        reasons: offers.salary_advance.reasons.map((r) => r.code),
      },
    },
  });
  return {
    ...page,
    completed: progress.completedSteps,
    missing: [],
    offer,
    creditCheck: null,
    asked: { product: progress.product, amountPaise: progress.amountPaise },
    starting: { emi: offers.emi.at?.amountPaise ?? null, salary_advance: offers.salary_advance.at?.amountPaise ?? null },
  };
}

export async function action(args: Route.ActionArgs) {
  const formData = await readForm(args.request.clone());
  if (formData.get("intent") === "credit_check") {
    const { services, user } = await loadQuickStep(args, 5);
    return postCreditCheck({
      services,
      request: args.request,
      formData,
      userId: user.id,
      client: args.context.get(requestContext),
      then: quickStepPath(5),
    });
  }
  return postQuickStep(args, 5, offerChoiceSchema);
}

export default function QuickStep5({ loaderData, actionData }: Route.ComponentProps) {
  const { offer } = loaderData;
  const t = useTranslations("applyQuick");
  return (
    <QuickStartFrame step={5} completed={loaderData.completed} intro={t("offer.intro")}>
      {loaderData.creditCheck ? (
        <CreditCheckPanel state={loaderData.creditCheck} lastResult={actionData} />
      ) : offer && "starting" in loaderData ? (
        <Offers loaderData={{ ...loaderData, offer }} actionData={actionData} />
      ) : (
        <MissingDetails
          items={loaderData.missing.map((m) => {
            const step = ASKED_AT[m.fact];
            return { fact: m.fact, href: quickStepPath(step), label: t(`steps.${QUICK_STEP_KEYS[step] ?? "you"}.title`) };
          })}
        />
      )}
    </QuickStartFrame>
  );
}

type Loaded = Extract<Route.ComponentProps["loaderData"], { starting: unknown }>;

function Offers({
  loaderData,
  actionData,
}: {
  loaderData: Loaded & { offer: NonNullable<Loaded["offer"]> };
  actionData: Route.ComponentProps["actionData"];
}) {
  const { offer, asked, starting } = loaderData;
  const t = useTranslations("applyQuick.offer");
  const eligible = LOAN_KINDS.filter((k) => offer.offers[k].eligible);
  const preferred = asked.product && eligible.includes(asked.product) ? asked.product : eligible[0];
  const { form, fields, busy, formErrors } = useStepForm({
    schema: offerChoiceSchema,
    lastResult: actionData,
    defaultValue: { product: preferred ?? "" },
  });
  return (
    <>
      <Form method="get" replace preventScrollReset className="card flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="tenure" className="field-label">
            {t("tenure")}
          </label>
          <select id="tenure" name="tenure" className="field-input" defaultValue={offer.tenureMonths}>
            {Array.from({ length: offer.tenures.max - offer.tenures.min + 1 }, (_, i) => offer.tenures.min + i).map((months) => (
              <option key={months} value={months}>
                {t("months", { count: months })}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          {t("show")}
        </button>
      </Form>
      <div className="grid gap-4 md:grid-cols-2" data-testid="offers">
        {LOAN_KINDS.map((kind) => (
          <OfferCard key={kind} offer={offer.offers[kind]} asked={asked.amountPaise} />
        ))}
      </div>
      <p className="text-sm text-slate-700" id="apr-note">
        {t("aprNote")}
      </p>
      {eligible.length ? (
        <Form method="post" className="card space-y-5" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={formErrors} />
          <input type="hidden" name="tenure" value={offer.tenureMonths} />
          <fieldset>
            <legend className="field-label">{t("applyFor")}</legend>
            <div className="mt-2 space-y-2">
              {eligible.map((kind) => (
                <label key={kind} className="flex items-center gap-3">
                  <input
                    type="radio"
                    name={fields.product.name}
                    value={kind}
                    key={`${kind}-${fields.product.key}`}
                    defaultChecked={fields.product.initialValue === kind}
                    required
                    aria-describedby={fields.product.errors?.length ? fields.product.errorId : undefined}
                    className="size-4"
                  />
                  {t("choice", { kind, amount: formatRupees(starting[kind] ?? 0), months: offer.tenureMonths })}
                </label>
              ))}
            </div>
            <div id={fields.product.errorId} className="field-error" aria-live="polite">
              <ErrorText errors={fields.product.errors} />
            </div>
          </fieldset>
          <p className="text-sm text-slate-700">{t("change", { tenure: eligible.includes("emi") ? "yes" : "no" })}</p>
          <StepButtons step={5} busy={busy} next={t("take")} plainBack />
        </Form>
      ) : (
        <section className="card space-y-3" aria-labelledby="what-now">
          <h2 id="what-now" className="text-xl">
            {t("whatNow")}
          </h2>
          <p>{t("correct")}</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              <Link className="link" to={quickStepPath(1)}>
                {t("fixYou")}
              </Link>
            </li>
            <li>
              <Link className="link" to={quickStepPath(3)}>
                {t("fixIncome")}
              </Link>
            </li>
            <li>
              <Link className="link" to={quickStepPath(4)}>
                {t("fixEmis")}
              </Link>
            </li>
          </ul>
          <Link to={quickStepPath(4)} className="btn-secondary">
            {t("back")}
          </Link>
        </section>
      )}
    </>
  );
}

/** One product's offer, read at a glance: what it costs at the amount asked, then its terms (APR in a neutral colour). */
function OfferCard({ offer, asked }: { offer: ProductOffer; asked: number | null }) {
  const t = useTranslations("applyQuick");
  const say = useMessageText();
  const language = useLocale() as Language;
  const name = t("kind", { kind: offer.product });
  const headingId = `offer-${offer.product}`;
  if (!offer.eligible || !offer.at) {
    return (
      <section className="card border-amber-300 bg-amber-50" aria-labelledby={headingId} data-testid={`offer-${offer.product}`}>
        <h2 id={headingId} className="text-xl">
          {t("offer.notAvailable", { kind: offer.product })}
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5" data-testid="offer-reasons">
          {offer.reasons.map((r) => (
            <li key={r.code}>{say(r.message)}</li>
          ))}
        </ul>
      </section>
    );
  }
  const at = offer.at;
  const emi = offer.product === "emi";
  return (
    <section className="card flex flex-col border-brand-300" aria-labelledby={headingId} data-testid={`offer-${offer.product}`}>
      <h2 id={headingId} className="text-xl">
        {name}
      </h2>
      <p className="mt-1 text-slate-700">
        {asked !== null && asked !== at.amountPaise
          ? t.rich("offer.forAsked", { amount: formatRupees(at.amountPaise), asked: formatRupees(asked), strong: amountStrong })
          : t.rich("offer.for", { amount: formatRupees(at.amountPaise), strong: amountStrong })}
      </p>
      <p className="mt-3" data-testid={`offer-${offer.product}-payment`}>
        <span className="money text-3xl">{formatRupees(at.paymentPaise)}</span>{" "}
        <span className="text-slate-700">
          {emi
            ? t("offer.perMonth", { months: offer.tenureMonths ?? 0 })
            : offer.repaymentDate
              ? t("offer.once", { date: longDate(offer.repaymentDate, language) })
              : t("offer.onceSalaryDay")}
        </span>
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 border-t border-slate-200 pt-4">
        <Stat label={t("offer.receive")} value={formatRupees(at.netDisbursedPaise)} />
        <Stat label={emi ? t("offer.repayAll") : t("offer.repay")} value={formatRupees(at.totalRepayablePaise)} />
        <Stat label={t("offer.interest")} value={t(emi ? "offer.rateYear" : "offer.rateDay", { rate: (offer.rateBps / 100).toFixed(2) })} />
        <Stat label={t("offer.apr")} value={`${at.aprPercent.toFixed(2)}%`} describedBy="apr-note" testId={`offer-${offer.product}-apr`} />
        <Stat label={t("offer.upTo")} value={formatRupees(offer.maxAmountPaise)} />
      </dl>
    </section>
  );
}

function Stat({ label, value, describedBy, testId }: { label: string; value: string; describedBy?: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900 tabular-nums" aria-describedby={describedBy} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

const amountStrong = strongWith("text-slate-900");

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
