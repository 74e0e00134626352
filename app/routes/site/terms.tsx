import { useTranslations } from "../../i18n/use-translations.ts";
import { loadProducts } from "../../server/products.server.ts";
import { servicesContext } from "../../context.ts";
import { linkTo } from "../../lib/rich-text.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { usePublicConfig } from "../../root.tsx";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);

/**
 * The cooling-off period the terms state, from the EMI loan's product (both products share the rule);
 * the terms' sentence is app/domain/loans/cooling-off.ts's rule, in the page's language.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { emi } = await loadProducts(context.get(servicesContext));
  return { coolingOffDays: emi.coolingOffDays, messages: pageMessages(context, ["terms"]), meta: pageMetaText(context, "terms") };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const config = usePublicConfig();
  const t = useTranslations("terms");
  const brand = config?.brandName ?? "";
  const lender = config?.lender.name ?? "";
  return (
    <article className="prose-page px-4 py-10">
      <h1>{t("heading")}</h1>
      <p>{t("intro", { brand, lender })}</p>

      <h2>{t("who.heading")}</h2>
      <ul>
        <li>{t("who.residents")}</li>
        <li>{t("who.income")}</li>
        <li>{t("who.salaryAdvance")}</li>
      </ul>

      <h2>{t("account.heading")}</h2>
      <ul>
        <li>{t("account.signIn")}</li>
        <li>{t("account.oneDevice")}</li>
        <li>{t("account.trueInformation")}</li>
      </ul>

      <h2>{t("loans.heading")}</h2>
      <ul>
        <li>{t("loans.disclosure")}</li>
        <li>{t("loans.penal")}</li>
        <li>{t("loans.early")}</li>
        <li>{t("loans.coolingOff", { days: loaderData.coolingOffDays })}</li>
        <li>{t("loans.ownAccount")}</li>
      </ul>

      <h2>{t("repayment.heading")}</h2>
      <p>{t("repayment.body")}</p>

      <h2>{t("website.heading")}</h2>
      <ul>
        <li>{t("website.access")}</li>
        <li>{t("website.suspend")}</li>
        <li>{t("website.general")}</li>
      </ul>

      <h2>{t("changes.heading")}</h2>
      <p>{t.rich("changes.body", { link: linkTo("/grievance-policy") })}</p>
      <p>{t.rich("privacy", { link: linkTo("/privacy-policy") })}</p>
    </article>
  );
}
