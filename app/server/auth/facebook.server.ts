import { OAuth2Client } from "arctic";
import { eq } from "drizzle-orm";
import { type Config, siteOrigin } from "../../../server/config.ts";
import type { AppServices, Client } from "../../context.ts";
import { COOKIE_NAMES } from "../cookie-names.ts";
import { signedCookie } from "../cookies.server.ts";
import { users } from "../db/schema.ts";
import { createUserSession } from "./session.server.ts";
import { signInLanding } from "../quick-start/progress.server.ts";

export function redirectUri(config: Config, request: Request) {
  return `${siteOrigin(config, request)}/auth/facebook/callback`;
}

/** The OAuth 2 client for Facebook; its endpoints come from configuration (Facebook's by default). */
export function facebookClient(config: Config, request: Request) {
  return oauthClient(config, redirectUri(config, request));
}

function oauthClient(config: Config, callbackUrl: string) {
  if (!config.facebook) throw new Error("Facebook sign-in is not configured");
  return new OAuth2Client(config.facebook.clientId, config.facebook.clientSecret, callbackUrl);
}

/** State and PKCE verifier between the redirect to Facebook and the callback (10 minutes, signed). */
export const oauthStateCookie = signedCookie(COOKIE_NAMES.facebookState, { path: "/auth/facebook", maxAge: 600 });

/** The profile Facebook returns (`id`; OpenID-style providers say `sub`). */
export async function fetchFacebookProfile(config: Config, accessToken: string) {
  if (!config.facebook) throw new Error("Facebook sign-in is not configured");
  const res = await fetch(config.facebook.userinfoUrl, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`Facebook profile request answered ${res.status}`);
  const body = (await res.json()) as { id?: string; sub?: string; name?: string; email?: string };
  const id = body.id ?? body.sub;
  if (!id) throw new Error("Facebook profile without an id");
  return { id: String(id), name: body.name ?? null };
}

/** The borrower account of a Facebook id, created on first sign-in (without a mobile number yet). */
export async function userForFacebook({ db }: Pick<AppServices, "db">, profile: { id: string; name: string | null }) {
  const [existing] = await db.select().from(users).where(eq(users.facebookId, profile.id));
  if (existing) return existing;
  const [created] = await db
    .insert(users)
    .values({ facebookId: profile.id, name: profile.name, role: "borrower" })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [again] = await db.select().from(users).where(eq(users.facebookId, profile.id));
  if (!again) throw new Error("could not create the account");
  return again;
}

export type FacebookSignIn =
  { ok: true; setCookie: string; landing: string; mobileVerified: boolean } | { ok: false; reason: "not_confirmed" };

/**
 * Facebook's callback: the authorization code exchanged (with its PKCE
 * verifier) for the profile, the borrower account of that Facebook id found
 * or created, and a session started. `landing`: where to go when no page was
 * asked for (a Facebook account verifies a mobile number first).
 */
export async function signInWithFacebook(
  services: Pick<AppServices, "db" | "config" | "now" | "realtime" | "log">,
  input: { code: string; codeVerifier: string; callbackUrl: string; client: Client },
): Promise<FacebookSignIn> {
  const { config } = services;
  if (!config.facebook) return { ok: false, reason: "not_confirmed" };
  let profile: { id: string; name: string | null };
  try {
    const tokens = await oauthClient(config, input.callbackUrl).validateAuthorizationCode(
      config.facebook.tokenUrl,
      input.code,
      input.codeVerifier,
    );
    profile = await fetchFacebookProfile(config, tokens.accessToken());
  } catch (error) {
    services.log.warn({ err: error }, "Facebook sign-in failed");
    return { ok: false, reason: "not_confirmed" };
  }
  const user = await userForFacebook(services, profile);
  const { setCookie } = await createUserSession(services, { userId: user.id, deviceId: `fb-${crypto.randomUUID()}`, ...input.client });
  return {
    ok: true,
    setCookie,
    mobileVerified: Boolean(user.mobileVerifiedAt),
    landing: user.mobileVerifiedAt ? await signInLanding(services, user.id) : "/quickStart/Otp",
  };
}
