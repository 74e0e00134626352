// The quick start's one operation: saving a step's answers (parsed by the
// step's own schema in the route) and moving the borrower's progress.
import { eq, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type LoanKind, shortReference } from "../../domain/loans/application.ts";
import { msg } from "../../i18n/form-message.ts";
import { CONSENT_STEP, OFFER_STEP, quickStepAllowed, quickStepPath, resumeStep } from "../../domain/quick-start.ts";
import { DEFAULT_OFFER_TENURE, type QuickStepAnswers, type QuickStepNumber, startingAmount } from "../../domain/quick-start-schemas.ts";
import { accepted } from "../../domain/validators/form-rules.ts";
import type { Db } from "../db/client.ts";
import { borrowerEmployment, borrowerProfiles, quickStarts } from "../db/schema.ts";
import { loadConsents, recordConsents, saveIdentity } from "../kyc/profile.server.ts";
import { saveExistingEmis, saveIncome, savePinCode } from "../kyc/sections.server.ts";
import { offerFor, saveTerms } from "../loans/offer.server.ts";
import { recordEvaluation } from "../credit/judge.server.ts";
import { consentAndPull } from "../credit/pull.server.ts";
import { startApplication } from "../loans/start.server.ts";
import { type ProductOffer, quickOffer } from "./offer.server.ts";
import { backToOffer, type QuickStart, quickStartOf, recordFunnel } from "./progress.server.ts";

type Services = Pick<AppServices, "db" | "config" | "keyring" | "now">;
type PullServices = Pick<AppServices, "panVerifier" | "creditBureau" | "log" | "jobs">;

/** A step's answers, the step number telling which. */
export type StepAnswers = { [N in QuickStepNumber]: { step: N; answers: QuickStepAnswers[N] } }[QuickStepNumber];

export type SaveStepResult =
  /** Saved: on to this step, or (Step6) into the loan application it opened. */
  | { ok: true; next: { step: number } | { application: { kind: LoanKind; reference: string } } }
  /** This step cannot be saved yet: the borrower belongs on `resumeStep`. */
  | { ok: false; reason: "not_here"; resumeStep: number }
  /** Refused, with messages for the fields or the form (nothing of the step is stored). */
  | { ok: false; reason: "invalid"; fieldErrors?: Record<string, string[]>; formErrors?: string[] }
  /** Step6: something the offer depends on changed since it was taken: it is to be taken again (the progress is back at the offer). */
  | { ok: false; reason: "offer_changed" };

type Patch = Partial<
  Pick<QuickStart, "product" | "amountPaise" | "offerAmountPaise" | "tenureMonths" | "offer" | "offerAt" | "applicationId" | "continuedAt">
>;
/** What a step saved besides the profile tables: its own columns, the funnel event's facts, where to go next. */
interface Saved {
  patch?: Patch;
  product?: LoanKind | null;
  details?: Record<string, unknown>;
  next?: { application: { kind: LoanKind; reference: string } };
}
type Refused = Extract<SaveStepResult, { ok: false }>;

interface StepContext {
  services: Services;
  userId: string;
  progress: QuickStart;
  back: boolean;
  client: Client;
}

/**
 * A step's POST, in one transaction with the borrower's progress row locked
 * (two tabs queue; the step is checked again under the lock): the answers go
 * into the profile tables with the sections' own rules, then the progress
 * moves. Continue makes the step done and goes on; Back saves the same way
 * without marking it done and goes back. An answer before the offer that
 * changes what the offer is worked out from sends a borrower who had taken
 * it back to the offer.
 */
export async function saveQuickStep(
  services: Services & PullServices,
  input: StepAnswers & { userId: string; back: boolean; client: Client },
): Promise<SaveStepResult> {
  const saved = await saveInTransaction(services, input);
  // Step4's consent: the PAN and the bureau are asked now, after the answers are kept (never inside
  // the transaction: the bureau may take seconds). Unanswered in time, Step5 says an SMS will follow.
  if (saved.ok && input.step === 4 && !input.back && input.answers.consentBureau) {
    await consentAndPull(services, { userId: input.userId, client: input.client, then: quickStepPath(OFFER_STEP) });
  }
  return saved;
}

