import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { clearTokenCookie, endSession, readSession } from "../../server/auth/session.server.ts";
import { forgetDevice } from "../../server/push/subscriptions.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/sign-out";

export function loader() {
  return redirect("/");
}

/** POST /auth/sign-out: ends the session on the server and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (signedIn) {
    await endSession(services, { sessionId: signedIn.session.id, reason: "signed_out" });
    await forgetDevice(services, signedIn.user.id, signedIn.session.deviceId);
  }
  return redirectWithToast(
    services.config,
    request,
    "/",
    { type: "info", title: "You are signed out." },
    { headers: { "Set-Cookie": await clearTokenCookie(services.config) } },
  );
}
