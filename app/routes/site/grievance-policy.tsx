import { useTranslations } from "../../i18n/use-translations.ts";
import { externalLink, linkTo, mailLink, telLink } from "../../lib/rich-text.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/grievance-policy";

export function loader({ context }: Route.LoaderArgs) {
  return { messages: pageMessages(context, ["grievancePolicy"]), meta: pageMetaText(context, "grievancePolicy") };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

export default function GrievancePolicy() {
  const config = usePublicConfig();
  const t = useTranslations("grievancePolicy");
  const officer = config?.lender.grievanceOfficer;
  const lender = config?.lender.name ?? "";
  return (
    <article className="prose-page px-4 py-10">
      <h1>{t("heading")}</h1>
      <p>{t("intro", { lender, brand: config?.brandName ?? "" })}</p>

      <h2>{t("officer.heading")}</h2>
      <address className="card not-italic">
        <p className="font-semibold">{officer?.name}</p>
        <p>{t("officer.title", { lender })}</p>
        <p>{config?.lender.address}</p>
        <p>{t.rich("officer.phone", { phoneNumber: officer?.phone ?? "", phone: telLink(officer?.phone ?? "") })}</p>
        <p>{t.rich("officer.email", { emailAddress: officer?.email ?? "", email: mailLink(officer?.email ?? "") })}</p>
      </address>

      <h2>{t("raise.heading")}</h2>
      <ul>
        <li>{t.rich("raise.how", { link: linkTo("/Contact-us") })}</li>
        <li>{t("raise.details")}</li>
        <li>{t("raise.never")}</li>
      </ul>

      <h2>{t("next.heading")}</h2>
      <ol className="list-decimal space-y-1 pl-6">
        <li>{t("next.acknowledge")}</li>
        <li>{t("next.review")}</li>
        <li>{t("next.answer")}</li>
      </ol>
      <p>{t("next.noPress")}</p>

      <h2>{t("escalate.heading")}</h2>
      <p>{t.rich("escalate.body", { link: externalLink("https://cms.rbi.org.in") })}</p>

      <h2>{t("fair.heading")}</h2>
      <ul>
        <li>{t("fair.penal")}</li>
        <li>{t("fair.polite")}</li>
        <li>{t("fair.names")}</li>
      </ul>
    </article>
  );
}
