import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { requestContext, servicesContext } from "../../../context.ts";
import { addDays } from "../../../domain/loan-math.ts";
import type { LoanKind } from "../../../domain/loans/application.ts";
import { LOAN_NUMBER } from "../../../domain/loans/disbursal.ts";
import { longDate } from "../../../domain/india-date.ts";
import { payNowSchema, payOptions } from "../../../domain/loans/pay-now.ts";
import { loanPath, PAYOFF_DAYS_AHEAD, type PayoffQuote, statementRange } from "../../../domain/loans/servicing.ts";
import { msg } from "../../../i18n/form-message.ts";
import { mono } from "../../../lib/rich-text.tsx";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import { startPayment } from "../../../server/payments/start-payment.server.ts";
import { cancelMandate } from "../../../server/mandates/cancel.server.ts";
import { borrowerMandatesFromJson, mandatesColumn } from "../../../server/mandates/rows.server.ts";
import { debitsColumn, debitsFromJson } from "../../../server/mandates/debit-rows.server.ts";
import { decideExcess } from "../../../server/mandates/excess.server.ts";
import { makePromise } from "../../../server/collections/case-actions.server.ts";
import { borrowerCaseColumn, borrowerCaseFromJson } from "../../../server/collections/read.server.ts";
import { reminderLettersColumn, reminderLettersFromJson } from "../../../server/collections/letter.server.ts";
import { borrowerPromiseSchema, promiseDatesMessage } from "../../../domain/collections.ts";
import { businessToday } from "../../../server/loan-account/account.server.ts";
import { nextDebit } from "../../../domain/loans/autopay.ts";
import { daytime } from "../../../domain/notifications.ts";
import { startMandate } from "../../../server/mandates/start.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loanPageReader, payoffFor } from "../../../server/loan-account/read.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { languageOf, pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import { siteOrigin } from "../../../../server/config.ts";
import { Autopay } from "./loan/autopay.tsx";
import { PromiseToPay } from "./loan/promise.tsx";
import { CoolingOff, Payoff, PayNow } from "./loan/pay.tsx";
import { Documents, Payments, Penals, Schedule, Summary } from "./loan/sections.tsx";
import type { Route } from "./+types/loan";

/** The loan's page with its autopay, its open collections case and its reminder letters, in one statement. */
const loanPage = loanPageReader("borrower_loan_page", (applicationId) => ({
  mandates: mandatesColumn(applicationId),
  debits: debitsColumn(applicationId),
  collectionCase: borrowerCaseColumn(applicationId),
  letters: reminderLettersColumn(applicationId),
}));

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
  const language = languageOf(context);
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
          error: msg("loanPay.errors.datesAhead", {
            days: String(PAYOFF_DAYS_AHEAD),
            from: longDate(page.today, language),
            to: longDate(addDays(page.today, PAYOFF_DAYS_AHEAD), language),
          }),
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
    statementError = range.reason === "dates" ? msg("loans.errors.statementDates") : msg("loans.errors.statementRange");
  }
  const { besides, ...loan } = page;
  const payable = loan.payable;
  const mandates = borrowerMandatesFromJson(besides.mandates);
  const debits = debitsFromJson(besides.debits);
  // Before its notice, the next instalment's debit in a sentence (once announced, the debits list says it).
  const active = mandates.find((m) => m.status === "active");
  const next = page.summary.status === "active" ? page.summary.nextDue : null;
  const announced = next && debits.some((x) => x.dueDate === next.dueDate && x.status !== "cancelled");
  return {
    ...loan,
    messages: pageMessages(context, ["loans", "loanPay", "loanAutopay"]),
    meta: { title: translatorFor(context, "loans")("kindNumber", { kind: page.summary.kind, loanNumber: page.summary.loanNumber }) },
    collections: page.summary.status === "active" ? borrowerCaseFromJson(besides.collectionCase) : null,
    letters: reminderLettersFromJson(besides.letters),
    mandates,
    debits,
    nextDebit:
      active && next && !announced
        ? nextDebit({
            next,
            kind: active.kind,
            maxAmountPaise: active.maxAmountPaise,
            holidays: services.config.holidays,
            noticeAt: daytime(services.now()),
          })
        : null,
    autopayOffered: services.mandates !== null,
    quote,
    statementError,
    statement: statementError ? { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" } : null,
    options: payable ? payOptions(payable) : null,
    emiPaise: payable?.emiPaise ?? null,
  };
}

