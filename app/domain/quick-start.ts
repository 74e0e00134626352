/**
 * The public quick start (docs/product.md "Quick start"): after the mobile code, seven steps
 * (Step0 … Step6). Steps are done in order; the first one not done is where a
 * visitor resumes, and a later one sends them back to it. The step forms'
 * schemas are in quick-start-schemas.ts (this module loads no Zod: the landing page and the
 * dashboard use it).
 */

export const QUICK_STEPS = [
  { title: "Loan and amount", short: "Loan" },
  { title: "About you", short: "You" },
  { title: "Where you live", short: "PIN" },
  { title: "Work and income", short: "Income" },
  { title: "Existing EMIs", short: "EMIs" },
  { title: "Your offer", short: "Offer" },
  { title: "Consents", short: "Consent" },
] as const;
export const QUICK_STEP_COUNT = QUICK_STEPS.length;
/** The offer step: changing an answer before it means the offer is shown (and accepted) again. */
export const OFFER_STEP = 5;
export const CONSENT_STEP = 6;

export const quickStepPath = (step: number) => `/quickStart/Step${step}`;

/** The step a visitor belongs on: the first not done (the last one once all are done). */
export const resumeStep = (completed: number) => Math.min(completed, QUICK_STEP_COUNT - 1);

/**
 * The step an unfinished quick start resumes at: begun (its row exists once a
 * step page was opened) and not yet continued into an application (or sent
 * back to the offer since); null otherwise.
 */
export const unfinishedStep = (progress: { completedSteps: number; continuedAt: Date | null } | null) =>
  progress && !progress.continuedAt ? resumeStep(progress.completedSteps) : null;

/** May step `step` be shown when `completed` steps are done? Only those up to the first not done. */
export const quickStepAllowed = (step: number, completed: number) => step >= 0 && step < QUICK_STEP_COUNT && step <= completed;

/** Back from a step left empty just goes back (there is nothing to keep); anything typed is checked and kept. */
export function untouched(formData: FormData): boolean {
  for (const [name, value] of formData) if (name !== "intent" && typeof value === "string" && value.trim() !== "") return false;
  return true;
}

/** What the quick-start funnel records (the reports count these). */
export type FunnelEvent = "step_viewed" | "step_completed" | "offer_shown" | "continued";
