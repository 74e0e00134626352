import { Form, useNavigation } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { longDate, todayIST } from "../../../domain/india-date.ts";
import { isLiveMandate } from "../../../domain/loans/mandate.ts";
import { formatRupees } from "../../../domain/money.ts";
import { msg } from "../../../i18n/form-message.ts";
import type { Language } from "../../../i18n/languages.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import type { MandateView } from "../../../server/mandates/rows.server.ts";

const REFUSALS = ["not_offered", "already_active", "not_open", "being_set_up", "no_account", "provider_silent"] as const;

/** Why autopay could not be set up on an application, as a message key (applySteps.autopay.refused) the page says in its language. */
export function autopayRefusal(reason: string): string {
  const known = REFUSALS.find((r) => r === reason);
  return msg(`applySteps.autopay.refused.${known ?? "other"}`);
}

/**
 * Autopay before the money is paid out (docs/product.md "Autopay"): set up from the application's
 * page once it is signed; a product that requires it pays out only once it is active. The mandate's
 * words are the loan page's ("loanAutopay"), the application's own "applySteps.autopay".
 */
export function ApplicationAutopay({
  mandates,
  required,
  problem,
}: {
  mandates: readonly MandateView[];
  required: boolean;
  problem: string | null;
}) {
  const busy = useNavigation().state !== "idle";
  const t = useTranslations("loanAutopay");
  const own = useTranslations("applySteps.autopay");
  const say = useMessageText();
  const language = useLocale() as Language;
  const live = mandates.find((m) => isLiveMandate(m.status)) ?? null;
  const last = live ? null : (mandates[0] ?? null);
  const endedOn = last?.endedAt ? longDate(todayIST(new Date(last.endedAt)), language) : null;
  return (
    <section aria-labelledby="autopay-title" className="card space-y-3">
      <h2 id="autopay-title" className="text-xl">
        {t("heading")}
      </h2>
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
          {live.status === "pending" && live.authUrl ? (
            <a className="btn-primary" href={live.authUrl}>
              {t("approveAtBank")}
            </a>
          ) : null}
          {live.status === "active" && required ? <p className="text-slate-700">{own("active")}</p> : null}
        </>
      ) : (
        <Form method="post" className="space-y-2">
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
          <p className="text-slate-700">{required ? own("required") : own("optional")}</p>
          <button type="submit" name="intent" value="autopay_start" className="btn-primary" disabled={busy}>
            {t("setUp")}
          </button>
        </Form>
      )}
    </section>
  );
}
