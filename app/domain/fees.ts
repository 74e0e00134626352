/**
 * Processing fee (PRODUCT.md §3): a percentage of the amount in basis points,
 * at least a minimum, plus GST on the fee. Each part is rounded half-up to the
 * paisa; the total is what is deducted from the disbursal.
 */
import { mulDivHalfUp } from "./money.ts";

/** The fee terms of a product (a ProductConfig satisfies this). */
export interface FeeTerms {
  /** Fee as a share of the amount: 200 = 2%. */
  feeBps: number;
  /** The least fee, before GST; 0 for none. */
  minFeePaise: number;
  /** GST on the fee: 1800 = 18%. */
  gstBps: number;
}

export interface FeeBreakdown {
  feePaise: number;
  gstPaise: number;
  /** Fee + GST: every upfront charge, deducted from the disbursal. */
  totalUpfrontPaise: number;
}

/** processingFee(10_00_000 paise, 2%, min ₹499, 18% GST) → fee ₹499, GST ₹89.82, total ₹588.82. */
export function processingFee(amountPaise: number, terms: FeeTerms): FeeBreakdown {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) {
    throw new RangeError(`amount must be whole paise, zero or more, got ${amountPaise}`);
  }
  const feePaise = Math.max(terms.minFeePaise, mulDivHalfUp(amountPaise, terms.feeBps, 10_000));
  const gstPaise = mulDivHalfUp(feePaise, terms.gstBps, 10_000);
  return { feePaise, gstPaise, totalUpfrontPaise: feePaise + gstPaise };
}
