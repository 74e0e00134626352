import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Config } from "../../../server/config.ts";
import { COOKIE_NAMES } from "../cookie-names.ts";
import { signedCookie } from "../cookies.server.ts";
import type { AppServices } from "../../context.ts";
import { randomToken, sha256 } from "../crypto.server.ts";
import { preparedQuery } from "../db/prepared.ts";
import { sessions, users } from "../db/schema.ts";
import { unreadNoticesOf } from "../notifications/unread.server.ts";

export const SESSION_DAYS = 180;
const DAY = 24 * 60 * 60 * 1000;
/** Renew the cookie and the row at most once a day of use. */
const RENEW_AFTER_MS = DAY;

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export interface SignedIn {
  user: User;
  session: Session;
  /** The person's unread notices that are out (the bell's count), read with the session. */
  unread: number;
}

/** The `token` cookie: HttpOnly, SameSite=Lax, Secure in production, 180 days, signed. */
export const tokenCookie = signedCookie(COOKIE_NAMES.session, { path: "/", maxAge: SESSION_DAYS * 24 * 60 * 60 });

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

/**
 * The live session of a token's hash, with its user (not disabled) and the user's unread notices
 * that are out (one round trip instead of two): read on every signed-in request.
 */
const liveSession = preparedQuery("live_session", (db, name) =>
  db
    .select({ session: sessions, user: users, unread: unreadNoticesOf(users.id, sql.placeholder("at")) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("tokenHash")),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql.placeholder("at")),
        isNull(users.disabledAt),
      ),
    )
    .prepare(name),
);

/**
 * The signed-in user of a request, or null. Renews a session in use (rolling 180 days), unless
 * `renew` is false (a public page only asks who is there: it does not send the cookie again).
 */
export async function readSession(
  services: Pick<AppServices, "db" | "config" | "now">,
  request: Request,
  { renew = true }: { renew?: boolean } = {},
): Promise<(SignedIn & { setCookie: string | null }) | null> {
  const { db, config, now } = services;
  const token: unknown = await tokenCookie(config).parse(request.headers.get("Cookie"));
  if (typeof token !== "string" || token.length < 20) return null;
  const at = now();
  const [row] = await liveSession(db, { tokenHash: sha256(token), at: at.toISOString() });
  if (!row) return null;
  let setCookie: string | null = null;
  if (renew && at.getTime() - row.session.lastUsedAt.getTime() > RENEW_AFTER_MS) {
    const expiresAt = new Date(at.getTime() + SESSION_DAYS * DAY);
    await db.update(sessions).set({ lastUsedAt: at, expiresAt }).where(eq(sessions.id, row.session.id));
    row.session.lastUsedAt = at;
    row.session.expiresAt = expiresAt;
    setCookie = await tokenCookie(config).serialize(token);
  }
  return { ...row, setCookie };
}

const readings = new WeakMap<Request, ReturnType<typeof readSession>>();

/**
 * Who is signed in, for pages outside the signed-in areas (the public layout and the pages below
 * it read it for the same request): read once per request, without renewing the session, since
 * these answers do not send the cookie again (the /User and /admin guards renew it).
 */
export function signedInOn(services: Pick<AppServices, "db" | "config" | "now">, request: Request) {
  let reading = readings.get(request);
  if (!reading) {
    reading = readSession(services, request, { renew: false });
    readings.set(request, reading);
  }
  return reading;
}

/** Ends a session on the server (sign-out, or renewal). */
export async function endSession(services: Pick<AppServices, "db" | "now">, { sessionId, reason }: { sessionId: string; reason: string }) {
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
