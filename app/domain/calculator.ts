import { type EmiQuery, emiQuerySchema } from "./calculator-input.ts";
import { emiQuote } from "./loan-math.ts";

/** The public calculator's answer (the /api/emi JSON and the /EmiCalculator page). */
export function calculate({ amountPaise, rateBps, months, feePaise }: EmiQuery) {
  const quote = emiQuote({ principalPaise: amountPaise, annualRateBps: rateBps, months, upfrontPaise: feePaise });
  return {
    emiPaise: quote.emiPaise,
    totalInterestPaise: quote.totalInterestPaise,
    totalPayablePaise: quote.totalPayablePaise,
    netDisbursedPaise: quote.netDisbursedPaise,
    aprPercent: quote.aprPercent,
    schedule: quote.schedule.map(({ instalment, openingPaise, interestPaise, principalPaise, paymentPaise, closingPaise }) => ({
      instalment,
      openingPaise,
      interestPaise,
      principalPaise,
      paymentPaise,
      closingPaise,
    })),
  };
}

export type CalculatorResult = ReturnType<typeof calculate>;

/** Parses a query (URLSearchParams) into inputs, or the first problem as { error, field }. */
export function parseCalculatorQuery(params: URLSearchParams) {
  const raw = {
    amount: params.get("amount") ?? undefined,
    rate: params.get("rate") ?? undefined,
    months: params.get("months") ?? undefined,
    fee: params.get("fee") ?? undefined,
  };
  const result = emiQuerySchema.safeParse(raw);
  if (result.success) return { ok: true as const, input: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "amount");
    fieldErrors[field] ??= issue.message;
  }
  const first = result.error.issues[0];
  return {
    ok: false as const,
    error: first?.message ?? "Invalid input.",
    field: String(first?.path[0] ?? "amount"),
    fieldErrors,
  };
}

/** What the calculator form holds, as typed. */
export interface CalculatorValues {
  amount: string;
  rate: string;
  months: string;
  fee: string;
}

export interface CalculatorLimits {
  minAmount: number;
  maxAmount: number;
  amountStep: number;
  minMonths: number;
  maxMonths: number;
  minRate: number;
  maxRate: number;
}
