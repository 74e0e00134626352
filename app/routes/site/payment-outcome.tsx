import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { useLocale, useTranslations } from "use-intl/react";
import { longDate } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { mono } from "../../lib/rich-text.tsx";

/** A payment as its outcome page shows it (outcome.tsx's loader). */
export interface PaymentOutcomeData {
  reference: string;
  status: string;
  amountPaise: number;
  businessDate: string | null;
  failureReason: string | null;
  loanHref: string;
  loanNumber: string;
}

const OUTCOMES = ["captured", "held", "failed", "cancelled", "pending", "created", "reversed"] as const;
type Outcome = (typeof OUTCOMES)[number];
/** The payment's status among those the page has words for, or null. */
export const knownOutcome = (status: string): Outcome | null => OUTCOMES.find((s) => s === status) ?? null;

/**
 * A payment's outcome, where the borrower lands back from the payment service (namespace
 * loanPayment): the server's status; while the bank has not answered, it asks again every few seconds.
 */
export function PaymentOutcome({ p }: { p: PaymentOutcomeData }) {
  const t = useTranslations("loanPayment");
  const language = useLocale();
  const waiting = p.status === "created" || p.status === "pending";
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => window.clearInterval(timer);
  }, [waiting, revalidator]);
  const outcome = knownOutcome(p.status);
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{outcome ? t(`outcome.${outcome}.title`) : t("title")}</h1>
      <section className="card space-y-3" aria-labelledby="payment-title" aria-live="polite">
        <h2 id="payment-title" className="text-xl">
          {t.rich("forLoan", { amount: formatRupees(p.amountPaise), loanNumber: p.loanNumber, mono })}
        </h2>
        {outcome ? <p>{t(`outcome.${outcome}.lead`)}</p> : null}
        {p.businessDate && p.status === "captured" ? <p>{t("countedOn", { date: longDate(p.businessDate, language) })}</p> : null}
        {p.failureReason && p.status !== "captured" ? <p className="text-slate-700">{p.failureReason}</p> : null}
        <p className="text-sm text-slate-600">{t.rich("reference", { reference: p.reference, mono })}</p>
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={p.loanHref}>
          {t("backToLoan")}
        </Link>
        {waiting ? (
          <Link className="btn-secondary" to={`/pending/${p.reference}`} reloadDocument>
            {t("checkAgain")}
          </Link>
        ) : null}
      </p>
    </div>
  );
}
