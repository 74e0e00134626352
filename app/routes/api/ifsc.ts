import { lookupIfsc } from "../../server/reference/lookups.server.ts";
import type { Route } from "./+types/ifsc";

/** GET /api/ifsc/{code}: the bank of an IFSC from the shipped IFSC list; 404 when unknown. */
export function loader({ params }: Route.LoaderArgs) {
  const bank = lookupIfsc(params.code);
  return bank
    ? Response.json(bank, { headers: { "Cache-Control": "public, max-age=86400" } })
    : Response.json({ error: "We do not know this IFSC. Check it on your cheque book or passbook.", field: "ifsc" }, { status: 404 });
}
