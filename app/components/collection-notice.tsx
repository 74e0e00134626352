import { Link } from "react-router";
import { DATA_ITEMS, type NoticeLanguage, NOTICE_TEXT, noticeSentence } from "../domain/privacy/notice.ts";
import { usePublicConfig } from "../root.tsx";

/**
 * The notice before any personal data is asked (docs/product.md "Data rights"): what is collected
 * and why, and the borrower's rights, in English and in Hindi, each whole, each openable on its own.
 */
export function CollectionNotice({ className = "" }: { className?: string }) {
  const config = usePublicConfig();
  const names = { lender: config?.lender.name ?? "", brand: config?.brandName ?? "" };
  return (
    <section aria-label="Notice on personal data" className={`rounded-2xl border border-slate-200 bg-white p-4 text-sm ${className}`}>
      {(["en", "hi"] as const).map((language) => (
        <NoticeIn key={language} language={language} names={names} />
      ))}
    </section>
  );
}

function NoticeIn({ language, names }: { language: NoticeLanguage; names: { lender: string; brand: string } }) {
  const text = NOTICE_TEXT[language];
  return (
    <details lang={language} className="group py-1" data-testid={`collection-notice-${language}`}>
      <summary className="cursor-pointer py-2 font-semibold text-slate-900">{text.title}</summary>
      <div className="space-y-3 pb-2 text-slate-700">
        <p>{noticeSentence(text.intro, names)}</p>
        <dl className="space-y-2">
          {DATA_ITEMS.map((item) => (
            <div key={item.id}>
              <dt className="font-medium text-slate-900">{item[language].what}</dt>
              <dd>{item[language].why}</dd>
            </div>
          ))}
        </dl>
        <p>{text.rights}</p>
        <p>
          <Link className="link" to="/privacy-policy">
            {text.policyLink}
          </Link>
        </p>
      </div>
    </details>
  );
}
