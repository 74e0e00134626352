import { Form } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../i18n/use-translations.ts";
import { formatDateTimeIST, longDate } from "../domain/india-date.ts";
import type { ConsentPurpose } from "../domain/privacy/consents.ts";
import { RETENTION_YEARS } from "../domain/privacy/notice.ts";
import { type DataRequestKind, type DataRequestStatus, type ErasurePlanItem, keptUntil } from "../domain/privacy/requests.ts";

// The borrower's parts say their words from the "privacyRights" and "consents" namespaces, which
// the privacy page loads; ErasurePlanList, read by compliance on a staff page, keeps the plan's
// English words as it was stored.

interface ConsentState {
  purpose: ConsentPurpose;
  granted: boolean | null;
  at: string | null;
}

/** Each consent: what it allows, its state, what withdrawing does, and one button to change it. */
export function ConsentList({ consents }: { consents: readonly ConsentState[] }) {
  const t = useTranslations("privacyRights");
  const words = useTranslations("consents");
  const language = useLocale();
  return (
    <ul className="space-y-4">
      {consents.map((c) => {
        const given = c.granted === true;
        const date = formatDateTimeIST(new Date(c.at ?? 0), language);
        return (
          <li key={c.purpose} className="rounded-xl border border-slate-200 p-4" data-testid={`consent-${c.purpose}`}>
            <h3 className="text-lg font-semibold">{words(`${c.purpose}.title`)}</h3>
            <p className="mt-1">{words(`${c.purpose}.allows`)}</p>
            <p className="mt-2 font-medium" data-testid={`consent-${c.purpose}-state`}>
              {c.granted === null ? t("consents.notGiven") : given ? t("consents.givenOn", { date }) : t("consents.withdrawnOn", { date })}
            </p>
            {given ? (
              <p className="mt-2 text-sm text-slate-700">
                <span className="font-semibold">{t("consents.ifWithdrawn")} </span>
                {words(`${c.purpose}.withdrawEffect`)}
              </p>
            ) : (
              <p className="mt-2 text-sm text-slate-700">{words(`${c.purpose}.giveAgain`)}</p>
            )}
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="consent" />
              <input type="hidden" name="purpose" value={c.purpose} />
              <input type="hidden" name="granted" value={given ? "no" : "yes"} />
              <button type="submit" className={given ? "btn-secondary" : "btn-primary"}>
                {given ? words(`${c.purpose}.withdrawButton`) : words(`${c.purpose}.giveButton`)}
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}

/** What an erasure erases and keeps, and why and until when: in the plan's English words (compliance's page). */
export function ErasurePlanList({ plan }: { plan: readonly ErasurePlanItem[] }) {
  return (
    <ul className="space-y-3" data-testid="erasure-plan">
      {plan.map((item) => (
        <li key={item.group} className="rounded-xl border border-slate-200 p-3">
          <p className="font-semibold">{item.action === "erase" ? "Erased" : "Kept"}</p>
          <p>{item.what}</p>
          {item.action === "keep" ? (
            <>
              <p className="mt-1 text-sm text-slate-700">{item.why}</p>
              <p className="mt-1 text-sm font-medium">{keptUntil(item.until)}</p>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The same plan, for the borrower, in the page's language: each group's words said from its group
 * and how long it is kept (kept while a loan runs: why it runs, then the law's reason).
 */
export function YourErasurePlan({ plan }: { plan: readonly ErasurePlanItem[] }) {
  const t = useTranslations("privacyRights");
  const language = useLocale();
  const lawReason = (group: ErasurePlanItem["group"]) =>
    group === "kyc"
      ? t("plan.why.kyc", { years: String(RETENTION_YEARS.kyc) })
      : group === "loan"
        ? t("plan.why.loan", { years: String(RETENTION_YEARS.loan) })
        : "";
  const until = (kept: ErasurePlanItem["until"]) =>
    kept === "ongoing"
      ? t("plan.until.ongoing")
      : kept === "law"
        ? t("plan.until.law")
        : kept
          ? t("plan.until.date", { date: longDate(kept, language) })
          : "";
  return (
    <ul className="space-y-3" data-testid="erasure-plan">
      {plan.map((item) => (
        <li key={item.group} className="rounded-xl border border-slate-200 p-3">
          <p className="font-semibold">{item.action === "erase" ? t("plan.erased") : t("plan.kept")}</p>
          <p>{t(`plan.what.${item.group}`)}</p>
          {item.action === "keep" ? (
            <>
              <p className="mt-1 text-sm text-slate-700">
                {item.until === "ongoing" ? `${t("plan.why.ongoing")} ${lawReason(item.group)}` : lawReason(item.group)}
              </p>
              <p className="mt-1 text-sm font-medium">{until(item.until)}</p>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

interface RequestRow {
  reference: string;
  kind: DataRequestKind;
  status: DataRequestStatus;
  receivedAt: string;
  dueOn: string;
  answeredAt: string | null;
  answer: string | null;
}

/** The borrower's requests with their answer dates and answers (an answer is compliance's own words). */
export function RequestList({ requests }: { requests: readonly RequestRow[] }) {
  const t = useTranslations("privacyRights");
  const language = useLocale();
  return (
    <ul className="space-y-3">
      {requests.map((r) => (
        <li key={r.reference} className="rounded-xl border border-slate-200 p-3" data-testid={`request-${r.reference}`}>
          <p className="font-semibold">
            {t(`requestKinds.${r.kind}`)} · {r.reference}
          </p>
          <p className="text-sm text-slate-700">{t("requests.askedOn", { date: formatDateTimeIST(new Date(r.receivedAt), language) })}</p>
          <p className="text-sm font-medium">
            {r.status === "open"
              ? t("requests.open", { date: longDate(r.dueOn, language) })
              : r.status === "done"
                ? t("requests.done")
                : t("requests.refused")}
          </p>
          {r.answer ? <p className="mt-2 whitespace-pre-line">{r.answer}</p> : null}
        </li>
      ))}
    </ul>
  );
}
