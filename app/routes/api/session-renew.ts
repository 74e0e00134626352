import { servicesContext } from "../../context.ts";
import { readSession, renewSession } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/session-renew";

/** POST /api/session/renew: device reload asked by staff; the page gets a fresh session, then reloads. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (!signedIn) return Response.json({ error: "not signed in" }, { status: 401 });
  const setCookie = await renewSession(services, signedIn);
  return Response.json({ renewed: true }, { headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
}
