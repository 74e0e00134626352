/**
 * The quick start's progress (one row per borrower), its funnel events, and
 * the offer it shows and stores. Every query carries the owner's id; the
 * answers themselves go to the profile tables (kyc/*.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { eq, sql } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { type AppServices, requestContext, servicesContext } from "../context.ts";
import type { AmountRange, LoanKind } from "../domain/loans/application.ts";
import { type EmiOffer, eligibility, type SalaryAdvanceOffer } from "../domain/offer.ts";
import {
  OFFER_STEP,
  quickStepAllowed,
  quickStepPath,
  resumeStep,
  unfinishedStep,
  untouched,
  type FunnelEvent,
} from "../domain/quick-start.ts";
import { todayIST } from "../lib/format.ts";
import { signedInContext } from "./auth/session.server.ts";
import { redirectWithToast, type Toast } from "./flash.server.ts";
import type { Db } from "./db/client.ts";
import { borrowerEmployment, borrowerProfiles, funnelEvents, quickStarts } from "./db/schema.ts";
import { type Application, applicantFacts, kfsDates, offerFor, saveTerms, startApplication } from "./loans/applications.server.ts";
import { loadProducts, type ProductRow } from "./products.server.ts";
import { readForm } from "./forms.server.ts";

export type QuickStart = typeof quickStarts.$inferSelect;

/** How far the borrower's quick start got (null when never begun), for the dashboard. */
export async function quickStartProgress(db: Db, userId: string) {
  const [row] = await db
    .select({ completedSteps: quickStarts.completedSteps, continuedAt: quickStarts.continuedAt })
    .from(quickStarts)
    .where(eq(quickStarts.userId, userId));
  return row ?? null;
}

/**
 * Where a sign-in lands when no page was asked for (PRODUCT.md §7): the next
 * step of a quick start begun and not yet continued, otherwise the dashboard.
 */
export async function signInLanding(db: Db, userId: string) {
  const step = unfinishedStep(await quickStartProgress(db, userId));
  return step === null ? "/User/Dashboard" : quickStepPath(step);
}

/** The borrower's quick start, begun on first sight. */
export async function quickStartOf(db: Db, userId: string): Promise<QuickStart> {
  const [row] = await db.select().from(quickStarts).where(eq(quickStarts.userId, userId));
  if (row) return row;
  await db.insert(quickStarts).values({ userId }).onConflictDoNothing();
  const [created] = await db.select().from(quickStarts).where(eq(quickStarts.userId, userId));
  return created as QuickStart;
}

export async function recordFunnel(
  db: Db,
  userId: string,
  event: FunnelEvent,
  step: number | null,
  extra: { product?: LoanKind | null; details?: Record<string, unknown> } = {},
  at?: Date,
) {
  await db
    .insert(funnelEvents)
    .values({ userId, event, step, product: extra.product ?? null, details: extra.details ?? null, ...(at ? { createdAt: at } : {}) });
}

type StepArgs = { request: Request; context: Readonly<RouterContextProvider> };

/**
 * The common start of every step's loader and action: the signed-in borrower
 * (the layout's guard has checked), their progress, and a redirect to the
 * first step not done when this one is further on.
 */
export async function loadQuickStep(args: StepArgs, step: number) {
  const services = args.context.get(servicesContext);
  const { user } = args.context.get(signedInContext);
  const progress = await quickStartOf(services.db, user.id);
  if (!quickStepAllowed(step, progress.completedSteps)) throw redirect(quickStepPath(resumeStep(progress.completedSteps)));
  // A view is the page opened, not the page shown again with a form's errors.
  if (args.context.get(requestContext).method === "GET") {
    await recordFunnel(services.db, user.id, "step_viewed", step, { product: progress.product });
  }
  return { services, user, progress, today: todayIST(services.now()) };
}
export type QuickStep = Awaited<ReturnType<typeof loadQuickStep>>;

type Patch = Partial<
  Pick<QuickStart, "product" | "amountPaise" | "offerAmountPaise" | "tenureMonths" | "offer" | "offerAt" | "applicationId" | "continuedAt">
>;

/**
 * Saves a step's own columns and moves the progress: Continue on the first
 * step not done makes it done; an answer that changes the offer (given before
 * it) sends a borrower who had taken the offer back to it.
 */
export async function completeQuickStep(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  step: number,
  patch: Patch,
  how: { advance: boolean; offerChanged: boolean; event?: { product?: LoanKind | null; details?: Record<string, unknown> } },
) {
  const at = now();
  const offerAgain = sql`${how.offerChanged} and ${quickStarts.completedSteps} > ${OFFER_STEP}`;
  await db
    .update(quickStarts)
    .set({
      // An offer to take again is an unfinished quick start (sign-in lands there, the dashboard points to it).
      continuedAt: sql`case when ${offerAgain} then null else ${quickStarts.continuedAt} end`,
      ...patch,
      completedSteps: sql`case when ${how.advance} and ${step} >= ${quickStarts.completedSteps} then ${step + 1}
        when ${offerAgain} then ${OFFER_STEP}
        else ${quickStarts.completedSteps} end`,
      updatedAt: at,
    })
    .where(eq(quickStarts.userId, userId));
  if (how.advance) await recordFunnel(db, userId, "step_completed", step, how.event ?? {}, at);
}

