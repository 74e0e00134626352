// The quick start's offer (Step5): both products from the credit policy on what the borrower has
// told us and the credit checks, and Step0's amount ranges.
import type { Language } from "../../i18n/languages.ts";
import type { AppServices } from "../../context.ts";
import type { PolicyVerdict } from "../../domain/credit-policy/evaluate.ts";
import type { AmountRange, LoanKind } from "../../domain/loans/application.ts";
import { emiQuoteAt, salaryAdvanceQuoteAt } from "../../domain/offer.ts";
import { startingAmount } from "../../domain/quick-start-schemas.ts";
import type { BureauState } from "../credit/judge.server.ts";
import { kfsDates, type Offer, offerFor } from "../loans/offer.server.ts";
import { loadProducts, type ProductRow } from "../products.server.ts";

const range = (p: ProductRow, maxPaise = p.maxAmountPaise): AmountRange => ({
  minPaise: p.minAmountPaise,
  maxPaise,
  stepPaise: p.amountStepPaise,
});

/** Each product's amount range (Step0's form). */
export async function productRanges({ db }: Pick<AppServices, "db">): Promise<Record<LoanKind, AmountRange>> {
  const products = await loadProducts({ db });
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
  /** The figures at the amount the borrower would start from (the amount asked, within the offer). */
  at: OfferFigures | null;
  /** The credit policy version it was judged by. */
  policyVersion: number;
}

/** One amount's figures, as the KFS will show them. */
export interface OfferFigures {
  amountPaise: number;
  /** The monthly EMI, or the one repayment of a salary advance. */
  paymentPaise: number;
  totalRepayablePaise: number;
  netDisbursedPaise: number;
  aprPercent: number;
}

/** Where the credit check an offer needs stands: to ask for (with the borrower's consent), asked and not answered, or never answered. */
export type CreditCheckState = "ask" | "waiting" | "failed";

/**
 * The credit check the verdicts still need, if any (the PAN's verification or a fresh bureau
 * report): none when each product is refused already on what is known (an age or income outside
 * the policy), so that the borrower reads why instead of being asked for a check that cannot help.
 */
export function creditCheckState(verdicts: PolicyVerdict[], bureauState: BureauState): CreditCheckState | null {
  const needs = (v: PolicyVerdict) =>
    !v.rules.some((r) => r.outcome === "fail") && v.rules.some((r) => (r.code === "pan" || r.code === "bureau") && r.outcome === "missing");
  if (!verdicts.some(needs)) return null;
  return bureauState === "waiting" ? "waiting" : bureauState === "failed" ? "failed" : "ask";
}

function summary(offer: Offer): ProductOffer {
  const { verdict, product } = offer;
  return {
    product: offer.kind,
    eligible: verdict.result === "pass" || verdict.result === "deviation",
    reasons: offer.reasons,
    maxAmountPaise: verdict.maxAmountPaise,
    range: range(product, verdict.maxAmountPaise),
    rateBps: verdict.rateBps,
    tenureMonths: verdict.tenureMonths,
    paymentPaise: null,
    repaymentDate: null,
    netDisbursedPaise: null,
    aprPercent: null,
    at: null,
    policyVersion: verdict.version,
  };
}

/**
 * Both products' offers from the credit policy on what the borrower has told us and the checks,
 * the EMI loan at `tenureMonths`; or the sections still missing a fact it needs.
 */
export async function quickOffer(
  services: Pick<AppServices, "db" | "config" | "now">,
  {
    userId,
    tenureMonths,
    askedPaise = null,
    language,
  }: { userId: string; tenureMonths: number; askedPaise?: number | null; language?: Language },
) {
  const { assumedDisbursalDate } = kfsDates(services);
  // One after the other: `services.db` may be a transaction's single connection.
  const emiOffer = await offerFor(services, { userId, kind: "emi", tenureMonths, language });
  if (!emiOffer.ok) return { ok: false as const, missing: emiOffer.missing };
  const saOffer = await offerFor(services, { userId, kind: "salary_advance", language });
  if (!saOffer.ok) return { ok: false as const, missing: saOffer.missing };
  const tenure = emiOffer.verdict.tenureMonths ?? tenureMonths;
  const emi = summary(emiOffer);
  const salaryAdvance = summary(saOffer);
  // Both products at the amount asked (each within its own offer): the comparison a person reads.
  const emiAt = startingAmount(emi, askedPaise);
  if (emiAt !== null) {
    const q = emiQuoteAt(emiAt, emi.rateBps, tenure, emiOffer.product, assumedDisbursalDate);
    emi.at = {
      amountPaise: emiAt,
      paymentPaise: q.emiPaise,
      totalRepayablePaise: q.totalPayablePaise,
      netDisbursedPaise: q.netDisbursedPaise,
      aprPercent: q.aprPercent,
    };
  }
  const saAt = startingAmount(salaryAdvance, askedPaise);
  if (saAt !== null && saOffer.salaryDay) {
    const q = salaryAdvanceQuoteAt(saAt, saOffer.product, assumedDisbursalDate, saOffer.salaryDay);
    salaryAdvance.at = {
      amountPaise: saAt,
      paymentPaise: q.totalRepayablePaise,
      totalRepayablePaise: q.totalRepayablePaise,
      netDisbursedPaise: q.netDisbursedPaise,
      aprPercent: q.aprPercent,
    };
    salaryAdvance.repaymentDate = q.repaymentDate;
  }
  return {
    ok: true as const,
    tenureMonths: tenure,
    tenures: { min: emiOffer.product.minTenure, max: emiOffer.product.maxTenure },
    assumedDisbursalDate,
    offers: { emi, salary_advance: salaryAdvance },
    creditCheck: creditCheckState([emiOffer.verdict, saOffer.verdict], emiOffer.bureauState),
    /** The verdicts and what they were worked out from: the offer taken is kept with its table. */
    judged: { emi: emiOffer, salary_advance: saOffer },
  };
}
export type QuickOffer = Extract<Awaited<ReturnType<typeof quickOffer>>, { ok: true }>;
