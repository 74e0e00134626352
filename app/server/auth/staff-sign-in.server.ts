import { verifyTOTP } from "@epic-web/totp";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { COOKIE_NAMES } from "../cookie-names.ts";
import { signedCookie } from "../cookies.server.ts";
import { randomToken, sha256 } from "../crypto.server.ts";
import { users, verifications } from "../db/schema.ts";
import { hitRateLimit } from "../rate-limit.server.ts";
import { createUserSession } from "./session.server.ts";
import { hashPassword, newTotpEnrolment, openTotpSecret, sealTotpSecret, TOTP, totpQr, verifyPassword } from "./staff.server.ts";
import { audit } from "../audit.server.ts";

/**
 * Staff sign-in in two steps: e-mail and password, then the authenticator
 * code (enrolled by QR code at the first sign-in). Between the two, a pending
 * sign-in is a `verifications` row (purpose `staff_sign_in`) whose token only
 * the browser's `staff_pending` cookie holds: it takes 5 wrong codes and is
 * used once. Each account counts wrong codes across sign-ins and locks its
 * second factor for 15 minutes after 10, and never accepts a code of a time
 * step it already accepted (one code, one session).
 */
export const STAFF_SIGN_IN = {
  pendingMinutes: 10,
  codesPerSignIn: 5,
  failuresBeforeLock: 10,
  lockMinutes: 15,
  passwordAttempts: { limit: 20, windowMs: 15 * 60_000 },
} as const;
const PURPOSE = "staff_sign_in";

/** What the browser keeps between the two steps (signed). The row holds only the token's hash. */
export interface PendingStaffSignIn {
  token: string;
  redirectTo: string;
  /** At the first sign-in: the new TOTP secret, encrypted. */
  enrolSecret?: string;
}

export const staffPendingCookie = signedCookie(COOKIE_NAMES.staffPending, { path: "/admin", maxAge: STAFF_SIGN_IN.pendingMinutes * 60 });

type Services = Pick<AppServices, "db" | "now" | "config" | "keyring" | "realtime">;
interface Client {
  ip: string;
  userAgent: string;
}

// A known e-mail costs one Argon2 verification; an unknown one must cost the same.
let dummyHash: Promise<string> | undefined;
const hashForUnknownAccount = () => (dummyHash ??= hashPassword(randomToken(24)));

export type PasswordStep = { ok: true; pending: PendingStaffSignIn } | { ok: false; reason: "wrong" | "too_many" };

/** The first step: a staff account's e-mail and password. */
export async function checkStaffPassword(
  services: Services,
  { email, password, redirectTo, client }: { email: string; password: string; redirectTo: string; client: Client },
): Promise<PasswordStep> {
  const { db, now } = services;
  const limit = await hitRateLimit(services, { action: "staff_login", key: client.ip, limit: STAFF_SIGN_IN.passwordAttempts });
  if (!limit.allowed) return { ok: false, reason: "too_many" };
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  const candidate = user && user.role !== "borrower" && !user.disabledAt && user.passwordHash ? user : null;
  const matches = await verifyPassword(candidate?.passwordHash ?? (await hashForUnknownAccount()), password);
  if (!candidate || !matches) {
    await audit(services, {
      by: user ? { id: user.id, role: user.role } : null,
      client,
      at: "database",
      action: "staff.sign_in_failed",
      details: { email },
    });
    return { ok: false, reason: "wrong" };
  }
  const token = randomToken();
  const at = now();
  // One pending sign-in per account: a newer password step replaces (and so ends) an older one.
  const row = {
    target: candidate.id,
    purpose: PURPOSE,
    codeHash: sha256(token),
    attempts: 0,
    sentAt: at,
    expiresAt: new Date(at.getTime() + STAFF_SIGN_IN.pendingMinutes * 60_000),
    consumedAt: null,
  };
  await db
    .insert(verifications)
    .values(row)
    .onConflictDoUpdate({ target: [verifications.target, verifications.purpose], set: row });
  const pending: PendingStaffSignIn = { token, redirectTo };
  if (!candidate.totpEnrolledAt)
    pending.enrolSecret = sealTotpSecret(
      services,
      (await newTotpEnrolment(services.config.public.brandName, candidate.email ?? "")).secret,
    );
  return { ok: true, pending };
}

/** The live pending sign-in a cookie points to, with its account; null when it is used, dead or unknown. */
async function livePending(db: Services["db"], token: string, at: Date, lock: boolean) {
  const query = db
    .select({ row: verifications, user: users })
    .from(verifications)
    .innerJoin(users, sql`${users.id}::text = ${verifications.target}`)
    .where(
      and(
        eq(verifications.purpose, PURPOSE),
        eq(verifications.codeHash, sha256(token)),
        isNull(verifications.consumedAt),
        gt(verifications.expiresAt, at),
      ),
    );
  const [found] = lock ? await query.for("update") : await query;
  return found && !found.user.disabledAt ? found : null;
}

