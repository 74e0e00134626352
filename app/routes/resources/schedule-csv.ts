import { calculate } from "../../domain/calculator.ts";
import { parseCalculatorQuery } from "../../domain/calculator-input.ts";
import { calculatorMessageText } from "../../server/calculator.server.ts";
import { languageOf } from "../../web/i18n.server.ts";
import type { Route } from "./+types/schedule-csv";

const rupees = (paise: number) => (paise / 100).toFixed(2);

/**
 * GET /EmiCalculator/schedule.csv?amount=…&rate=…&months=…[&fee=…]: the repayment schedule as CSV.
 * Its column names stay English (a file for spreadsheets); a wrong figure is explained in the
 * request's language.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const parsed = parseCalculatorQuery(new URL(request.url).searchParams);
  if (!parsed.ok) {
    const error = calculatorMessageText(languageOf(context), parsed.error);
    return new Response(`${parsed.field}: ${error}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const result = calculate(parsed.input);
  const lines = [
    "Instalment,Opening balance (INR),Interest (INR),Principal (INR),Payment (INR),Closing balance (INR)",
    ...result.schedule.map((l) =>
      [
        l.instalment,
        rupees(l.openingPaise),
        rupees(l.interestPaise),
        rupees(l.principalPaise),
        rupees(l.paymentPaise),
        rupees(l.closingPaise),
      ].join(","),
    ),
    `Total,,${rupees(result.totalInterestPaise)},${rupees(parsed.input.amountPaise)},${rupees(result.totalPayablePaise)},`,
  ];
  return new Response(`${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="emi-schedule-${rupees(parsed.input.amountPaise)}-${parsed.input.months}m.csv"`,
    },
  });
}
