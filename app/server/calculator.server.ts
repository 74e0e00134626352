import type { CalculatorLimits, CalculatorValues } from "../domain/calculator.ts";
import { parseCalculatorQuery } from "../domain/calculator.ts";
import { processingFee } from "../domain/loan-math.ts";
import type { Db } from "./db/client.ts";
import { loadProducts } from "./products.server.ts";

const rupeesString = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

/**
 * The calculator's starting point for a request: the query's values when
 * valid, else explained errors with a sensible example from the live EMI product.
 */
export async function calculatorState(services: { db: Db }, params: URLSearchParams) {
  const { emi, riskBands } = await loadProducts(services);
  const exampleAmount = Math.min(emi.maxAmountPaise, Math.max(emi.minAmountPaise, 10_000_000));
  const fee = processingFee(exampleAmount, emi);
  const example: CalculatorValues = {
    amount: rupeesString(exampleAmount),
    rate: String(emi.rateBps / 100),
    months: String(Math.min(emi.maxTenure, Math.max(emi.minTenure, 12))),
    fee: rupeesString(fee.totalUpfrontPaise),
  };
  const rates = riskBands.map((b) => b.rateBps / 100);
  const limits: CalculatorLimits = {
    minAmount: emi.minAmountPaise / 100,
    maxAmount: emi.maxAmountPaise / 100,
    amountStep: emi.amountStepPaise / 100,
    minMonths: 1,
    maxMonths: Math.max(60, emi.maxTenure),
    minRate: 0,
    maxRate: Math.max(36, ...rates),
  };
  const hasQuery = ["amount", "rate", "months", "fee"].some((k) => params.has(k));
  if (!hasQuery) return { initial: example, fallback: example, errors: {}, limits };
  const typed: CalculatorValues = {
    amount: params.get("amount") ?? "",
    rate: params.get("rate") ?? "",
    months: params.get("months") ?? "",
    fee: params.get("fee") ?? "",
  };
  const parsed = parseCalculatorQuery(params);
  return parsed.ok
    ? { initial: typed, fallback: typed, errors: {}, limits }
    : { initial: typed, fallback: example, errors: parsed.fieldErrors, limits };
}
