import { getFormProps } from "@conform-to/react";
import { Form, Link } from "react-router";
import { FormErrors } from "../../components/field.tsx";
import { MissingDetails, MoneyRows } from "../../components/loan-flow.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { longDate } from "../../domain/loans/kfs.ts";
import {
  LOAN_KINDS,
  offerChoiceSchema,
  QUICK_STEPS,
  quickStepPath,
  DEFAULT_OFFER_TENURE,
  startingAmount,
} from "../../domain/quick-start.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import type { Route } from "./+types/step5";
import { loadQuickStep, postQuickStep } from "../../web/quick-step.server.ts";
import { quickOffer } from "../../server/quick-start/offer.server.ts";
import { recordFunnel } from "../../server/quick-start/progress.server.ts";
import type { MissingFact } from "../../server/loans/offer.server.ts";
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
  const result = await quickOffer(services, { userId: user.id, tenureMonths: tenureOf(new URL(args.request.url), progress.tenureMonths) });
  if (!result.ok) return { completed: progress.completedSteps, missing: result.missing, offer: null };
  const { offers } = result;
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
    completed: progress.completedSteps,
    missing: [],
    offer: result,
    asked: { product: progress.product, amountPaise: progress.amountPaise },
    starting: {
      emi: startingAmount(offers.emi, progress.amountPaise),
      salary_advance: startingAmount(offers.salary_advance, progress.amountPaise),
    },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 5, offerChoiceSchema);
}

export default function QuickStep5({ loaderData, actionData }: Route.ComponentProps) {
  const { offer } = loaderData;
  return (
    <QuickStartFrame
      step={5}
      completed={loaderData.completed}
      intro="From what you have told us. The rate and charges are the same ones you will see in your Key Fact Statement."
    >
      {offer && "starting" in loaderData ? (
        <Offers loaderData={{ ...loaderData, offer }} actionData={actionData} />
      ) : (
        <MissingDetails
          items={loaderData.missing.map((m) => {
            const step = ASKED_AT[m.fact];
            return { key: m.fact, href: quickStepPath(step), label: QUICK_STEPS[step]?.title ?? "", what: m.what };
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
            EMI loan tenure
          </label>
          <select id="tenure" name="tenure" className="field-input" defaultValue={offer.tenureMonths}>
            {Array.from({ length: offer.tenures.max - offer.tenures.min + 1 }, (_, i) => offer.tenures.min + i).map((t) => (
              <option key={t} value={t}>
                {t} months
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          Show offer
        </button>
      </Form>
      <div className="grid gap-4 sm:grid-cols-2" data-testid="offers">
        {LOAN_KINDS.map((kind) => (
          <OfferCard
            key={kind}
            offer={offer.offers[kind]}
            asked={asked.product === kind ? asked.amountPaise : null}
            starting={starting[kind]}
          />
        ))}
      </div>
      {eligible.length ? (
        <Form method="post" className="card space-y-5" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={formErrors} />
          <input type="hidden" name="tenure" value={offer.tenureMonths} />
          <fieldset>
            <legend className="field-label">Apply for</legend>
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
                  {KIND_NAME[kind]}, starting at {formatRupees(starting[kind] ?? 0)}
                  {kind === "emi" ? ` over ${offer.tenureMonths} months` : ""}
                </label>
              ))}
            </div>
            <div id={fields.product.errorId} className="field-error" aria-live="polite">
              {fields.product.errors?.join(" ")}
            </div>
          </fieldset>
          <p className="text-sm text-slate-700">
            You can change the amount{eligible.includes("emi") ? " and tenure" : ""} in your application, up to the offer.
          </p>
          <StepButtons step={5} busy={busy} next="Take this offer" plainBack />
        </Form>
      ) : (
        <section className="card space-y-3" aria-labelledby="what-now">
          <h2 id="what-now" className="text-xl">
            What you can do
          </h2>
          <p>If an answer was wrong, correct it: the offer is worked out again.</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              <Link className="link" to={quickStepPath(3)}>
                Work and income
              </Link>
            </li>
            <li>
              <Link className="link" to={quickStepPath(4)}>
                Existing EMIs
              </Link>
            </li>
          </ul>
          <Link to={quickStepPath(4)} className="btn-secondary">
            Back
          </Link>
        </section>
      )}
    </>
  );
}

function OfferCard({ offer, asked, starting }: { offer: ProductOffer; asked: number | null; starting: number | null }) {
  const name = KIND_NAME[offer.product];
  const headingId = `offer-${offer.product}`;
  if (!offer.eligible) {
    return (
      <section className="card border-amber-300 bg-amber-50" aria-labelledby={headingId} data-testid={`offer-${offer.product}`}>
        <h2 id={headingId} className="text-xl">
          {name}: not available to you now
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5" data-testid="offer-reasons">
          {offer.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      </section>
    );
  }
  const rows: [string, string][] = [
    ["Up to", formatRupees(offer.maxAmountPaise)],
    offer.product === "emi"
      ? ["Monthly EMI at that amount", `${formatRupees(offer.paymentPaise ?? 0)} × ${offer.tenureMonths}`]
      : [
          "Repay on your salary day",
          `${formatRupees(offer.paymentPaise ?? 0)} on ${offer.repaymentDate ? longDate(offer.repaymentDate) : ""}`,
        ],
    offer.product === "emi"
      ? ["Interest", `${(offer.rateBps / 100).toFixed(2)}% a year, fixed`]
      : ["Interest", `${(offer.rateBps / 100).toFixed(2)}% a day`],
    ["You receive (after the processing fee with GST)", formatRupees(offer.netDisbursedPaise ?? 0)],
    ["APR (all charges included)", `${(offer.aprPercent ?? 0).toFixed(2)}%`],
  ];
  return (
    <section className="card border-brand-300" aria-labelledby={headingId} data-testid={`offer-${offer.product}`}>
      <h2 id={headingId} className="text-xl">
        {name}
      </h2>
      <MoneyRows rows={rows} />
      {asked !== null && starting !== null && asked !== starting ? (
        <p className="mt-3 text-sm text-slate-700">
          You asked for {formatRupees(asked)}; your application would start at {formatRupees(starting)}.
        </p>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick start: your offer");
