import { Link } from "../lib/link.tsx";
import { useTranslations } from "../i18n/use-translations.ts";
import { DATA_ITEM_IDS } from "../domain/privacy/notice-facts.ts";
import { usePublicConfig } from "../root.tsx";

/**
 * The notice before any personal data is asked (docs/product.md "Data rights"): what is collected
 * and why, and the borrower's rights, in the page's language (the header's switch changes it).
 * The page's loader sends the "notice" namespace.
 */
export function CollectionNotice({ className = "" }: { className?: string }) {
  const config = usePublicConfig();
  const t = useTranslations("notice");
  return (
    <section aria-label={t("label")} className={`rounded-2xl border border-slate-200 bg-white p-4 text-sm ${className}`}>
      <details className="group py-1" data-testid="collection-notice">
        <summary className="cursor-pointer py-2 font-semibold text-slate-900">{t("title")}</summary>
        <div className="space-y-3 pb-2 text-slate-700">
          <p>{t("intro", { lender: config?.lender.name ?? "", brand: config?.brandName ?? "" })}</p>
          <dl className="space-y-2">
            {DATA_ITEM_IDS.map((id) => (
              <div key={id}>
                <dt className="font-medium text-slate-900">{t(`items.${id}.what`)}</dt>
                <dd>{t(`items.${id}.why`)}</dd>
              </div>
            ))}
          </dl>
          <p>{t("rights")}</p>
          <p>
            <Link className="link" to="/privacy-policy">
              {t("policyLink")}
            </Link>
          </p>
        </div>
      </details>
    </section>
  );
}
