import { lookupPinCode } from "../../server/reference/lookups.server.ts";
import type { Route } from "./+types/pincode";

/** GET /api/pincode/{pin}: city, district and state from the shipped PIN data; 404 when unknown. */
export function loader({ params }: Route.LoaderArgs) {
  const info = lookupPinCode(params.pin);
  return info
    ? Response.json(info, { headers: { "Cache-Control": "public, max-age=86400" } })
    : Response.json({ error: "We do not know this PIN code. Check the 6 digits.", field: "pincode" }, { status: 404 });
}
