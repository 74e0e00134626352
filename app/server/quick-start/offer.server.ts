// The quick start's offer (Step5): both products from the eligibility
// function on what the borrower has told us, and Step0's amount ranges.
import type { AppServices } from "../../context.ts";
import type { AmountRange, LoanKind } from "../../domain/loans/application.ts";
import { type EmiOffer, eligibility, emiQuoteAt, type SalaryAdvanceOffer, salaryAdvanceQuoteAt } from "../../domain/offer.ts";
import { startingAmount } from "../../domain/quick-start-schemas.ts";
import { applicantFacts, kfsDates } from "../loans/offer.server.ts";
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
    at: null,
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
    at: null,
  };
}

/**
 * Both products' offers from the eligibility function (docs/product.md "Eligibility and the offer") on what
 * the borrower has told us, the EMI loan at `tenureMonths`; or the sections
 * still missing a fact it needs.
 */
export async function quickOffer(
  services: Pick<AppServices, "db" | "config" | "now">,
  { userId, tenureMonths, askedPaise = null }: { userId: string; tenureMonths: number; askedPaise?: number | null },
) {
  const { today, assumedDisbursalDate } = kfsDates(services);
  // One after the other: `services.db` may be a transaction's single connection.
  const facts = await applicantFacts(services, { userId, today });
  const products = await loadProducts(services);
  if (!facts.ok) return { ok: false as const, missing: facts.missing };
  const tenure = Math.min(products.emi.maxTenure, Math.max(products.emi.minTenure, Math.round(tenureMonths)));
  const result = eligibility(facts.facts, products, products.riskBands, { emiTenureMonths: tenure, disbursalDate: assumedDisbursalDate });
  const emi = emiSummary(result.emi, products.emi);
  const salaryAdvance = salaryAdvanceSummary(result.salaryAdvance, products.salaryAdvance);
  // Both products at the amount asked (each within its own offer): the comparison a person reads.
  const emiAt = startingAmount(emi, askedPaise);
  if (emiAt !== null) {
    const q = emiQuoteAt(emiAt, emi.rateBps, tenure, products.emi, assumedDisbursalDate);
    emi.at = {
      amountPaise: emiAt,
      paymentPaise: q.emiPaise,
      totalRepayablePaise: q.totalPayablePaise,
      netDisbursedPaise: q.netDisbursedPaise,
      aprPercent: q.aprPercent,
    };
  }
  const saAt = startingAmount(salaryAdvance, askedPaise);
  if (saAt !== null && facts.facts.salaryDay) {
    const q = salaryAdvanceQuoteAt(saAt, products.salaryAdvance, assumedDisbursalDate, facts.facts.salaryDay);
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
    tenures: { min: products.emi.minTenure, max: products.emi.maxTenure },
    assumedDisbursalDate,
    offers: { emi, salary_advance: salaryAdvance },
  };
}
export type QuickOffer = Extract<Awaited<ReturnType<typeof quickOffer>>, { ok: true }>;
