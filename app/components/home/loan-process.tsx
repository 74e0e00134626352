import { useTranslations } from "../../i18n/use-translations.ts";
import type { HomeData } from "../../domain/home.ts";
import { srOnly } from "../../lib/rich-text.tsx";

/** The steps in order, by their messages (`home.process.{step}.title` and `.text`). */
const STEPS = ["signIn", "about", "offer", "kyc", "sign", "disbursal"] as const;

export function LoanProcessSection(_props: HomeData) {
  const t = useTranslations("home.process");
  return (
    <section id="loan-process" aria-labelledby="process-title" className="scroll-mt-4 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="process-title">{t("heading")}</h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step} className="card flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
              >
                {i + 1}
              </span>
              <div>
                <h3>{t.rich("stepHeading", { number: String(i + 1), title: t(`${step}.title`), hidden: srOnly })}</h3>
                <p className="mt-1 text-slate-700">{t(`${step}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
