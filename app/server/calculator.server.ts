import {
  type CalculatorFeeRule,
  type CalculatorLimits,
  type CalculatorValues,
  calculatorQuery,
  rupeesString,
} from "../domain/calculator.ts";
import { parseCalculatorQuery } from "../domain/calculator-input.ts";
import { type MessageValues, parseMessage } from "../i18n/form-message.ts";
import type { Language } from "../i18n/languages.ts";
import { translator } from "../i18n/messages.server.ts";
import type { Db } from "./db/client.ts";
import { loadProducts } from "./products.server.ts";

/**
 * The calculator's starting point for a request: the query's values when
 * valid, else explained errors with a sensible example from the live EMI product.
 */
export async function calculatorState(services: { db: Db }, params: URLSearchParams) {
  const { emi, riskBands } = await loadProducts(services);
  const exampleAmount = Math.min(emi.maxAmountPaise, Math.max(emi.minAmountPaise, 10_000_000));
  // No fee typed: the figures use ours for whatever amount is chosen.
  const example: CalculatorValues = {
    amount: rupeesString(exampleAmount),
    rate: String(emi.rateBps / 100),
    months: String(Math.min(emi.maxTenure, Math.max(emi.minTenure, 12))),
    fee: "",
  };
  const feeRule: CalculatorFeeRule = {
    feeBps: emi.feeBps,
    minFeePaise: emi.minFeePaise,
    gstBps: emi.gstBps,
    minAmountPaise: emi.minAmountPaise,
    maxAmountPaise: emi.maxAmountPaise,
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
  const initial: CalculatorValues = hasQuery
    ? {
        amount: params.get("amount") ?? "",
        rate: params.get("rate") ?? "",
        months: params.get("months") ?? "",
        fee: params.get("fee") ?? "",
      }
    : example;
  // The first figures (and their errors) are checked here: the browser loads the check when the calculator is first used.
  const check = parseCalculatorQuery(calculatorQuery(initial, feeRule));
  return { initial, check, limits, feeRule };
}

/**
 * A message of the calculator's check (a key, app/i18n/form-message.ts) in words of `language`, for
 * the answers that are not pages (/api/emi's error, the schedule CSV's); words that are no key as
 * they are.
 */
export function calculatorMessageText(language: Language, text: string): string {
  const parsed = parseMessage(text);
  if (!parsed?.key.startsWith("calculator.")) return text;
  const t = translator(language, "calculator") as unknown as (key: string, values?: MessageValues) => string;
  return t(parsed.key.slice("calculator.".length), parsed.values);
}