/** The offer must be seen (and taken) again: the borrower's answers or the products changed since. */
export async function backToOffer({ db, now }: Pick<AppServices, "db" | "now">, userId: string) {
  await db
    .update(quickStarts)
    .set({ completedSteps: sql`least(${quickStarts.completedSteps}, ${OFFER_STEP})`, continuedAt: null, updatedAt: now() })
    .where(eq(quickStarts.userId, userId));
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

export interface StepSaved {
  ok?: boolean;
  fieldErrors?: Record<string, string[]>;
  formErrors?: string[];
  patch?: Patch;
  product?: LoanKind | null;
  details?: Record<string, unknown>;
  /** Where Continue goes instead of the next step. */
  redirectTo?: string;
  /** Keep what `save` wrote, leave the progress as it is, and show this page with this note. */
  stop?: { redirectTo: string; toast: Omit<Toast, "id"> };
}

/**
 * A step's POST, in one transaction with the borrower's progress row locked
 * (two tabs queue; the step is checked again under the lock): the step's
 * schema (the browser's too), then `save` into the profile tables (its field
 * errors go back next to the fields), then the progress. Continue shows the
 * next step; Back saves the same way without marking the step done, and shows
 * the one before (from a step left empty it just goes back). Invalid input is
 * never stored: its errors are shown.
 */
export async function postQuickStep<S extends z.ZodType>(
  args: StepArgs,
  step: number,
  schema: S | ((q: QuickStep) => S | Promise<S>),
  save: (q: QuickStep, value: z.output<S>, how: { back: boolean }) => Promise<StepSaved | undefined>,
) {
  const services = args.context.get(servicesContext);
  const { user } = args.context.get(signedInContext);
  const formData = await readForm(args.request);
  const back = formData.get("intent") === "back" && step > 0;
  if (back && untouched(formData)) throw redirect(quickStepPath(step - 1));
  await quickStartOf(services.db, user.id);
  const outcome = await services.db.transaction(async (tx) => {
    const [progress] = await tx.select().from(quickStarts).where(eq(quickStarts.userId, user.id)).for("update");
    if (!progress) throw new Error("quick start row missing");
    if (!quickStepAllowed(step, progress.completedSteps)) throw redirect(quickStepPath(resumeStep(progress.completedSteps)));
    const q: QuickStep = { services: { ...services, db: tx }, user, progress, today: todayIST(services.now()) };
    const submission = parseWithZod(formData, { schema: typeof schema === "function" ? await schema(q) : schema });
    if (submission.status !== "success") return { response: data(submission.reply(), { status: 400 }) };
    const before = step < OFFER_STEP ? await offerInputs(tx, user.id, progress) : null;
    const saved = (await save(q, submission.value, { back })) ?? {};
    if (saved.fieldErrors || saved.formErrors) {
      return { response: data(submission.reply({ fieldErrors: saved.fieldErrors, formErrors: saved.formErrors }), { status: 400 }) };
    }
    if (saved.stop) return { saved };
    const after = before === null ? null : await offerInputs(tx, user.id, { ...progress, ...saved.patch });
    await completeQuickStep(q.services, user.id, step, saved.patch ?? {}, {
      advance: !back,
      offerChanged: before !== after,
      event: { product: saved.product ?? progress.product, details: saved.details },
    });
    return { saved };
  });
  if ("response" in outcome) return outcome.response;
  if (outcome.saved.stop)
    throw await redirectWithToast(services.config, args.request, outcome.saved.stop.redirectTo, outcome.saved.stop.toast);
  throw redirect(back ? quickStepPath(step - 1) : (outcome.saved.redirectTo ?? quickStepPath(step + 1)));
}

// ---- the offer ---------------------------------------------------------------------------

const range = (p: ProductRow, maxPaise = p.maxAmountPaise): AmountRange => ({
  minPaise: p.minAmountPaise,
  maxPaise,
  stepPaise: p.amountStepPaise,
});

/** Each product's amount range (Step0's form). */
export async function productRanges(db: Db): Promise<Record<LoanKind, AmountRange>> {
  const products = await loadProducts(db);
  return { emi: range(products.emi), salary_advance: range(products.salaryAdvance) };
}

export interface ProductOffer {
  product: LoanKind;
  eligible: boolean;
  reasons: { code: string; message: string }[];
  maxAmountPaise: number;
  /** The range an application of this product can take from the offer. */
  range: AmountRange;
  rateBps: number;
  tenureMonths: number | null;
  /** Monthly EMI (EMI loan) or the one repayment (salary advance), at the largest amount. */
  paymentPaise: number | null;
  repaymentDate: string | null;
  netDisbursedPaise: number | null;
  aprPercent: number | null;
}

function emiSummary(o: EmiOffer, p: ProductRow): ProductOffer {
  return {
    product: "emi",
    eligible: o.eligible,
    reasons: o.reasons,
    maxAmountPaise: o.maxAmountPaise,
    range: range(p, o.maxAmountPaise),
    rateBps: o.rateBps,
    tenureMonths: o.tenureMonths,
    paymentPaise: o.quote?.emiPaise ?? null,
    repaymentDate: null,
    netDisbursedPaise: o.quote?.netDisbursedPaise ?? null,
    aprPercent: o.quote?.aprPercent ?? null,
  };
}

function salaryAdvanceSummary(o: SalaryAdvanceOffer, p: ProductRow): ProductOffer {
  return {
    product: "salary_advance",
    eligible: o.eligible,
    reasons: o.reasons,
    maxAmountPaise: o.maxAmountPaise,
    range: range(p, o.maxAmountPaise),
    rateBps: p.rateBps,
    tenureMonths: null,
    paymentPaise: o.quote?.totalRepayablePaise ?? null,
    repaymentDate: o.quote?.repaymentDate ?? null,
    netDisbursedPaise: o.quote?.netDisbursedPaise ?? null,
    aprPercent: o.quote?.aprPercent ?? null,
  };
}

/**
 * Both products' offers from the eligibility function (PRODUCT.md §9) on what
 * the borrower has told us, the EMI loan at `tenureMonths`; or the sections
 * still missing a fact it needs.
 */
export async function quickOffer(services: Pick<AppServices, "db" | "config" | "now">, userId: string, tenureMonths: number) {
  const { today, assumedDisbursalDate } = kfsDates(services);
  // One after the other: `services.db` may be a transaction's single connection.
  const facts = await applicantFacts(services.db, userId, today);
  const products = await loadProducts(services.db);
  if (!facts.ok) return { ok: false as const, missing: facts.missing };
  const tenure = Math.min(products.emi.maxTenure, Math.max(products.emi.minTenure, Math.round(tenureMonths)));
  const result = eligibility(facts.facts, products, products.riskBands, { emiTenureMonths: tenure, disbursalDate: assumedDisbursalDate });
  return {
    ok: true as const,
    tenureMonths: tenure,
    tenures: { min: products.emi.minTenure, max: products.emi.maxTenure },
    assumedDisbursalDate,
    offers: {
      emi: emiSummary(result.emi, products.emi),
      salary_advance: salaryAdvanceSummary(result.salaryAdvance, products.salaryAdvance),
    },
  };
}
export type QuickOffer = Extract<Awaited<ReturnType<typeof quickOffer>>, { ok: true }>;

// ---- on to the loan application -----------------------------------------------------------

/**
 * Step6's Continue: the new-loan application of the chosen product (the one
 * in progress, or a new draft) with the offer's amount and tenure saved as its
 * Step0 terms (with the offer, from the same eligibility function).
 * `stale`: the offer is no longer what was shown (answers, profile or product
 * terms changed since); `busy`: an application of this product is already
 * past its draft.
 */
export async function continueToApplication(
  services: Pick<AppServices, "db" | "config" | "now">,
  q: QuickStep,
  meta: { ip: string; userAgent: string },
): Promise<{ ok: true; application: Application } | { ok: false; why: "stale" } | { ok: false; why: "busy"; application: Application }> {
  const { progress, user } = q;
  const kind = progress.product;
  const taken = (progress.offer as { offers?: Record<string, ProductOffer> } | null)?.offers?.[kind ?? ""];
  if (!kind || !progress.offerAmountPaise || !taken) return { ok: false, why: "stale" };
  const facts = await applicantFacts(services.db, user.id, q.today);
  if (!facts.ok) return { ok: false, why: "stale" };
  const offer = await offerFor(services, kind, facts.facts);
  const b = offer.bounds;
  const tenureMonths = kind === "emi" ? (progress.tenureMonths ?? b.minTenure) : null;
  const max = tenureMonths === null ? b.maxAmountPaise : (b.maxByTenure[tenureMonths] ?? 0);
  // The same rate and the same largest amount as the offer shown, or it is shown again.
  if (!offer.eligible || offer.rateBps !== taken.rateBps || max !== taken.maxAmountPaise || progress.offerAmountPaise > max) {
    return { ok: false, why: "stale" };
  }
  const application = await startApplication(services, user.id, kind, meta);
  if (application.status !== "draft") return { ok: false, why: "busy", application };
  // Continuing again into the same application keeps the terms the borrower may have changed there;
  // an offer taken again at Step5 (which clears continuedAt) replaces them.
  const already = progress.continuedAt !== null && progress.applicationId === application.id;
  if (!already) await saveTerms(services, user.id, application, { amountPaise: progress.offerAmountPaise, tenureMonths }, offer);
  return { ok: true, application };
}
