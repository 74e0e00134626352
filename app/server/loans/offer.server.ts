// The offer an application is made within (the credit policy on the borrower as they are now,
// docs/product.md "Credit policy"), and Step0's operation: saving the amount and tenure chosen
// within it.
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { evaluatePolicy } from "../../domain/credit-policy/evaluate.ts";
import { borrowerReasons } from "../../domain/credit-policy/words.ts";
import type { Language } from "../../i18n/languages.ts";
import type { LoanKind, TermsBounds } from "../../domain/loans/application.ts";
import { KFS_VALID_WORKING_DAYS } from "../../domain/loans/kfs.ts";
import { addWorkingDays, nextWorkingDay } from "../../domain/loan-math.ts";
import { todayIST } from "../../domain/india-date.ts";
import { loanApplications } from "../db/schema.ts";
import { type JudgeRequest, judge, recordEvaluation } from "../credit/judge.server.ts";
import type { ProductRow } from "../products.server.ts";
import { type Application, supersedeDocument } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/** Dates the KFS uses: issued today (India), valid 3 working days, disbursal assumed the next working day. */
export function kfsDates(services: Pick<AppServices, "config" | "now">) {
  const today = todayIST(services.now());
  const holidays = services.config.holidays;
  return {
    today,
    validUntil: addWorkingDays(today, KFS_VALID_WORKING_DAYS, holidays),
    assumedDisbursalDate: nextWorkingDay(today, holidays),
  };
}

const terms = (p: ProductRow) => p;

/**
 * The offer for this kind from the credit policy, and the bounds of Step0's form: for an EMI loan
 * the largest amount at every tenure. `asked` judges an amount chosen (the KFS, signing).
 */
/** `language`: the one the reasons' dates are written in (the request's). */
export async function offerFor(services: Services, request: JudgeRequest & { language?: Language }) {
  const judged = await judge(services, request);
  if (!judged.ok) return judged;
  const { verdict, products, facts } = judged;
  const { assumedDisbursalDate } = kfsDates(services);
  const kind: LoanKind = request.kind;
  const product = terms(kind === "emi" ? products.emi : products.salaryAdvance);
  const bounds: TermsBounds = {
    kind,
    minAmountPaise: product.minAmountPaise,
    stepPaise: product.amountStepPaise,
    maxAmountPaise: kind === "emi" ? verdict.best.amountPaise : verdict.maxAmountPaise,
    maxByTenure: kind === "emi" ? verdict.maxByTenure : {},
    minTenure: kind === "emi" ? product.minTenure : 1,
    maxTenure: kind === "emi" ? product.maxTenure : 1,
  };
  return {
    ok: true as const,
    kind,
    product,
    eligible: verdict.eligible,
    reasons: borrowerReasons(verdict, product.minAmountPaise, request.language),
    rateBps: verdict.rateBps,
    bounds,
    assumedDisbursalDate,
    salaryDay: kind === "emi" ? null : (facts.salaryDay ?? null),
    verdict,
    /** What the verdict was worked out from: the same inputs judge an amount chosen within it. */
    input: judged.input,
    bureauState: judged.bureauState,
    bureauReference: judged.bureauReference,
  };
}
export type Offer = Extract<Awaited<ReturnType<typeof offerFor>>, { ok: true }>;

/** Whether the amount and tenure of an application fit its offer (the largest that passes at that tenure, on the product's steps). */
export function fitsOffer(offer: Offer, amountPaise: number, tenureMonths: number | null) {
  const max = offer.kind === "emi" ? (offer.bounds.maxByTenure[tenureMonths ?? 0] ?? 0) : offer.bounds.maxAmountPaise;
  return offer.eligible && amountPaise >= offer.bounds.minAmountPaise && amountPaise <= max;
}

/**
 * Step0: the amount and tenure (already validated against the offer), saved
 * with the offer as shown, while the application is the owner's draft; a
 * change withdraws the KFS issued for the old terms.
 */
export async function saveTerms(
  { db, now }: Pick<AppServices, "db" | "now">,
  {
    userId,
    application,
    chosen,
    offer,
  }: { userId: string; application: Application; chosen: { amountPaise: number; tenureMonths: number | null }; offer: Offer },
) {
  const at = now();
  await db.transaction(async (tx) => {
    const changed = application.amountPaise !== chosen.amountPaise || (application.tenureMonths ?? null) !== chosen.tenureMonths;
    const updated = await tx
      .update(loanApplications)
      .set({
        amountPaise: chosen.amountPaise,
        tenureMonths: chosen.tenureMonths,
        offer: {
          rateBps: offer.rateBps,
          maxAmountPaise: offer.bounds.maxAmountPaise,
          maxByTenure: offer.bounds.maxByTenure,
          salaryDay: offer.salaryDay,
          computedAt: at.toISOString(),
          policyVersion: offer.verdict.version,
        },
        termsSavedAt: at,
        updatedAt: at,
      })
      .where(and(eq(loanApplications.id, application.id), eq(loanApplications.userId, userId), eq(loanApplications.status, "draft")))
      .returning({ id: loanApplications.id });
    if (!updated.length) return;
    if (changed) await supersedeDocument(tx, application.id, at);
    await recordEvaluation(tx, {
      userId,
      applicationId: application.id,
      stage: "offer",
      verdict: evaluatePolicy({ ...offer.input, asked: chosen }),
      bureauReference: offer.bureauReference,
      at,
    });
  });
}
