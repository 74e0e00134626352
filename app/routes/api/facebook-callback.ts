import { redirect } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { oauthStateCookie, redirectUri, signInWithFacebook } from "../../server/auth/facebook.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/facebook-callback";

/** GET /auth/facebook/callback: finishes Facebook sign-in; the account then verifies a mobile number. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { config } = services;
  const url = new URL(request.url);
  const saved = (await oauthStateCookie(config).parse(request.headers.get("Cookie"))) as { state: string; codeVerifier: string } | null;
  const fail = (why: string) =>
    redirectWithToast(config, request, "/quickStart/Otp", { type: "error", title: "Facebook sign-in did not complete.", description: why });
  if (!config.facebook) return redirect("/quickStart/Otp");
  const code = url.searchParams.get("code");
  if (!saved || !code || url.searchParams.get("state") !== saved.state)
    return fail("Please try again, or sign in with your mobile number.");
  const signedIn = await signInWithFacebook(services, {
    code,
    codeVerifier: saved.codeVerifier,
    callbackUrl: redirectUri(config, request),
    client: context.get(requestContext),
  });
  if (!signedIn.ok) return fail("Facebook did not confirm your sign-in. Please try again, or use your mobile number.");
  const headers = new Headers();
  headers.append("Set-Cookie", signedIn.setCookie);
  headers.append("Set-Cookie", await oauthStateCookie(config).serialize("", { maxAge: 0 }));
  return redirectWithToast(
    config,
    request,
    signedIn.landing,
    { type: "success", title: signedIn.mobileVerified ? "You are signed in." : "Signed in with Facebook. Now verify your mobile number." },
    { headers },
  );
}
