import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { Field, FormErrors } from "../../../components/field.tsx";
import { coveredText, nextDueText } from "../../../domain/loans/next-due.ts";
import { MoneyRows } from "../../../components/loan-flow.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../../context.ts";
import { addDays } from "../../../domain/loan-math.ts";
import { coolingOffRule } from "../../../domain/loans/cooling-off.ts";
import { KIND_NAME, type LoanKind } from "../../../domain/loans/application.ts";
import { LOAN_NUMBER } from "../../../domain/loans/disbursal.ts";
import { formatDateIST, longDate } from "../../../domain/india-date.ts";
import { STATUS_TEXT } from "../../../domain/loans/lifecycle.ts";
import { PAY_CHOICE_LABEL, type PayChoice, payNowSchema, payOptions } from "../../../domain/loans/pay-now.ts";
import { INSTALMENT_STATUS_LABEL, PAYOFF_DAYS_AHEAD, type PayoffQuote, statementRange } from "../../../domain/loans/servicing.ts";
import { formatRupees } from "../../../domain/money.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { startPayment } from "../../../server/payments/start-payment.server.ts";
import { loanPage, payoffFor } from "../../../server/loan-account/read.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import { siteOrigin } from "../../../../server/config.ts";
import type { Route } from "./+types/loan";

