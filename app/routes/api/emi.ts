import { calculate } from "../../domain/calculator.ts";
import { parseCalculatorQuery } from "../../domain/calculator-input.ts";
import { calculatorMessageText } from "../../server/calculator.server.ts";
import { languageOf } from "../../web/i18n.server.ts";
import type { Route } from "./+types/emi";

/**
 * GET /api/emi?amount=<rupees>&rate=<annual %>&months=<n>[&fee=<rupees>]
 * 200: the loan's figures in paise with its schedule; 400: { error, field }, the error in the
 * request's language (the `lang` cookie, else Accept-Language, else English).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const parsed = parseCalculatorQuery(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return Response.json({ error: calculatorMessageText(languageOf(context), parsed.error), field: parsed.field }, { status: 400 });
  }
  return Response.json(calculate(parsed.input), { headers: { "Cache-Control": "public, max-age=300" } });
}
