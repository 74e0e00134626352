import { useTranslations } from "../../i18n/use-translations.ts";
import { linkTo, strong } from "../../lib/rich-text.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/about";

export function loader({ context }: Route.LoaderArgs) {
  return { messages: pageMessages(context, ["about"]), meta: pageMetaText(context, "about") };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

export default function About() {
  const config = usePublicConfig();
  const t = useTranslations("about");
  const brand = config?.brandName ?? "";
  const lender = config?.lender;
  return (
    <article className="prose-page px-4 py-10">
      <h1>{t("heading", { brand })}</h1>
      <p>{t("intro", { brand, lender: lender?.name ?? "" })}</p>
      <dl className="card grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-semibold">{t("facts.lender")}</dt>
        <dd>{lender?.name}</dd>
        <dt className="font-semibold">{t("facts.rbiRegistration")}</dt>
        <dd>{lender?.rbiRegistration}</dd>
        <dt className="font-semibold">{t("facts.cin")}</dt>
        <dd>{lender?.cin}</dd>
        <dt className="font-semibold">{t("facts.office")}</dt>
        <dd>{lender?.address}</dd>
      </dl>

      <h2>{t("offer.heading")}</h2>
      <ul>
        <li>{t.rich("offer.emi", { strong })}</li>
        <li>{t.rich("offer.salaryAdvance", { strong })}</li>
      </ul>
      <p>{t("offer.published")}</p>

      <h2>{t("how.heading")}</h2>
      <ul>
        <li>{t("how.apply")}</li>
        <li>{t("how.rules")}</li>
        <li>{t("how.kfs")}</li>
        <li>{t("how.sign")}</li>
        <li>{t("how.verify")}</li>
      </ul>

      <h2>{t("commitments.heading")}</h2>
      <ul>
        <li>{t("commitments.hidden")}</li>
        <li>{t("commitments.penal")}</li>
        <li>{t("commitments.early")}</li>
        <li>{t("commitments.access")}</li>
        <li>{t.rich("commitments.grievance", { link: linkTo("/grievance-policy") })}</li>
      </ul>
      <p>
        {t.rich("more", {
          privacy: linkTo("/privacy-policy"),
          contact: linkTo("/Contact-us"),
        })}
      </p>
    </article>
  );
}