const kindOfPath = (url: URL): LoanKind => (/\/loans\/emi\//i.test(url.pathname) ? "emi" : "salary_advance");

/**
 * /User/Loans/Emi/{loanNumber} and /User/Loans/SalaryAdvance/{loanNumber} (docs/product.md "Loan
 * servicing"): the borrower's own loan, replayed from its ledger today. Anyone else's loan number
 * is the not-found page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const loanNumber = params.loanNumber.toUpperCase();
  const page = LOAN_NUMBER.test(loanNumber) ? await loanPage(services, { userId: user.id, loanNumber }) : null;
  if (!page || page.summary.kind !== kindOfPath(url)) notFoundFullPath(request);
  const on = url.searchParams.get("on");
  let quote: { on: string; quote: PayoffQuote | null; advancePaise: number; error: string | null } | null = null;
  if (on !== null && page.payoff) {
    const asked = await payoffFor(services, { userId: user.id, loanNumber, on });
    quote = asked.ok
      ? { on, quote: asked.quote, advancePaise: asked.advancePaise, error: null }
      : {
          on,
          quote: null,
          advancePaise: 0,
          error: `Choose a date from today to ${PAYOFF_DAYS_AHEAD} days ahead (${longDate(page.today)} to ${longDate(addDays(page.today, PAYOFF_DAYS_AHEAD))}).`,
        };
  }
  // The statement's period, checked here so a wrong one is said next to its fields; a good one downloads.
  let statementError: string | null = null;
  if (url.searchParams.has("statement")) {
    const range = statementRange(
      url.searchParams.get("from") ?? "",
      url.searchParams.get("to") ?? "",
      page.summary.disbursalDate,
      page.today,
    );
    if (range.ok) throw redirect(`/User/Loans/${loanNumber}/statement.pdf?from=${range.from}&to=${range.to}`);
    statementError = range.message;
  }
  const payable = page.payable;
  return {
    ...page,
    quote,
    statementError,
    statement: statementError ? { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" } : null,
    options: payable ? payOptions(payable) : null,
    emiPaise: payable?.emiPaise ?? null,
  };
}

/** Pay now: the order at the gateway, then off to its checkout. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const submission = parseWithZod(await readForm(request), { schema: payNowSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const loanNumber = params.loanNumber.toUpperCase();
  const started = LOAN_NUMBER.test(loanNumber)
    ? await startPayment(services, {
        userId: user.id,
        loanNumber,
        form: submission.value,
        client: context.get(requestContext),
        origin: siteOrigin(services.config, request),
      })
    : null;
  if (!started) notFoundFullPath(request);
  if (!started.ok)
    return data(
      started.field === "form"
        ? submission.reply({ formErrors: [started.message] })
        : submission.reply({ fieldErrors: { [started.field]: [started.message] } }),
      { status: 400 },
    );
  return redirect(started.checkoutUrl);
}

function Amount({ label, paise, tone }: { label: string; paise: number | null; tone?: "danger" }) {
  return (
    <div className="rounded-xl bg-slate-50 p-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={tone === "danger" ? "text-lg font-semibold text-danger-600 tabular-nums" : "money text-lg"}>
        {paise === null ? "—" : formatRupees(paise)}
      </dd>
    </div>
  );
}

function QuoteRows({ quote, advancePaise }: { quote: PayoffQuote; advancePaise: number }) {
  return (
    <>
      <MoneyRows
        rows={[
          ["Principal not yet due", formatRupees(quote.principalPaise)],
          ["Interest to that date", formatRupees(quote.interestPaise)],
          ["Instalments due and unpaid", formatRupees(quote.overduePaise)],
          ["Penal charges", formatRupees(quote.penalPaise)],
          ["Total to close the loan", formatRupees(quote.totalPaise)],
        ]}
      />
      {advancePaise > 0 ? (
        <p className="text-sm text-slate-600" data-testid="quote-advance">
          Your advance payment of {formatRupees(advancePaise)} is already taken off these figures, first off the principal not yet due.
        </p>
      ) : null}
    </>
  );
}

function PayNow({
  options,
  emiPaise,
  kind,
  lastResult,
}: {
  options: Record<PayChoice, number | null>;
  emiPaise: number | null;
  kind: LoanKind;
  lastResult: Route.ComponentProps["actionData"];
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({ schema: payNowSchema, lastResult, id: "pay-now", shouldValidate: "onSubmit" });
  const choices = (Object.keys(options) as PayChoice[]).filter((c) => options[c] !== null && c !== "cooling_off");
  // What is late first, when something is; else the next instalment.
  const preferred = options.overdue !== null ? "overdue" : choices[0];
  return (
    <section aria-labelledby="pay-title" className="card space-y-4">
      <h2 id="pay-title">Pay now</h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="pay" />
        <FormErrors id={form.errorId} errors={formErrors} />
        <fieldset aria-describedby={fields.choice.errorId}>
          <legend className="field-label">What would you like to pay?</legend>
          <div className="space-y-2">
            {choices.map((c) => (
              <label
                key={c}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input type="radio" name={fields.choice.name} value={c} defaultChecked={c === preferred} className="mt-1 size-5" />
                <span className="flex-1">
                  {PAY_CHOICE_LABEL[c]}
                  {c !== "amount" ? <span className="money block">{formatRupees(options[c] ?? 0)}</span> : null}
                </span>
              </label>
            ))}
          </div>
          <div id={fields.choice.errorId} className="field-error" aria-live="polite">
            {fields.choice.errors?.join(" ")}
          </div>
        </fieldset>
        <Field
          id={fields.amount.id}
          label="Another amount (₹)"
          errors={fields.amount.errors}
          errorId={fields.amount.errorId}
          hint={`From ₹100 to ${formatRupees(options.payoff ?? 0)}.`}
          hintId={fields.amount.descriptionId}
        >
          <input
            {...getInputProps(fields.amount, { type: "text", ariaDescribedBy: fields.amount.descriptionId })}
            key={fields.amount.key}
            inputMode="decimal"
            className="field-input max-w-xs"
          />
        </Field>
        {kind === "emi" && emiPaise ? (
          <div>
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                name={fields.prepay.name}
                value="on"
                className="mt-1 size-5 shrink-0"
                aria-describedby={fields.prepay.errorId}
              />
              <span>
                Prepay principal with what is left after the dues (at least one EMI, {formatRupees(emiPaise)}): the loan ends sooner and the
                EMI stays the same.
              </span>
            </label>
            <div id={fields.prepay.errorId} className="field-error" aria-live="polite">
              {fields.prepay.errors?.join(" ")}
            </div>
          </div>
        ) : null}
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          Continue to payment
        </button>
        <p className="text-sm text-slate-600">You pay on the payment service's own secure page and come back here.</p>
      </Form>
    </section>
  );
}

export default function Loan({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const s = d.summary;
  const open = s.status === "active";
  const base = `/User/Loans/${s.loanNumber}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <p>
        <Link className="link" to="/User/Loans">
          All your loans
        </Link>
      </p>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl sm:text-3xl">
          {KIND_NAME[s.kind]} <span className="font-mono">{s.loanNumber}</span>
        </h1>
        <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800">{STATUS_TEXT[s.status].label}</span>
      </div>

      <section aria-labelledby="summary-title" className="card space-y-4">
        <h2 id="summary-title" className="sr-only">
          Summary
        </h2>
        {s.overduePaise > 0 ? (
          <p role="status" className="rounded-lg bg-danger-50 p-3 font-medium text-danger-600">
            {formatRupees(s.overduePaise)} is overdue, {s.dpd} {s.dpd === 1 ? "day" : "days"} past the due date.
            {s.penalDuePaise > 0 ? ` Penal charges of ${formatRupees(s.penalDuePaise)} are also due.` : ""} Pay it now to stop further
            charges.
          </p>
        ) : null}
        {d.settlement ? (
          <p className="rounded-lg bg-brand-50 p-3">
            {d.settlement.how === "cooling_off" ? "Cancelled within the cooling-off period" : "Fully repaid and closed"} on{" "}
            {longDate(d.settlement.on)}.
            {d.refundDuePaise > 0 ? ` ${formatRupees(d.refundDuePaise)} paid over what was due will be refunded to your bank account.` : ""}
          </p>
        ) : null}
        <dl className="grid grid-cols-2 gap-3">
          <Amount label="Borrowed" paise={s.principalPaise} />
          <Amount label="Principal outstanding" paise={s.outstandingPrincipalPaise} />
          <div className="col-span-2 rounded-xl bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">Next due</dt>
            <dd className="font-semibold" data-testid="next-due">
              {nextDueText(s.nextDue)}
            </dd>
          </div>
          <Amount label="Overdue" paise={s.overduePaise} tone={s.overduePaise > 0 ? "danger" : undefined} />
          {s.penalDuePaise > 0 ? <Amount label="Penal charges due" paise={s.penalDuePaise} tone="danger" /> : null}
          {d.advancePaise > 0 ? <Amount label="Advance payment held" paise={d.advancePaise} /> : null}
        </dl>
        <p className="text-sm text-slate-600">
          Disbursed {longDate(s.disbursalDate)}.{" "}
          {s.kind === "emi"
            ? `${(d.rateBps / 100).toFixed(2)}% a year, ${d.tenure} monthly instalments.`
            : `${(d.rateBps / 100).toFixed(2)}% a day, repaid in one payment.`}
        </p>
      </section>

      {open && d.options ? <PayNow options={d.options} emiPaise={d.emiPaise} kind={s.kind} lastResult={actionData} /> : null}

      {open && d.coolingOff ? (
        <section aria-labelledby="cooling-title" className="card space-y-3">
          <h2 id="cooling-title">Changed your mind?</h2>
          <p>{coolingOffRule(d.coolingOffDays)}</p>
          <p>The cooling-off period of this loan ends on {longDate(d.coolingOff.until)}.</p>
          <MoneyRows rows={[["To exit today", formatRupees(d.coolingOff.quote.totalPaise)]]} />
          <Form method="post">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="choice" value="cooling_off" />
            <button type="submit" className="btn-secondary">
              Pay {formatRupees(d.coolingOff.quote.totalPaise)} and cancel the loan
            </button>
          </Form>
        </section>
      ) : null}

      {open && d.payoff ? (
        <section aria-labelledby="payoff-title" className="card space-y-3">
          <h2 id="payoff-title">Close the loan early</h2>
          <p>Closing early has no charge: you pay the principal and the interest only for the days used.</p>
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <Field id="payoff-on" label="Payoff on" errors={d.quote?.error ? [d.quote.error] : undefined} errorId="payoff-on-error">
              <input
                id="payoff-on"
                name="on"
                type="date"
                className="field-input"
                min={d.today}
                max={addDays(d.today, PAYOFF_DAYS_AHEAD)}
                defaultValue={d.quote?.on ?? d.today}
                aria-invalid={d.quote?.error ? true : undefined}
                aria-describedby="payoff-on-error"
              />
            </Field>
            <button type="submit" className="btn-secondary">
              Show the amount
            </button>
          </Form>
          <div aria-live="polite">
            {d.quote?.quote ? (
              <div>
                <h3>To close on {longDate(d.quote.quote.on)}</h3>
                <QuoteRows quote={d.quote.quote} advancePaise={d.quote.advancePaise} />
              </div>
            ) : !d.quote ? (
              <div>
                <h3>To close today</h3>
                <QuoteRows quote={d.payoff.quote} advancePaise={d.payoff.advancePaise} />
              </div>
            ) : null}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="schedule-title" className="card space-y-3">
        <h2 id="schedule-title">Repayment schedule</h2>
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-2">
                #
              </th>
              <th scope="col" className="py-2 pr-2">
                Due on
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                Amount
              </th>
              <th scope="col" className="py-2">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {d.instalments.map((r) => {
              const paid = r.paidPrincipalPaise + r.paidInterestPaise;
              const late = r.status === "overdue" || r.status === "partly_paid";
              return (
                <tr key={r.seq} className="border-b border-slate-100">
                  <td className="py-2 pr-2">{r.seq}</td>
                  <td className="py-2 pr-2">{longDate(r.dueDate)}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">
                    {r.status === "closed_early" ? "—" : formatRupees(r.principalPaise + r.interestPaise)}
                  </td>
                  <td className={late ? "py-2 font-medium text-danger-600" : "py-2"} data-testid={`instalment-${r.seq}-status`}>
                    {INSTALMENT_STATUS_LABEL[r.status]}
                    {r.status === "partly_paid" ? <span className="block text-xs">{formatRupees(paid)} paid</span> : null}
                    {d.covered[r.seq] ? (
                      <span className="block text-xs">{coveredText(r.principalPaise + r.interestPaise - paid, d.covered[r.seq] ?? 0)}</span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="payments-title" className="card space-y-3">
        <h2 id="payments-title">Payments</h2>
        {d.payments.length === 0 ? (
          <p>No payments yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {d.payments.map((p) => (
              <li key={p.reference} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
                <span>
                  <span className="money">{formatRupees(p.amountPaise)}</span>{" "}
                  <span className="text-sm text-slate-600">
                    {p.businessDate ? longDate(p.businessDate) : formatDateIST(new Date(p.createdAt))}
                    {p.mode ? ` · ${p.mode}` : ""}
                  </span>
                </span>
                <span className="text-sm">
                  {p.reversed ? "Reversed" : PAYMENT_STATUS_TEXT[p.status]}
                  {p.allocation && !p.reversed && p.allocation.advancePaise > 0
                    ? ` · ${formatRupees(p.allocation.advancePaise)} kept for the next instalments`
                    : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="penal-title" className="card space-y-3">
        <h2 id="penal-title">Penal charges</h2>
        {d.penals.length === 0 ? (
          <p>None. A charge of {formatRupees(d.penalPaise)} applies only if an instalment is missed; it never earns interest.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {d.penals.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
                <span>
                  Penal charge for instalment {p.seq}, {longDate(p.businessDate)}
                </span>
                <span className="font-semibold tabular-nums">
                  {formatRupees(p.amountPaise)} · {PENAL_STATUS_TEXT[p.status]}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="loan-help-title" className="card space-y-2">
        <h2 id="loan-help-title">A question or a problem with this loan?</h2>
        <p className="text-slate-700">
          Raise a ticket about it: you get a reference at once and an answer within 30 days, usually within two working days.
        </p>
        <Link className="btn-secondary" to={`/User/Help/new?loan=${s.reference}`}>
          Raise a ticket about loan {s.loanNumber}
        </Link>
      </section>

      <section aria-labelledby="documents-title" className="card space-y-3">
        <h2 id="documents-title">Documents</h2>
        <ul className="space-y-2">
          {d.agreementRef ? (
            <li>
              <a className="link" href={`/Eagreement/${d.agreementRef}/pdf`}>
                Key Fact Statement and signed agreement (PDF)
              </a>
            </li>
          ) : null}
          {d.revisedKfs ? (
            <li>
              <a className="link" href={`${base}/revised-kfs.pdf`}>
                Revised Key Fact Statement (PDF)
              </a>
            </li>
          ) : null}
          <li>
            <a className="link" href={`${base}/schedule.pdf`}>
              Repayment schedule (PDF)
            </a>
          </li>
          {d.settlement ? (
            <li>
              <a className="link" href={`${base}/no-dues.pdf`}>
                {d.settlement.how === "cooling_off" ? "Cancellation letter (PDF)" : "No-dues certificate (PDF)"}
              </a>
            </li>
          ) : null}
        </ul>
        <Form method="get" reloadDocument className="space-y-2" aria-labelledby="statement-title">
          <h3 id="statement-title">Statement of account</h3>
          <input type="hidden" name="statement" value="1" />
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="statement-from" className="field-label">
                From
              </label>
              <input
                id="statement-from"
                name="from"
                type="date"
                className="field-input"
                defaultValue={d.statement?.from || s.disbursalDate}
                min={s.disbursalDate}
                max={d.today}
                aria-invalid={d.statementError ? true : undefined}
                aria-describedby="statement-error"
              />
            </div>
            <div>
              <label htmlFor="statement-to" className="field-label">
                To
              </label>
              <input
                id="statement-to"
                name="to"
                type="date"
                className="field-input"
                defaultValue={d.statement?.to || d.today}
                min={s.disbursalDate}
                max={d.today}
                aria-invalid={d.statementError ? true : undefined}
                aria-describedby="statement-error"
              />
            </div>
            <button type="submit" className="btn-secondary">
              Download (PDF)
            </button>
          </div>
          <p id="statement-error" className="field-error" aria-live="polite">
            {d.statementError}
          </p>
        </Form>
      </section>
    </div>
  );
}

const PAYMENT_STATUS_TEXT: Record<string, string> = {
  captured: "Received",
  pending: "Waiting for the bank",
  held: "Being checked by our team",
  failed: "Failed, nothing was taken",
  cancelled: "Stopped",
  reversed: "Reversed",
  created: "Started",
};

const PENAL_STATUS_TEXT: Record<string, string> = {
  unpaid: "unpaid",
  part_paid: "partly paid",
  paid: "paid",
  waived: "waived",
  reversed: "reversed (paid on time)",
};

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `${KIND_NAME[loaderData.summary.kind]} ${loaderData.summary.loanNumber}` : "Page not found");
