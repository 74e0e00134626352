/**
 * The quick start's progress (one row per borrower), its funnel events, and
 * the offer it shows and stores. Every query carries the owner's id; the
 * answers themselves go to the profile tables (kyc/*.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { eq, sql } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { type AppServices, servicesContext } from "../context.ts";
import { type AmountRange, fitAmount, type LoanKind } from "../domain/loans/application.ts";
import { type EmiOffer, eligibility, type SalaryAdvanceOffer } from "../domain/offer.ts";
import { OFFER_STEP, quickStepAllowed, quickStepPath, resumeStep } from "../domain/quick-start.ts";
import { todayIST } from "../lib/format.ts";
import { signedInContext } from "./auth/session.server.ts";
import type { Db } from "./db/client.ts";
import { funnelEvents, quickStarts } from "./db/schema.ts";
import { applicantFacts, kfsDates, offerFor, saveTerms, startApplication } from "./loans/applications.server.ts";
import { loadProducts, type ProductRow } from "./products.server.ts";

export type QuickStart = typeof quickStarts.$inferSelect;
export type FunnelEvent = "step_viewed" | "step_completed" | "offer_shown" | "continued";

/** How far the borrower's quick start got (null when never begun), for the dashboard. */
export async function quickStartProgress(db: Db, userId: string) {
  const [row] = await db
    .select({ completedSteps: quickStarts.completedSteps, continuedAt: quickStarts.continuedAt })
    .from(quickStarts)
    .where(eq(quickStarts.userId, userId));
  return row ?? null;
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
  db: Pick<Db, "insert">,
  userId: string,
  event: FunnelEvent,
  step: number | null,
  extra: { product?: string | null; details?: Record<string, unknown> } = {},
  at?: Date,
) {
  await db.insert(funnelEvents).values({ userId, event, step, product: extra.product ?? null, details: extra.details ?? null, ...(at ? { createdAt: at } : {}) });
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
  if (args.request.method === "GET") {
    await recordFunnel(services.db, user.id, "step_viewed", step, { product: progress.product });
  }
  return { services, user, progress, today: todayIST(services.now()) };
}
export type QuickStep = Awaited<ReturnType<typeof loadQuickStep>>;

/**
 * Marks `step` done (in the same transaction as `save`, when given): the
 * first step not done moves on; an answer before the offer sends the borrower
 * back through it (PRODUCT.md §9: the offer comes from these answers).
 */
export async function completeQuickStep(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  step: number,
  patch: Partial<Pick<QuickStart, "product" | "amountPaise" | "tenureMonths" | "offer" | "offerAt" | "applicationId" | "continuedAt">> = {},
  event: { product?: string | null; details?: Record<string, unknown> } = {},
) {
  const at = now();
  await db.transaction(async (tx) => {
    await tx
      .update(quickStarts)
      .set({
        ...patch,
        completedSteps: sql`case when ${step} >= ${quickStarts.completedSteps} then ${step + 1}
          when ${step} < ${OFFER_STEP} and ${quickStarts.completedSteps} > ${OFFER_STEP} then ${OFFER_STEP}
          else ${quickStarts.completedSteps} end`,
        updatedAt: at,
      })
      .where(eq(quickStarts.userId, userId));
    await recordFunnel(tx, userId, "step_completed", step, event, at);
  });
}

type Patch = Parameters<typeof completeQuickStep>[3];
export interface StepSaved {
  ok?: boolean;
  fieldErrors?: Record<string, string[]>;
  patch?: Patch;
  product?: string | null;
  details?: Record<string, unknown>;
  /** Where Continue goes instead of the next step. */
  redirectTo?: string;
}

/**
 * A step's POST: the step's schema (the browser's too), then `save` into the
 * profile tables (its field errors go back next to the fields), then the step
 * is done and Continue shows the next one. Back saves what is valid and shows
 * the step before; with invalid input it stores nothing and goes back.
 */
