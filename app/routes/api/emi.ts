import { calculate } from "../../domain/calculator.ts";
import { parseCalculatorQuery } from "../../domain/calculator-input.ts";
import type { Route } from "./+types/emi";

/**
 * GET /api/emi?amount=<rupees>&rate=<annual %>&months=<n>[&fee=<rupees>]
 * 200: the loan's figures in paise with its schedule; 400: { error, field }.
 */
export function loader({ request }: Route.LoaderArgs) {
  const parsed = parseCalculatorQuery(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return Response.json({ error: parsed.error, field: parsed.field }, { status: 400 });
  }
  return Response.json(calculate(parsed.input), { headers: { "Cache-Control": "public, max-age=300" } });
}
