import { CodeChallengeMethod, generateCodeVerifier, generateState } from "arctic";
import { data, redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { facebookClient, oauthStateCookie } from "../../server/auth/facebook.server.ts";
import type { Route } from "./+types/facebook";

/** GET /auth/facebook: starts Facebook sign-in (authorization code with PKCE) when it is configured. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  if (!config.facebook) throw data({ message: "Facebook sign-in is not available." }, { status: 404 });
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = facebookClient(config, request).createAuthorizationURLWithPKCE(
    config.facebook.authorizationUrl,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    ["public_profile", "email"],
  );
  return redirect(url.toString(), { headers: { "Set-Cookie": await oauthStateCookie(config).serialize({ state, codeVerifier }) } });
}
