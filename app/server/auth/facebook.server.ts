import { OAuth2Client } from "arctic";
import { eq } from "drizzle-orm";
import { type Config, siteOrigin } from "../../../server/config.ts";
import type { AppServices } from "../../context.ts";
import { signedCookie } from "../cookies.server.ts";
import { users } from "../db/schema.ts";

export function redirectUri(config: Config, request: Request) {
  return `${siteOrigin(config, request)}/auth/facebook/callback`;
}

/** The OAuth 2 client for Facebook; its endpoints come from configuration (Facebook's by default). */
export function facebookClient(config: Config, request: Request) {
  if (!config.facebook) throw new Error("Facebook sign-in is not configured");
  return new OAuth2Client(config.facebook.clientId, config.facebook.clientSecret, redirectUri(config, request));
}

/** State and PKCE verifier between the redirect to Facebook and the callback (10 minutes, signed). */
export const oauthStateCookie = signedCookie("fb_oauth", { path: "/auth/facebook", maxAge: 600 });

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
