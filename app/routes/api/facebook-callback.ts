import { redirect } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { facebookClient, fetchFacebookProfile, oauthStateCookie, userForFacebook } from "../../server/auth/facebook.server.ts";
import { createUserSession } from "../../server/auth/session.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/facebook-callback";
import { signInLanding } from "../../server/quick-start/progress.server.ts";

/** GET /auth/facebook/callback: finishes Facebook sign-in; the account then verifies a mobile number. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { config, log } = services;
  const { ip, userAgent } = context.get(requestContext);
  const url = new URL(request.url);
  const saved = (await oauthStateCookie(config).parse(request.headers.get("Cookie"))) as { state: string; codeVerifier: string } | null;
  const fail = (why: string) =>
    redirectWithToast(config, request, "/quickStart/Otp", { type: "error", title: "Facebook sign-in did not complete.", description: why });
  if (!config.facebook) return redirect("/quickStart/Otp");
  const code = url.searchParams.get("code");
  if (!saved || !code || url.searchParams.get("state") !== saved.state)
    return fail("Please try again, or sign in with your mobile number.");
  try {
    const tokens = await facebookClient(config, request).validateAuthorizationCode(config.facebook.tokenUrl, code, saved.codeVerifier);
    const profile = await fetchFacebookProfile(config, tokens.accessToken());
    const user = await userForFacebook(services, profile);
    const { setCookie } = await createUserSession(services, { userId: user.id, deviceId: `fb-${crypto.randomUUID()}`, ip, userAgent });
    const headers = new Headers();
    headers.append("Set-Cookie", setCookie);
    headers.append("Set-Cookie", await oauthStateCookie(config).serialize("", { maxAge: 0 }));
    return redirectWithToast(
      config,
      request,
      user.mobileVerifiedAt ? await signInLanding(services, user.id) : "/quickStart/Otp",
      { type: "success", title: user.mobileVerifiedAt ? "You are signed in." : "Signed in with Facebook. Now verify your mobile number." },
      { headers },
    );
  } catch (error) {
    log.warn({ err: error }, "Facebook sign-in failed");
    return fail("Facebook did not confirm your sign-in. Please try again, or use your mobile number.");
  }
}