async function saveInTransaction(
  services: Services,
  input: StepAnswers & { userId: string; back: boolean; client: Client },
): Promise<SaveStepResult> {
  const { userId, step, back } = input;
  await quickStartOf(services, userId);
  return services.db.transaction(async (tx) => {
    const [progress] = await tx.select().from(quickStarts).where(eq(quickStarts.userId, userId)).for("update");
    if (!progress) throw new Error("quick start row missing");
    if (!quickStepAllowed(step, progress.completedSteps))
      return { ok: false, reason: "not_here", resumeStep: resumeStep(progress.completedSteps) };
    const ctx: StepContext = { services: { ...services, db: tx }, userId, progress, back, client: input.client };
    const before = step < OFFER_STEP ? await offerInputs(tx, userId, progress) : null;
    const saved = await saveAnswers(ctx, input);
    if ("ok" in saved) return saved;
    const after = before === null ? null : await offerInputs(tx, userId, { ...progress, ...saved.patch });
    await completeQuickStep(ctx, step, saved, { advance: !back, offerChanged: before !== after });
    if (back) return { ok: true, next: { step: step - 1 } };
    return { ok: true, next: saved.next ?? { step: step + 1 } };
  });
}

/** Each step's own saving. */
async function saveAnswers(ctx: StepContext, input: StepAnswers): Promise<Saved | Refused> {
  const { services, userId } = ctx;
  switch (input.step) {
    case 0:
      return { patch: { product: input.answers.product, amountPaise: input.answers.amountPaise }, product: input.answers.product };
    case 1: {
      const saved = await saveIdentity(services, { userId, input: input.answers });
      return saved.ok ? {} : { ok: false, reason: "invalid", fieldErrors: saved.fieldErrors };
    }
    case 2: {
      const saved = await savePinCode(services, { userId, pincode: input.answers.pincode });
      return saved.ok ? {} : { ok: false, reason: "invalid", fieldErrors: saved.fieldErrors };
    }
    case 3:
      await saveIncome(services, { userId, input: input.answers });
      return {};
    case 4:
      // Step3 (work and income) creates the row; without it, that step first.
      if (!(await saveExistingEmis(services, { userId, existingEmiPaise: input.answers.existingEmis }))) {
        return { ok: false, reason: "not_here", resumeStep: 3 };
      }
      return {};
    case 5:
      return takeOffer(ctx, input.answers);
    case 6:
      return consentAndContinue(ctx, input.answers);
  }
}

/** Step5: the product taken from the offer at the tenure shown, with the amount it starts at (kept with the policy's table). */
async function takeOffer({ services, userId, progress }: StepContext, answers: QuickStepAnswers[5]): Promise<Saved | Refused> {
  const result = await quickOffer(services, { userId, tenureMonths: answers.tenure ?? progress.tenureMonths ?? DEFAULT_OFFER_TENURE });
  if (!result.ok) return { ok: false, reason: "invalid", fieldErrors: { product: [msg("applyQuick.errors.moreDetails")] } };
  const chosen = result.offers[answers.product];
  const amountPaise = startingAmount(chosen, progress.amountPaise);
  if (!chosen.eligible || amountPaise === null) {
    return {
      ok: false,
      reason: "invalid",
      fieldErrors: {
        product: [msg("applyQuick.errors.notOffered", { kind: answers.product }), ...chosen.reasons.map((r) => r.message)],
      },
    };
  }
  const at = services.now();
  const judged = result.judged[answers.product];
  await recordEvaluation(services.db, {
    userId,
    stage: "quick_start_offer",
    verdict: judged.verdict,
    bureauReference: judged.bureauReference,
    at,
  });
  const { judged: _judged, ...shown } = result;
  return {
    product: answers.product,
    details: { amountPaise },
    patch: {
      product: answers.product,
      // The amount asked was for the other product: Step0 now shows this one with its starting amount.
      ...(answers.product !== progress.product ? { amountPaise } : {}),
      offerAmountPaise: amountPaise,
      tenureMonths: result.tenureMonths,
      offerAt: at,
      // The next Continue applies this offer to the application.
      continuedAt: null,
      offer: { ...shown, chosen: answers.product, amountPaise, computedAt: at.toISOString() },
    },
  };
}

/** Step6: the consents logged, then (Continue) on into the loan application of the product taken. */
async function consentAndContinue(ctx: StepContext, answers: QuickStepAnswers[6]): Promise<Saved | Refused> {
  const { services, userId, client } = ctx;
  const before = await loadConsents(services, userId);
  await recordConsents(services, {
    userId,
    wanted: { kyc: true, communications: accepted(answers.consentCommunications) },
    before,
    client,
  });
  if (ctx.back) return {};
  const result = await continueToApplication(ctx);
  if (!result.ok && result.why === "stale") {
    // The answers, the profile or the product terms changed since the offer: it is worked out and shown again.
    await backToOffer(services, userId);
    return { ok: false, reason: "offer_changed" };
  }
  if (!result.ok && result.why === "not_open") {
    return { ok: false, reason: "invalid", formErrors: result.reasons.map((r) => r.message) };
  }
  if (!result.ok) {
    const a = result.application;
    return {
      ok: false,
      reason: "invalid",
      formErrors: [msg("applyQuick.errors.alreadyApplied", { kind: a.product, reference: shortReference(a.reference), status: a.status })],
    };
  }
  const { application } = result;
  const at = services.now();
  await recordFunnel(services, {
    userId,
    event: "continued",
    step: CONSENT_STEP,
    product: application.product,
    details: { reference: application.reference },
    at,
  });
  return {
    product: application.product,
    patch: { applicationId: application.id, continuedAt: at },
    next: { application: { kind: application.product, reference: application.reference } },
  };
}

