import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { clearTokenCookie, endSession, readSession } from "../../server/auth/session.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/sign-out";

export function loader() {
  return redirect("/");
}

/** POST /auth/sign-out: ends the session on the server and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (signedIn) await endSession(services, { sessionId: signedIn.session.id, reason: "signed_out" });
  return redirectWithToast(
    services.config,
    request,
    "/",
    { type: "info", title: "You are signed out." },
    { headers: { "Set-Cookie": await clearTokenCookie(services.config) } },
  );
}
