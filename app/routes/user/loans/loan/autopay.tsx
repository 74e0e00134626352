import { Form, useNavigation, useSubmit } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../../i18n/use-translations.ts";
import { useConfirm } from "../../../../components/confirm-dialog.tsx";
import { longDate, todayIST } from "../../../../domain/india-date.ts";
import { isLiveMandate } from "../../../../domain/loans/mandate.ts";
import { DEBIT_CANCELLED } from "../../../../domain/loans/autopay.ts";
import { formatRupees } from "../../../../domain/money.ts";
import { useMessageText } from "../../../../lib/use-message-text.ts";
import type { Data } from "../loan.tsx";

type Debit = Data["debits"][number];

/**
 * The loan's autopay (docs/product.md "Autopay"): the live mandate with its status and limits, a
 * way to set one up when there is none, to continue at the bank when one waits for approval, and
 * to cancel it, saying first what that means. The words are the borrower's (loanAutopay); staff
 * read app/domain/loans/mandate.ts and autopay.ts.
 */
export function Autopay({ d, open, problem }: { d: Data; open: boolean; problem: string | null }) {
  const t = useTranslations("loanAutopay");
  const language = useLocale();
  const say = useMessageText();
  const confirm = useConfirm();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const live = d.mandates.find((m) => isLiveMandate(m.status)) ?? null;
  const last = live ? null : (d.mandates[0] ?? null);
  const endedOn = last?.endedAt ? longDate(todayIST(new Date(last.endedAt)), language) : null;
  return (
    <section aria-labelledby="autopay-title" className="card space-y-3">
      <h2 id="autopay-title">{t("heading")}</h2>
      {problem ? (
        <p role="alert" className="text-red-700">
          {say(problem)}
        </p>
      ) : null}
      {live ? (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-600">{t("status")}</dt>
            <dd data-testid="autopay-status">{t(`mandateStatus.${live.status}`)}</dd>
            <dt className="text-slate-600">{t("type")}</dt>
            <dd>{t(`mandateKind.${live.kind}`)}</dd>
            <dt className="text-slate-600">{t("fromAccount")}</dt>
            <dd>
              {live.accountMasked} ({live.ifsc})
            </dd>
          </dl>
          <p className="text-slate-700">
            {t("limits", { amount: formatRupees(live.maxAmountPaise), date: longDate(live.endDate, language) })}
          </p>
          {d.nextDebit ? (
            <p className="text-slate-900" data-testid="autopay-next">
              <NextDebitText next={d.nextDebit} />
            </p>
          ) : null}
          <Debits d={d} open={open} />
          {live.status === "pending" && live.authUrl ? (
            <a className="btn-primary" href={live.authUrl}>
              {t("approveAtBank")}
            </a>
          ) : null}
          <Form
            method="post"
            className="space-y-2"
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const sure = await confirm({
                title: t("cancel.question"),
                description: t("cancel.meaning"),
                confirmLabel: t("cancel.confirm"),
                cancelLabel: t("cancel.keep"),
                danger: true,
              });
              if (sure) void submit(form);
            }}
          >
            <p className="text-slate-700">{t("cancel.meaning")}</p>
            <input type="hidden" name="intent" value="autopay_cancel" />
            <button type="submit" className="btn-secondary" disabled={busy}>
              {t("cancel.button")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <Debits d={d} open={open} />
          {last ? (
            <p className="text-slate-700">
              {last.status === "rejected"
                ? endedOn
                  ? t("ended.rejectedOn", { date: endedOn })
                  : t("ended.rejected")
                : endedOn
                  ? t("ended.cancelledOn", { date: endedOn })
                  : t("ended.cancelled")}
            </p>
          ) : null}
          {!open ? null : d.autopayOffered ? (
            <Form method="post" className="space-y-2">
              <p className="text-slate-700">{t("offer")}</p>
              <button type="submit" name="intent" value="autopay_start" className="btn-primary" disabled={busy}>
                {t("setUp")}
              </button>
            </Form>
          ) : (
            <p className="text-slate-700">{t("notOffered")}</p>
          )}
        </>
      )}
    </section>
  );
}