/**
 * The new-loan application of the product taken (the one in progress, or a
 * new draft) with the offer's amount and tenure saved as its Step0 terms.
 * `stale`: the offer is no longer what was shown (same rate and same largest
 * amount, or it is shown again); `busy`: an application of this product is
 * already past its draft.
 */
async function continueToApplication({ services, userId, progress, client }: StepContext) {
  const kind = progress.product;
  const taken = (progress.offer as { offers?: Record<string, ProductOffer> } | null)?.offers?.[kind ?? ""];
  if (!kind || !progress.offerAmountPaise || !taken) return { ok: false, why: "stale" } as const;
  const offer = await offerFor(services, { userId, kind, tenureMonths: progress.tenureMonths });
  if (!offer.ok) return { ok: false, why: "stale" } as const;
  const b = offer.bounds;
  const tenureMonths = kind === "emi" ? (progress.tenureMonths ?? b.minTenure) : null;
  const max = tenureMonths === null ? b.maxAmountPaise : (b.maxByTenure[tenureMonths] ?? 0);
  if (!offer.eligible || offer.rateBps !== taken.rateBps || max !== taken.maxAmountPaise || progress.offerAmountPaise > max) {
    return { ok: false, why: "stale" } as const;
  }
  const started = await startApplication(services, { userId, kind, client });
  if (!started.ok) return { ok: false, why: "not_open", reasons: started.reasons } as const;
  const { application } = started;
  if (application.status !== "draft") return { ok: false, why: "busy", application } as const;
  // Continuing again into the same application keeps the terms the borrower may have changed there;
  // an offer taken again at Step5 (which clears continuedAt) replaces them.
  const already = progress.continuedAt !== null && progress.applicationId === application.id;
  if (!already) await saveTerms(services, { userId, application, chosen: { amountPaise: progress.offerAmountPaise, tenureMonths }, offer });
  return { ok: true, application } as const;
}

/**
 * A step's own columns, and the progress: Continue on the first step not done
 * makes it done (with its funnel event); an answer that changes the offer
 * (given before it) sends a borrower who had taken the offer back to it.
 */
async function completeQuickStep(
  { services, userId, progress }: StepContext,
  step: number,
  saved: Saved,
  how: { advance: boolean; offerChanged: boolean },
) {
  const { db, now } = services;
  const at = now();
  const offerAgain = sql`${how.offerChanged} and ${quickStarts.completedSteps} > ${OFFER_STEP}`;
  await db
    .update(quickStarts)
    .set({
      // An offer to take again is an unfinished quick start (sign-in lands there, the dashboard points to it).
      continuedAt: sql`case when ${offerAgain} then null else ${quickStarts.continuedAt} end`,
      ...saved.patch,
      completedSteps: sql`case when ${how.advance} and ${step} >= ${quickStarts.completedSteps} then ${step + 1}
        when ${offerAgain} then ${OFFER_STEP}
        else ${quickStarts.completedSteps} end`,
      updatedAt: at,
    })
    .where(eq(quickStarts.userId, userId));
  if (how.advance) {
    await recordFunnel(services, {
      userId,
      event: "step_completed",
      step,
      product: saved.product ?? progress.product,
      details: saved.details,
      at,
    });
  }
}

/** What the offer is worked out from, as one comparable value (Step0's choice and the eligibility facts). */
async function offerInputs(db: Db, userId: string, progress: Pick<QuickStart, "product" | "amountPaise">) {
  const [profile] = await db
    .select({ dob: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  const [job] = await db
    .select({
      type: borrowerEmployment.employmentType,
      income: borrowerEmployment.netMonthlyIncomePaise,
      day: borrowerEmployment.salaryDay,
      emis: borrowerEmployment.existingEmiPaise,
    })
    .from(borrowerEmployment)
    .where(eq(borrowerEmployment.userId, userId));
  return JSON.stringify([progress.product, progress.amountPaise, profile?.dob, job?.type, job?.income, job?.day, job?.emis]);
}