/** Which step a browser with this cookie is at, and what the enrolment step shows. */
export async function staffSignInStage(services: Services, pending: PendingStaffSignIn | null) {
  const found = pending ? await livePending(services.db, pending.token, services.now(), false) : null;
  if (!pending || !found) return { stage: "password" as const, qrSvg: null, secret: null };
  if (!pending.enrolSecret) return { stage: "totp" as const, qrSvg: null, secret: null };
  const secret = openTotpSecret(services, pending.enrolSecret);
  const { qrSvg } = await totpQr(services.config.public.brandName, found.user.email ?? "", secret);
  return { stage: "enrol" as const, qrSvg, secret };
}

/** The TOTP time step a code belongs to, or null when it is not one of the current window's codes. */
async function stepOfCode(secret: string, otp: string): Promise<number | null> {
  const counter = () => Math.floor(Date.now() / 1000 / TOTP.period);
  const before = counter();
  const result = await verifyTOTP({ ...TOTP, secret, otp, window: 1 });
  // Crossing a step boundary during the check, take the later reading: a code is refused rather than accepted twice.
  return result ? Math.max(before, counter()) + result.delta : null;
}

export type CodeStep =
  | { ok: true; setCookie: string; redirectTo: string }
  | { ok: false; reason: "restart"; message: string }
  | { ok: false; reason: "wrong"; message: string }
  | { ok: false; reason: "locked"; until: Date };

/**
 * The second step. In one transaction with the pending sign-in and the account
 * locked: the code must be right, of a time step after the last one accepted,
 * and the second factor not locked; a wrong one counts on both. A right one
 * uses the pending sign-in up, and a session starts.
 */
export async function checkStaffCode(
  services: Services,
  { pending, otp, client }: { pending: PendingStaffSignIn; otp: string; client: Client },
): Promise<CodeStep> {
  const { db, now } = services;
  const at = now();
  const outcome = await db.transaction(async (tx): Promise<CodeStep | { ok: true; userId: string; role: string; enrolled: boolean }> => {
    const found = await livePending(tx, pending.token, at, true);
    if (!found) return { ok: false, reason: "restart", message: "Your sign-in timed out. Start again." };
    const [user] = await tx.select().from(users).where(eq(users.id, found.user.id)).for("update");
    if (!user) return { ok: false, reason: "restart", message: "Start again." };
    if (user.totpLockedUntil && user.totpLockedUntil > at) return { ok: false, reason: "locked", until: user.totpLockedUntil };
    const secret = pending.enrolSecret
      ? openTotpSecret(services, pending.enrolSecret)
      : user.totpSecretEnc
        ? openTotpSecret(services, user.totpSecretEnc)
        : null;
    const step = secret ? await stepOfCode(secret, otp) : null;
    const replayed = step !== null && user.totpLastStep !== null && step <= user.totpLastStep;
    if (step === null || replayed) {
      const failures = user.totpFailures + 1;
      const lock = failures >= STAFF_SIGN_IN.failuresBeforeLock;
      const until = new Date(at.getTime() + STAFF_SIGN_IN.lockMinutes * 60_000);
      await tx
        .update(users)
        .set(lock ? { totpFailures: 0, totpLockedUntil: until } : { totpFailures: failures })
        .where(eq(users.id, user.id));
      const attempts = found.row.attempts + 1;
      const spent = attempts >= STAFF_SIGN_IN.codesPerSignIn;
      await tx
        .update(verifications)
        .set(spent ? { attempts, consumedAt: at } : { attempts })
        .where(and(eq(verifications.target, user.id), eq(verifications.purpose, PURPOSE)));
      await audit(
        { db: tx },
        {
          by: { id: user.id, role: user.role },
          client,
          at: "database",
          action: lock ? "staff.totp_locked" : "staff.totp_failed",
          details: { replayed, attempts },
        },
      );
      if (lock) return { ok: false, reason: "locked", until };
      if (spent)
        return { ok: false, reason: "restart", message: `${STAFF_SIGN_IN.codesPerSignIn} wrong codes. Sign in again with your password.` };
      const left = STAFF_SIGN_IN.codesPerSignIn - attempts;
      return {
        ok: false,
        reason: "wrong",
        message: `${replayed ? "That code was already used. Wait for the next code from your authenticator app." : "That code is not right. Check the time on your phone and try the current code."} ${left} ${left === 1 ? "try" : "tries"} left.`,
      };
    }
    await tx
      .update(verifications)
      .set({ consumedAt: at })
      .where(and(eq(verifications.target, user.id), eq(verifications.purpose, PURPOSE)));
    await tx
      .update(users)
      .set({
        totpLastStep: step,
        totpFailures: 0,
        totpLockedUntil: null,
        ...(pending.enrolSecret ? { totpSecretEnc: pending.enrolSecret, totpEnrolledAt: at } : {}),
      })
      .where(eq(users.id, user.id));
    if (pending.enrolSecret)
      await audit({ db: tx }, { by: { id: user.id, role: user.role }, client, at: "database", action: "staff.totp_enrolled" });
    return { ok: true, userId: user.id, role: user.role, enrolled: Boolean(pending.enrolSecret) };
  });
  if (!outcome.ok || !("userId" in outcome)) return outcome;
  const { setCookie } = await createUserSession(services, { userId: outcome.userId, deviceId: `staff-${crypto.randomUUID()}`, ...client });
  await audit(services, { by: { id: outcome.userId, role: outcome.role }, client, at: "database", action: "staff.signed_in" });
  return { ok: true, setCookie, redirectTo: pending.redirectTo };
}
