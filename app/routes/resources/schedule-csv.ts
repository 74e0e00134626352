import { calculate } from "../../domain/calculator.ts";
import { parseCalculatorQuery } from "../../domain/calculator-input.ts";
import type { Route } from "./+types/schedule-csv";

const rupees = (paise: number) => (paise / 100).toFixed(2);

/** GET /EmiCalculator/schedule.csv?amount=…&rate=…&months=…[&fee=…]: the repayment schedule as CSV. */
export function loader({ request }: Route.LoaderArgs) {
  const parsed = parseCalculatorQuery(new URL(request.url).searchParams);
  if (!parsed.ok)
    return new Response(`${parsed.field}: ${parsed.error}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
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
