import { LenderNote } from "./lender-trust.tsx";
import type { DefaultValue, SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "../lib/link.tsx";
import { z } from "zod";
import { QUICK_STEP_COUNT, type QUICK_STEPS, quickStepPath, untouched } from "../domain/quick-start.ts";
import { useSchemaForm } from "./use-schema-form.ts";
import { useTranslations } from "../i18n/use-translations.ts";

/** The steps' keys in the catalogue (applyQuick.steps), in QUICK_STEPS' order. */
export const QUICK_STEP_KEYS = ["loan", "you", "pin", "income", "emis", "offer", "consent"] as const satisfies {
  length: typeof QUICK_STEPS.length;
};

// Its words are the "applyQuick" namespace's, which every step page loads.

/** The frame of every quick-start step: "Step n of 7", the steps (done ones are links back), the title and the content. */
export function QuickStartFrame({
  step,
  completed,
  intro,
  children,
}: {
  step: number;
  completed: number;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const t = useTranslations("applyQuick");
  const current = QUICK_STEP_KEYS[step] ?? "loan";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header>
        <p className="text-sm font-medium text-brand-700">{t("frame.label")}</p>
        <h1 className="mt-1 text-2xl sm:text-3xl">{t(`steps.${current}.title`)}</h1>
        <nav aria-label={t("frame.nav")} className="mt-4">
          <p className="text-sm text-slate-700" data-testid="quick-progress">
            {t("frame.progress", { number: String(step + 1), count: String(QUICK_STEP_COUNT) })}
          </p>
          <ol className="mt-2 grid grid-cols-7 gap-1">
            {QUICK_STEP_KEYS.map((key, i) => {
              const here = i === step;
              const label = (
                <>
                  <span
                    className={`block h-1.5 rounded-full ${i < completed || here ? "bg-brand-600" : "bg-slate-200"}`}
                    aria-hidden="true"
                  />
                  <span className={`mt-1 hidden text-xs sm:block ${here ? "font-semibold text-slate-900" : "text-slate-700"}`}>
                    {t(`steps.${key}.short`)}
                  </span>
                  <span className="sr-only">
                    {t("frame.stepLabel", {
                      number: String(i + 1),
                      title: t(`steps.${key}.title`),
                      done: i < completed && !here ? "yes" : "no",
                    })}
                  </span>
                </>
              );
              return (
                <li key={key} aria-current={here ? "step" : undefined} className={i <= completed && !here ? "" : "py-2.5 sm:py-0"}>
                  {i <= completed && !here ? (
                    <Link to={quickStepPath(i)} className="block rounded py-2.5 focus-visible:outline-2 sm:py-0">
                      {label}
                    </Link>
                  ) : (
                    label
                  )}
                </li>
              );
            })}
          </ol>
        </nav>
        {intro ? <div className="mt-4 text-slate-700">{intro}</div> : null}
      </header>
      {children}
      <LenderNote />
    </div>
  );
}

/** Back (saves this step's answers, then shows the one before; `plainBack`: just shows it) and Continue. */
export function StepButtons({ step, busy, next, plainBack }: { step: number; busy: boolean; next?: string; plainBack?: boolean }) {
  const t = useTranslations("applyQuick.frame");
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
      {plainBack ? (
        <Link to={quickStepPath(step - 1)} className="btn-secondary">
          {t("back")}
        </Link>
      ) : step > 0 ? (
        <button type="submit" name="intent" value="back" className="btn-secondary" disabled={busy} formNoValidate>
          {t("back")}
        </button>
      ) : (
        <span />
      )}
      <button type="submit" name="intent" value="next" className="btn-primary" disabled={busy}>
        {next ?? t("next")}
      </button>
    </div>
  );
}

/** A step's form: the step's schema checks in the browser as on the server (for Back too, unless the step is left empty). */
export function useStepForm<S extends z.ZodType<unknown, Record<string, unknown>>>({
  schema,
  lastResult,
  defaultValue,
}: {
  schema: S;
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue?: DefaultValue<z.input<S>>;
}) {
  return useSchemaForm<S>({
    schema: (formData) => (formData.get("intent") === "back" && untouched(formData) ? anything : schema),
    lastResult,
    defaultValue,
  });
}
const anything = z.object({}).passthrough();
