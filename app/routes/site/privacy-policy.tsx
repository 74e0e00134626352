import { useTranslations } from "../../i18n/use-translations.ts";
import { code, linkTo, mailLink, strong, telLink } from "../../lib/rich-text.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/privacy-policy";
import { CONSENT_PURPOSES } from "../../domain/privacy/consent-purposes.ts";
import {
  ANSWER_WITHIN_DAYS,
  BREACH_REPORT_HOURS,
  DATA_ITEM_IDS,
  RECIPIENT_KIND_IDS,
  RETENTION_YEARS,
} from "../../domain/privacy/notice-facts.ts";

// What is collected and why, and who it may go to, are the "notice" namespace's (shared with the
// collection notice); the numbers are app/domain/privacy/notice.ts's, so the policy says what the
// code does (tests/integration/data-rights.test.ts).
export function loader({ context }: Route.LoaderArgs) {
  return { messages: pageMessages(context, ["privacyPolicy", "notice"]), meta: pageMetaText(context, "privacyPolicy") };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

export default function PrivacyPolicy() {
  const config = usePublicConfig();
  const t = useTranslations("privacyPolicy");
  const notice = useTranslations("notice");
  const officer = config?.lender.grievanceOfficer;
  return (
    <article className="prose-page px-4 py-10">
      <h1>{t("heading")}</h1>
      <p>{t("intro", { lender: config?.lender.name ?? "", brand: config?.brandName ?? "" })}</p>

      <h2>{t("collect.heading")}</h2>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("collect.region")}>
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{t("collect.caption")}</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-4">
                {t("collect.data")}
              </th>
              <th scope="col" className="py-2">
                {t("collect.why")}
              </th>
            </tr>
          </thead>
          <tbody>
            {DATA_ITEM_IDS.map((id) => (
              <tr key={id} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-2 pr-4 font-medium">
                  {notice(`items.${id}.what`)}
                </th>
                <td className="py-2">{notice(`items.${id}.why`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>{t("never.heading")}</h2>
      <p>{t("never.body")}</p>

      <h2>{t("consent.heading")}</h2>
      <p>{t("consent.body")}</p>
      <ul>
        {CONSENT_PURPOSES.map((purpose) => (
          <li key={purpose}>{t.rich(`consent.${purpose}`, { strong })}</li>
        ))}
      </ul>

      <h2>{t("share.heading")}</h2>
      <p>{t("share.intro")}</p>
      <ul>
        {RECIPIENT_KIND_IDS.map((kind) => (
          <li key={kind}>{notice(`recipients.${kind}`)}</li>
        ))}
      </ul>
      <p>{t("share.body")}</p>

      <h2>{t("keep.heading")}</h2>
      <ul>
        <li>{t("keep.india")}</li>
        <li>{t("keep.encrypted")}</li>
        <li>
          {t("keep.retention", { kycYears: String(RETENTION_YEARS.kyc), loanYears: String(RETENTION_YEARS.loan) })} {t("keep.erasure")}
        </li>
      </ul>

      <h2>{t("breach.heading")}</h2>
      <p>{t("breach.body", { hours: String(BREACH_REPORT_HOURS) })}</p>

      <h2>{t("cookies.heading")}</h2>
      <p>{t.rich("cookies.body", { code, link: linkTo("/ClearCache") })}</p>

      <h2>{t("rights.heading")}</h2>
      <p>{t("rights.intro")}</p>
      <ul>
        <li>{t("rights.download")}</li>
        <li>{t("rights.correct")}</li>
        <li>{t("rights.erase")}</li>
        <li>{t("rights.nominee")}</li>
        <li>{t("rights.consent")}</li>
      </ul>
      <p>
        {t("rights.answerWithin", { days: String(ANSWER_WITHIN_DAYS) })}{" "}
        {t.rich("rights.complain", {
          officer: officer?.name ?? "",
          emailAddress: officer?.email ?? "",
          phoneNumber: officer?.phone ?? "",
          email: mailLink(officer?.email ?? ""),
          phone: telLink(officer?.phone ?? ""),
        })}{" "}
        {t.rich("rights.seeAlso", { link: linkTo("/grievance-policy") })} {t("rights.board")}
      </p>
    </article>
  );
}
