import { LenderNote } from "./lender-trust.tsx";
import type { DefaultValue, SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { z } from "zod";
import { QUICK_STEP_COUNT, QUICK_STEPS, quickStepPath, untouched } from "../domain/quick-start.ts";
import { useSchemaForm } from "./use-schema-form.ts";

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
  const current = QUICK_STEPS[step];
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header>
        <p className="text-sm font-medium text-brand-700">Quick start</p>
        <h1 className="mt-1 text-2xl sm:text-3xl">{current?.title}</h1>
        <nav aria-label="Quick start steps" className="mt-4">
          <p className="text-sm text-slate-700" data-testid="quick-progress">
            Step {step + 1} of {QUICK_STEP_COUNT}
          </p>
          <ol className="mt-2 grid grid-cols-7 gap-1">
            {QUICK_STEPS.map((s, i) => {
              const here = i === step;
              const label = (
                <>
                  <span
                    className={`block h-1.5 rounded-full ${i < completed || here ? "bg-brand-600" : "bg-slate-200"}`}
                    aria-hidden="true"
                  />
                  <span className={`mt-1 hidden text-xs sm:block ${here ? "font-semibold text-slate-900" : "text-slate-700"}`}>
                    {s.short}
                  </span>
                  <span className="sr-only">
                    {`Step ${i + 1}: ${s.title}`}
                    {i < completed && !here ? " (done)" : ""}
                  </span>
                </>
              );
              return (
                <li key={s.title} aria-current={here ? "step" : undefined} className={i <= completed && !here ? "" : "py-2.5 sm:py-0"}>
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
export function StepButtons({
  step,
  busy,
  next = "Save and continue",
  plainBack,
}: {
  step: number;
  busy: boolean;
  next?: string;
  plainBack?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
      {plainBack ? (
        <Link to={quickStepPath(step - 1)} className="btn-secondary">
          Back
        </Link>
      ) : step > 0 ? (
        <button type="submit" name="intent" value="back" className="btn-secondary" disabled={busy} formNoValidate>
          Back
        </button>
      ) : (
        <span />
      )}
      <button type="submit" name="intent" value="next" className="btn-primary" disabled={busy}>
        {next}
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
