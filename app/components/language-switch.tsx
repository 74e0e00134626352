import { useId } from "react";
import { useLocation } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../i18n/use-translations.ts";
import { LANGUAGE_NAMES, LANGUAGE_SHORT, type Language, SWITCH_TO } from "../i18n/languages.ts";

/**
 * The switch to the other language: a form, so it works before JavaScript loads. /language sets the
 * cookie (and a signed-in borrower's language for messages) and brings the visitor back to this page.
 */
export function LanguageSwitch({ className = "", compact = false }: { className?: string; compact?: boolean }) {
  const t = useTranslations("common.language");
  const current = useLocale();
  const other: Language = current === "hi" ? "en" : "hi";
  const location = useLocation();
  const describedBy = useId();
  return (
    <form method="post" action="/language" aria-label={t("switchLabel")} className={className}>
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <button
        type="submit"
        name="lang"
        value={other}
        lang={other === "hi" ? "hi-IN" : "en-IN"}
        aria-describedby={describedBy}
        className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-slate-300 px-2 py-1.5 text-sm font-semibold whitespace-nowrap text-slate-800 hover:bg-slate-100 sm:px-2.5"
        data-testid="language-switch"
      >
        {/* A phone's header is narrow: the language's short name there, its whole name from a tablet up
            (`compact`, a header with more in it: from a laptop up). The button's name is what it shows
            (WCAG 2.5.3, label in name); what it does is its description. */}
        <span className={compact ? "lg:hidden" : "sm:hidden"}>{LANGUAGE_SHORT[other]}</span>
        <span className={compact ? "hidden lg:inline" : "hidden sm:inline"}>{LANGUAGE_NAMES[other]}</span>
      </button>
      <span id={describedBy} lang={other === "hi" ? "hi-IN" : "en-IN"} className="sr-only">
        {SWITCH_TO[other]}
      </span>
    </form>
  );
}