/** Why autopay could not be set up or cancelled, in the borrower's words (a message key). */
const AUTOPAY_REFUSED: Record<string, string> = {
  not_offered: msg("loanAutopay.refused.not_offered"),
  already_active: msg("loanAutopay.refused.already_active"),
  not_open: msg("loanAutopay.refused.not_open"),
  being_set_up: msg("loanAutopay.refused.being_set_up"),
  provider_unavailable: msg("loanAutopay.refused.provider_unavailable"),
  no_account: msg("loanAutopay.refused.no_account"),
  no_mandate: msg("loanAutopay.refused.no_mandate"),
  provider_silent: msg("loanAutopay.refused.provider_silent"),
};

/** Why the excess of a debit could not be kept or refunded, in the borrower's words (a message key). */
const EXCESS_REFUSED: Record<string, string> = {
  not_found: msg("loanAutopay.excessRefused.not_found"),
  already_decided: msg("loanAutopay.excessRefused.already_decided"),
  refund_in_flight: msg("loanAutopay.excessRefused.refund_in_flight"),
  no_account: msg("loanAutopay.excessRefused.no_account"),
};

/** Pay now: the order at the gateway, then off to its checkout. Autopay: set up (off to the bank) or cancelled. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const loanNumber = params.loanNumber.toUpperCase();
  if (!LOAN_NUMBER.test(loanNumber)) notFoundFullPath(request);
  const intent = form.get("intent");
  if (intent === "promise") {
    const today = businessToday(services);
    const submission = parseWithZod(form, { schema: borrowerPromiseSchema(today, languageOf(context)) });
    if (submission.status !== "success") return data({ promise: submission.reply() }, { status: 400 });
    const made = await makePromise(services, {
      by: { borrower: user.id },
      client: context.get(requestContext),
      loanNumber,
      amountPaise: submission.value.amount,
      dueOn: submission.value.dueOn,
    });
    if (!made.ok && made.reason === "not_found") notFoundFullPath(request);
    if (!made.ok)
      return data(
        {
          promise: submission.reply(
            made.reason === "too_much"
              ? { fieldErrors: { amount: [msg("loanPay.errors.promiseTooMuch")] } }
              : made.reason === "bad_date"
                ? { fieldErrors: { dueOn: [promiseDatesMessage(today, languageOf(context))] } }
                : made.reason === "promise_open"
                  ? { formErrors: [msg("loanPay.errors.promiseOpen")] }
                  : { formErrors: [msg("loanPay.errors.nothingOverdue")] },
          ),
        },
        { status: 400 },
      );
    const here = loanPath(kindOfPath(new URL(request.url)), loanNumber);
    return redirectWithToast(services.config, request, `${here}#promise-title`, {
      type: "success",
      title: translatorFor(context, "loanPay")("promise.thanks"),
    });
  }
  if (intent === "excess_keep" || intent === "excess_refund") {
    const decided = await decideExcess(services, {
      reference: String(form.get("debit") ?? ""),
      userId: user.id,
      loanNumber,
      choice: intent === "excess_keep" ? "keep" : "refund",
      client: context.get(requestContext),
    });
    if (!decided.ok && decided.reason === "not_found") notFoundFullPath(request);
    if (!decided.ok) return data({ autopay: EXCESS_REFUSED[decided.reason] ?? msg("loanAutopay.excessRefused.other") }, { status: 400 });
    const here = loanPath(kindOfPath(new URL(request.url)), loanNumber);
    const t = translatorFor(context, "loanAutopay");
    const title =
      decided.choice === "refund"
        ? t("excess.refundRequested", { amount: formatRupees(decided.amountPaise), account: decided.accountMasked })
        : decided.choice === "keep"
          ? t("excess.kept")
          : t("excess.nothingLeft");
    return redirectWithToast(services.config, request, `${here}#autopay-title`, { type: "success", title });
  }
  if (intent === "autopay_start" || intent === "autopay_cancel") {
    const client = context.get(requestContext);
    const done =
      intent === "autopay_start"
        ? await startMandate(services, { userId: user.id, loan: { loanNumber }, client, origin: siteOrigin(services.config, request) })
        : await cancelMandate(services, { loanNumber, by: { borrower: user.id }, client, reason: "Cancelled by the borrower" });
    if (!done.ok && done.reason === "not_found") notFoundFullPath(request);
    if (!done.ok) return data({ autopay: AUTOPAY_REFUSED[done.reason] ?? msg("loanAutopay.refused.other") }, { status: 400 });
    if ("authUrl" in done && typeof done.authUrl === "string") return redirect(done.authUrl);
    const here = loanPath(kindOfPath(new URL(request.url)), loanNumber);
    return redirectWithToast(services.config, request, `${here}#autopay-title`, {
      type: "success",
      title: translatorFor(context, "loanAutopay")("cancelled"),
    });
  }
  const submission = parseWithZod(form, { schema: payNowSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const started = await startPayment(services, {
    userId: user.id,
    loanNumber,
    form: submission.value,
    client: context.get(requestContext),
    origin: siteOrigin(services.config, request),
  });
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

/** What the page's sections (./loan/) are given: the loader's data, the action's answer. */
export type Data = Route.ComponentProps["loaderData"];
export type ActionData = Route.ComponentProps["actionData"];