export async function postQuickStep<S extends z.ZodType>(
  args: StepArgs,
  step: number,
  schema: S | ((q: QuickStep) => S | Promise<S>),
  save: (q: QuickStep, value: z.output<S>, how: { back: boolean }) => Promise<StepSaved | undefined>,
) {
  const q = await loadQuickStep(args, step);
  const formData = await args.request.formData();
  const back = formData.get("intent") === "back" && step > 0;
  const submission = parseWithZod(formData, { schema: typeof schema === "function" ? await schema(q) : schema });
  if (submission.status !== "success") {
    if (back) throw redirect(quickStepPath(step - 1));
    return data(submission.reply(), { status: 400 });
  }
  const saved = (await save(q, submission.value, { back })) ?? {};
  if (saved.fieldErrors) return data(submission.reply({ fieldErrors: saved.fieldErrors }), { status: 400 });
  await completeQuickStep(q.services, q.user.id, step, saved.patch, { product: saved.product ?? q.progress.product, details: saved.details });
  throw redirect(back ? quickStepPath(step - 1) : (saved.redirectTo ?? quickStepPath(step + 1)));
}

// ---- the offer ---------------------------------------------------------------------------

const range = (p: ProductRow, maxPaise = p.maxAmountPaise): AmountRange => ({ minPaise: p.minAmountPaise, maxPaise, stepPaise: p.amountStepPaise });

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
  const [facts, products] = await Promise.all([applicantFacts(services.db, userId, today), loadProducts(services.db)]);
  if (!facts.ok) return { ok: false as const, missing: facts.missing };
  const tenure = Math.min(products.emi.maxTenure, Math.max(products.emi.minTenure, Math.round(tenureMonths)));
  const result = eligibility(facts.facts, products, products.riskBands, { emiTenureMonths: tenure, disbursalDate: assumedDisbursalDate });
  return {
    ok: true as const,
    tenureMonths: tenure,
    tenures: { min: products.emi.minTenure, max: products.emi.maxTenure },
    assumedDisbursalDate,
    offers: { emi: emiSummary(result.emi, products.emi), salary_advance: salaryAdvanceSummary(result.salaryAdvance, products.salaryAdvance) },
  };
}
export type QuickOffer = Extract<Awaited<ReturnType<typeof quickOffer>>, { ok: true }>;

// ---- on to the loan application -----------------------------------------------------------

/**
 * Step6's Continue: the new-loan application of the chosen product (the one
 * in progress, or a new draft) with the offer's amount and tenure saved as its
 * Step0 terms (with the offer, from the same eligibility function). Null when
 * the borrower no longer qualifies (answers changed since the offer).
 */
export async function continueToApplication(services: Pick<AppServices, "db" | "config" | "now">, q: QuickStep, meta: { ip: string; userAgent: string }) {
  const { progress, user } = q;
  const kind = progress.product as LoanKind | null;
  if (!kind || !progress.amountPaise) return null;
  const facts = await applicantFacts(services.db, user.id, q.today);
  if (!facts.ok) return null;
  const offer = await offerFor(services, kind, facts.facts);
  if (!offer.eligible) return null;
  const b = offer.bounds;
  const tenureMonths = kind === "emi" ? Math.min(b.maxTenure, Math.max(b.minTenure, progress.tenureMonths ?? b.minTenure)) : null;
  const max = tenureMonths === null ? b.maxAmountPaise : (b.maxByTenure[tenureMonths] ?? 0);
  const amountPaise = fitAmount(progress.amountPaise, { minPaise: b.minAmountPaise, maxPaise: max, stepPaise: b.stepPaise });
  if (amountPaise === null || max < b.minAmountPaise) return null;
  const application = await startApplication(services, user.id, kind, meta);
  // Continuing again into the same application keeps the terms the borrower may have changed there;
  // an offer taken again at Step5 (which clears continuedAt) replaces them.
  const already = progress.continuedAt !== null && progress.applicationId === application.id;
  if (application.status === "draft" && !already) await saveTerms(services, user.id, application, { amountPaise, tenureMonths }, offer);
  return application;
}
