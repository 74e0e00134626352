import { and, eq, gt, isNull, ne } from "drizzle-orm";
import { createContext, createCookie, data, redirect, type RouterContextProvider } from "react-router";
import type { Config } from "../../../server/config.ts";
import { type AppServices, servicesContext } from "../../context.ts";
import { randomToken, sha256 } from "../crypto.server.ts";
import { sessions, users } from "../db/schema.ts";

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

const cookies = new Map<string, ReturnType<typeof createCookie>>();
/** The `token` cookie: HttpOnly, SameSite=Lax, Secure in production, 180 days, signed. */
export function tokenCookie(config: Config) {
  const key = `${config.sessionSecret}:${config.isProduction}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createCookie("token", {
      httpOnly: true,
      sameSite: "lax",
      secure: config.isProduction,
      path: "/",
      maxAge: SESSION_DAYS * 24 * 60 * 60,
      secrets: [config.sessionSecret],
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

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

/** Other live sessions of a user (for tests and staff views). */
export async function liveSessions(services: Pick<AppServices, "db" | "now">, userId: string, exceptId?: string) {
  return services.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, services.now()),
        ...(exceptId ? [ne(sessions.id, exceptId)] : []),
      ),
    );
}

/** Set by the /User and /admin middleware for the routes below them. */
export const signedInContext = createContext<SignedIn>();

/** Only same-site paths may be redirected to after sign-in. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/User/Dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/**
 * Middleware of the borrower area: a request without a live session goes to
 * the sign-in page, which brings the borrower back here afterwards.
 */
export async function requireBorrowerMiddleware(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  next: () => Promise<Response>,
) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const url = new URL(request.url);
  if (!signedIn) {
    // Data requests of client navigations end in ".data": send the borrower back to the page itself.
    url.searchParams.delete("_routes");
    const page = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") + url.search;
    throw redirect(`/quickStart/Otp?redirectTo=${encodeURIComponent(page)}`);
  }
  if (!signedIn.user.mobileVerifiedAt && url.pathname.toLowerCase() !== "/user/dashboard") {
    // A Facebook account verifies a mobile number before it can go further than the dashboard.
    throw redirect("/User/Dashboard");
  }
  (context as RouterContextProvider).set(signedInContext, signedIn);
  const response = await next();
  if (signedIn.setCookie) response.headers.append("Set-Cookie", signedIn.setCookie);
  return response;
}

/** Middleware of the back office: staff and admins only; a borrower gets 403. */
export async function requireStaffMiddleware(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  next: () => Promise<Response>,
) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const url = new URL(request.url);
  if (!signedIn) {
    const page = url.pathname.replace(/\.data$/, "") + url.search;
    throw redirect(`/admin/login?redirectTo=${encodeURIComponent(page)}`);
  }
  if (signedIn.user.role !== "staff" && signedIn.user.role !== "admin") {
    throw data({ message: "This area is for the lender's staff." }, { status: 403 });
  }
  (context as RouterContextProvider).set(signedInContext, signedIn);
  const response = await next();
  if (signedIn.setCookie) response.headers.append("Set-Cookie", signedIn.setCookie);
  return response;
}