export default function Loan({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const s = d.summary;
  const open = s.status === "active";
  const t = useTranslations("loans");
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <p>
        <Link className="link" to="/User/Loans">
          {t("allLoans")}
        </Link>
      </p>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl sm:text-3xl">{t.rich("heading", { kind: s.kind, loanNumber: s.loanNumber, mono })}</h1>
        <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800">{t(`status.${s.status}`)}</span>
      </div>

      <Summary d={d} />

      {open && d.options ? (
        <PayNow
          options={d.options}
          emiPaise={d.emiPaise}
          kind={s.kind}
          lastResult={actionData && ("autopay" in actionData || "promise" in actionData) ? undefined : actionData}
        />
      ) : null}

      {/* Keyed by the latest promise: once one is saved the form starts empty again under it. */}
      {open && d.collections ? (
        <PromiseToPay
          key={d.collections.latest?.id ?? "none"}
          d={d}
          lastResult={actionData && "promise" in actionData ? actionData.promise : undefined}
        />
      ) : null}

      {open && d.coolingOff ? <CoolingOff d={d} coolingOff={d.coolingOff} /> : null}

      {open && d.payoff ? <Payoff d={d} payoff={d.payoff} /> : null}

      {open || d.mandates.length ? (
        <Autopay d={d} open={open} problem={actionData && "autopay" in actionData ? (actionData.autopay ?? null) : null} />
      ) : null}

      <Schedule d={d} />

      <Payments d={d} />

      <Penals d={d} />

      <section aria-labelledby="loan-help-title" className="card space-y-2">
        <h2 id="loan-help-title">{t("help.heading")}</h2>
        <p className="text-slate-700">{t("help.body")}</p>
        <Link className="btn-secondary" to={`/User/Help/new?loan=${s.reference}`}>
          {t("help.raise", { loanNumber: s.loanNumber })}
        </Link>
      </section>

      <Documents d={d} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "Page not found");
