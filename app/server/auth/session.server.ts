import { and, eq, gt, isNull } from "drizzle-orm";
import { createContext, data, redirect, type RouterContextProvider } from "react-router";
import type { Config } from "../../../server/config.ts";
import { signedCookie } from "../cookies.server.ts";
import { type AppServices, servicesContext } from "../../context.ts";
import { randomToken, sha256 } from "../crypto.server.ts";
import { sessions, users } from "../db/schema.ts";
import { STAFF_NOT_BORROWER } from "./sign-in.server.ts";

export const SESSION_DAYS = 180;
const DAY = 24 * 60 * 60 * 1000;
/** Renew the cookie and the row at most once a day of use. */
const RENEW_AFTER_MS = DAY;

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export interface SignedIn {
  user: User;
  session: Session;
}

/** The `token` cookie: HttpOnly, SameSite=Lax, Secure in production, 180 days, signed. */
export const tokenCookie = signedCookie("token", { path: "/", maxAge: SESSION_DAYS * 24 * 60 * 60 });

export const clearTokenCookie = (config: Config) => tokenCookie(config).serialize("", { maxAge: 0 });

/**
 * Starts a session for `userId` on `deviceId` and ends every other live
 * session of that user (one live device); open pages of the ended sessions
 * on other devices are told through the realtime hub. Returns the Set-Cookie value.
 */
export async function createUserSession(
  services: Pick<AppServices, "db" | "config" | "now" | "realtime">,
  { userId, deviceId, ip, userAgent }: { userId: string; deviceId: string; ip: string; userAgent: string },
): Promise<{ setCookie: string; session: Session }> {
  const { db, config, now, realtime } = services;
  const token = randomToken();
  const at = now();
  const { session, ended } = await db.transaction(async (tx) => {
    const endedRows = await tx
      .update(sessions)
      .set({ endedAt: at, endReason: "displaced" })
      .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    const [created] = await tx
      .insert(sessions)
      .values({
        userId,
        tokenHash: sha256(token),
        deviceId,
        ip,
        userAgent,
        createdAt: at,
        lastUsedAt: at,
        expiresAt: new Date(at.getTime() + SESSION_DAYS * DAY),
      })
      .returning();
    return { session: created as Session, ended: endedRows };
  });
  if (ended.length) {
    await realtime.publish({
      type: "session_ended",
      userId,
      sessionIds: ended.map((e) => e.id),
      reason: "displaced",
      byDeviceId: deviceId,
    });
  }
  return { setCookie: await tokenCookie(config).serialize(token), session };
}

/** The signed-in user of a request, or null. Renews a session in use (rolling 180 days). */
export async function readSession(
  services: Pick<AppServices, "db" | "config" | "now">,
  request: Request,
): Promise<(SignedIn & { setCookie: string | null }) | null> {
  const { db, config, now } = services;
  const token: unknown = await tokenCookie(config).parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || token.length < 20) return null;
  const at = now();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.endedAt), gt(sessions.expiresAt, at), isNull(users.disabledAt)));
  if (!row) return null;
  let setCookie: string | null = null;
  if (at.getTime() - row.session.lastUsedAt.getTime() > RENEW_AFTER_MS) {
    const expiresAt = new Date(at.getTime() + SESSION_DAYS * DAY);
    await db.update(sessions).set({ lastUsedAt: at, expiresAt }).where(eq(sessions.id, row.session.id));
    row.session.lastUsedAt = at;
    row.session.expiresAt = expiresAt;
    setCookie = await tokenCookie(config).serialize(token);
  }
  return { ...row, setCookie };
}

/** Ends a session on the server (sign-out, or renewal). */
export async function endSession(services: Pick<AppServices, "db" | "now">, sessionId: string, reason: string) {
  await services.db
    .update(sessions)
    .set({ endedAt: services.now(), endReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt)));
}

/**
 * Device reload: replaces the current session with a fresh one on the same
 * device, without displacing anything. Returns the new Set-Cookie value.
 */
export async function renewSession(services: Pick<AppServices, "db" | "config" | "now">, signedIn: SignedIn) {
  const { db, config, now } = services;
  const token = randomToken();
  const at = now();
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ endedAt: at, endReason: "renewed" }).where(eq(sessions.id, signedIn.session.id));
    await tx.insert(sessions).values({
      userId: signedIn.user.id,
      tokenHash: sha256(token),
      deviceId: signedIn.session.deviceId,
      ip: signedIn.session.ip,
      userAgent: signedIn.session.userAgent,
      createdAt: signedIn.session.createdAt,
      lastUsedAt: at,
      expiresAt: new Date(at.getTime() + SESSION_DAYS * DAY),
    });
  });
  return tokenCookie(config).serialize(token);
}

/** Set by the /User and /admin middleware for the routes below them. */
export const signedInContext = createContext<SignedIn>();

const REDIRECT_BASE = "http://redirect.invalid";

/**
 * Only a path of this site may be redirected to after sign-in. The value is
 * judged after the URL parser's own normalisation (which drops tabs and line
 * breaks and turns "\\" into "/", so "/\t/evil.example" is "//evil.example"),
 * and what is returned is the parser's serialisation: safe in a Location header.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/User/Dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2000) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

type MiddlewareArgs = { request: Request; context: Readonly<RouterContextProvider> };

/** The page a request is for: client navigations fetch "<path>.data" (and "/_root.data" for "/"). */
export function pageOf(request: Request): { path: string; search: string } {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  return { path: url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/"), search: url.search };
}

/**
 * Shared shape of the area guards: without a live session, off to `signInPath`
 * (which brings the visitor back); `allow` may throw a redirect or a 403; the
 * session is then available to the routes below, and a renewed cookie is sent.
 */
async function guardArea(
  { request, context }: MiddlewareArgs,
  next: () => Promise<Response>,
  signInPath: string,
  allow: (signedIn: SignedIn, page: { path: string; search: string }) => void,
) {
  const signedIn = await readSession(context.get(servicesContext), request);
  const page = pageOf(request);
  if (!signedIn) throw redirect(`${signInPath}?redirectTo=${encodeURIComponent(page.path + page.search)}`);
  allow(signedIn, page);
  (context as RouterContextProvider).set(signedInContext, signedIn);
  const response = await next();
  if (signedIn.setCookie) response.headers.append("Set-Cookie", signedIn.setCookie);
  return response;
}

/** Middleware of the borrower area: sign-in first, and a verified mobile number beyond the dashboard. */
export function requireBorrowerMiddleware(args: MiddlewareArgs, next: () => Promise<Response>) {
  return guardArea(args, next, "/quickStart/Otp", (signedIn, page) => {
    if (signedIn.user.role !== "borrower") throw data({ message: STAFF_NOT_BORROWER }, { status: 403 });
    if (!signedIn.user.mobileVerifiedAt && page.path.toLowerCase() !== "/user/dashboard") {
      // A Facebook account verifies a mobile number before it can go further than the dashboard.
      throw redirect("/User/Dashboard");
    }
  });
}

/** Middleware of the back office: staff and admins only; a borrower gets 403. */
export function requireStaffMiddleware(args: MiddlewareArgs, next: () => Promise<Response>) {
  return guardArea(args, next, "/admin/login", (signedIn) => {
    if (signedIn.user.role !== "staff" && signedIn.user.role !== "admin") {
      throw data({ message: "This area is for the lender's staff." }, { status: 403 });
    }
  });
}