/** The next debit before its notice (`nextDebit` of app/domain/loans/autopay.ts), a whole sentence. */
function NextDebitText({ next }: { next: NonNullable<Data["nextDebit"]> }) {
  const t = useTranslations("loanAutopay");
  const language = useLocale();
  const due = longDate(next.due, language);
  switch (next.case) {
    case "advance":
      return t("next.advance", { due });
    case "tooClose":
      return t("next.tooClose", { due });
    case "capped":
      return t("next.capped", {
        amount: formatRupees(next.amountPaise),
        on: longDate(next.on, language),
        due,
        rest: formatRupees(next.restPaise),
      });
    case "full":
      return t("next.full", { amount: formatRupees(next.amountPaise), on: longDate(next.on, language), due });
  }
}

/** One debit, a whole sentence for each state; a reason the bank gave is shown in its own words. */
function DebitText({ debit }: { debit: Debit }) {
  const t = useTranslations("loanAutopay");
  const language = useLocale();
  const values = { amount: formatRupees(debit.amountPaise), date: longDate(debit.presentOn, language) };
  switch (debit.status) {
    case "notified":
      return t("debits.notified", values);
    case "presenting":
    case "in_progress":
      return t("debits.inProgress", values);
    case "succeeded":
      return t("debits.succeeded", values);
    case "bounced":
      return debit.reason ? t("debits.bouncedReason", { ...values, reason: debit.reason }) : t("debits.bounced", values);
    case "cancelled":
      if (debit.reason === DEBIT_CANCELLED.paid) return t("debits.notPresentedPaid", values);
      if (debit.reason === DEBIT_CANCELLED.mandateEnded) return t("debits.notPresentedMandateEnded", values);
      if (debit.reason === DEBIT_CANCELLED.loanEnded) return t("debits.notPresentedLoanEnded", values);
      return debit.reason ? t("debits.notPresentedReason", { ...values, reason: debit.reason }) : t("debits.notPresented", values);
  }
}

/** What happens to a debit's excess (one that paid an instalment already paid), a whole sentence; null when it has none. */
function useExcessText(): (debit: Debit) => string | null {
  const t = useTranslations("loanAutopay");
  const language = useLocale();
  return (debit) => {
    if (debit.excessPaise <= 0) return null;
    const values = { amount: formatRupees(debit.excessPaise), date: longDate(debit.presentOn, language) };
    switch (debit.excessChoice) {
      case null:
        return t("excess.undecided", { ...values, refundOn: longDate(debit.excessRefundOn ?? debit.presentOn, language) });
      case "keep":
        return t("excess.keep", values);
      case "refund":
        return t("excess.refund", values);
      case "none":
        return t("excess.none", values);
    }
  };
}

/**
 * The loan's recent autopay debits, newest first, each in one sentence; one that paid an instalment
 * already paid says what happens to that money, and until its refund day lets the borrower keep it
 * as an advance or have it refunded now.
 */
function Debits({ d, open }: { d: Data; open: boolean }) {
  const t = useTranslations("loanAutopay");
  const excessText = useExcessText();
  const busy = useNavigation().state !== "idle";
  if (d.debits.length === 0) return null;
  return (
    <div>
      <h3 className="text-base font-semibold">{t("debits.heading")}</h3>
      <ul className="mt-1 space-y-2 text-slate-700" data-testid="autopay-debits">
        {d.debits.slice(0, 6).map((debit) => {
          const excess = excessText(debit);
          return (
            <li key={debit.id}>
              <DebitText debit={debit} />
              {excess ? (
                <p className="mt-1 text-slate-900" data-testid="autopay-excess">
                  {excess}
                </p>
              ) : null}
              {excess && open && debit.excessChoice === null ? (
                <Form method="post" className="mt-2 flex flex-wrap gap-2">
                  <input type="hidden" name="debit" value={debit.reference} />
                  <button type="submit" name="intent" value="excess_keep" className="btn-secondary" disabled={busy}>
                    {t("excess.keepButton")}
                  </button>
                  <button type="submit" name="intent" value="excess_refund" className="btn-secondary" disabled={busy}>
                    {t("excess.refundButton")}
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
