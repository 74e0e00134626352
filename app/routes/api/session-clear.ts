import { servicesContext } from "../../context.ts";
import { clearTokenCookie, endSession, readSession } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/session-clear";

/**
 * POST /api/session/clear: a displaced page clears its HttpOnly session cookie
 * (and ends the session if it is somehow still live).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (signedIn) await endSession(services, { sessionId: signedIn.session.id, reason: "signed_out" });
  return new Response(null, { status: 204, headers: { "Set-Cookie": await clearTokenCookie(services.config) } });
}
