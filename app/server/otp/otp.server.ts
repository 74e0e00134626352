import { randomInt } from "node:crypto";
import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import type { Config } from "../../../server/config.ts";
import type { Language } from "../../i18n/languages.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { hmac, safeEqual } from "../crypto.server.ts";
import type { Db } from "../db/client.ts";
import { verificationSends, verifications } from "../db/schema.ts";
import type { SmsSender } from "../sms/sms.server.ts";

/** What a code is for; one live code per (target, purpose). */
export type OtpPurpose = "sign_in" | "quick_start" | "agreement";

export interface OtpDeps {
  db: Db;
  config: Config;
  sms: SmsSender;
  now: () => Date;
}

export type SendResult =
  | { ok: true; expiresAt: Date; resendAt: Date }
  | { ok: false; reason: "resend_too_soon" | "number_limit" | "ip_limit" | "sms_failed"; retryAt: Date | null; message: string };

export type VerifyResult =
  | { ok: true }
  | {
      ok: false;
      reason: "no_code" | "expired" | "locked" | "wrong";
      attemptsLeft: number;
      message: string;
      /** This wrong try was the last one allowed: the code is dead from now on (a page words that differently). */
      lockedNow?: true;
    };

const HOUR = 60 * 60 * 1000;

function codeHash(config: Config, target: string, purpose: OtpPurpose, code: string) {
  return hmac(config.sessionSecret, `otp:${purpose}:${target}:${code}`);
}

function secondsUntil(date: Date, now: Date) {
  return Math.max(1, Math.ceil((date.getTime() - now.getTime()) / 1000));
}

/**
 * Issues a new 6-digit code for (target, purpose) and sends it, unless a limit
 * says no: resend interval, codes per number per hour, codes per address per hour.
 */
export async function sendCode(
  { db, config, sms, now }: OtpDeps,
  {
    target,
    purpose,
    ip,
    message,
    language = "en",
  }: {
    target: string;
    purpose: OtpPurpose;
    ip: string;
    message: (code: string) => string;
    /** The SMS's language: its DLT template is that language's. */
    language?: Language;
  },
): Promise<SendResult> {
  const at = now();
  const hourAgo = new Date(at.getTime() - HOUR);
  const limits = config.otp;
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");

  const decision = await db.transaction(async (tx) => {
    // Serialise sends for one number across processes.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${target}`}))`);
    const [current] = await tx
      .select()
      .from(verifications)
      .where(and(eq(verifications.target, target), eq(verifications.purpose, purpose)));
    if (current && !current.consumedAt) {
      const resendAt = new Date(current.sentAt.getTime() + limits.resendSeconds * 1000);
      if (resendAt > at) {
        return {
          ok: false as const,
          reason: "resend_too_soon" as const,
          retryAt: resendAt,
          message: `A code was sent moments ago. You can ask for a new one in ${secondsUntil(resendAt, at)} seconds.`,
        };
      }
    }
    const byNumber = await tx
      .select({ sentAt: verificationSends.sentAt })
      .from(verificationSends)
      .where(and(eq(verificationSends.target, target), gt(verificationSends.sentAt, hourAgo)))
      .orderBy(asc(verificationSends.sentAt));
    if (byNumber.length >= limits.perNumberPerHour) {
      const retryAt = new Date((byNumber[0]?.sentAt ?? at).getTime() + HOUR);
      return {
        ok: false as const,
        reason: "number_limit" as const,
        retryAt,
        message: `Too many codes were sent to this number in the last hour. Please try again after ${formatTimeIST(retryAt)}.`,
      };
    }
    const [byIp] = await tx
      .select({ n: count() })
      .from(verificationSends)
      .where(and(eq(verificationSends.ip, ip), gt(verificationSends.sentAt, hourAgo)));
    if ((byIp?.n ?? 0) >= limits.perIpPerHour) {
      const [oldest] = await tx
        .select({ sentAt: verificationSends.sentAt })
        .from(verificationSends)
        .where(and(eq(verificationSends.ip, ip), gt(verificationSends.sentAt, hourAgo)))
        .orderBy(asc(verificationSends.sentAt))
        .limit(1);
      const retryAt = new Date((oldest?.sentAt ?? at).getTime() + HOUR);
      return {
        ok: false as const,
        reason: "ip_limit" as const,
        retryAt,
        message: `Too many codes were requested from your network in the last hour. Please try again after ${formatTimeIST(retryAt)}.`,
      };
    }
    const expiresAt = new Date(at.getTime() + limits.ttlSeconds * 1000);
    const row = {
      target,
      purpose,
      codeHash: codeHash(config, target, purpose, code),
      attempts: 0,
      sentAt: at,
      expiresAt,
      consumedAt: null,
    };
    await tx
      .insert(verifications)
      .values(row)
      .onConflictDoUpdate({ target: [verifications.target, verifications.purpose], set: row });
    await tx.insert(verificationSends).values({ target, purpose, ip, sentAt: at });
    return { ok: true as const, expiresAt, resendAt: new Date(at.getTime() + limits.resendSeconds * 1000) };
  });

  if (!decision.ok) return decision;
  try {
    await sms.send({ to: target, text: message(code), templateId: config.smsTemplates[language].otp });
  } catch {
    return { ok: false, reason: "sms_failed", retryAt: null, message: "We could not send the SMS just now. Please try again in a minute." };
  }
  return decision;
}

/** Checks a code; a right one is used up, five wrong ones kill it. */
export async function verifyCode(
  { db, config, now }: Omit<OtpDeps, "sms">,
  { target, purpose, code }: { target: string; purpose: OtpPurpose; code: string },
): Promise<VerifyResult> {
  const at = now();
  const max = config.otp.maxAttempts;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${target}`}))`);
    const [row] = await tx
      .select()
      .from(verifications)
      .where(and(eq(verifications.target, target), eq(verifications.purpose, purpose)));
    if (!row || row.consumedAt) {
      return {
        ok: false as const,
        reason: "no_code" as const,
        attemptsLeft: 0,
        message: "There is no code waiting for this number. Ask for a new code.",
      };
    }
    if (row.attempts >= max) {
      return {
        ok: false as const,
        reason: "locked" as const,
        attemptsLeft: 0,
        message: "This code has had too many wrong tries and no longer works. Ask for a new code.",
      };
    }
    if (row.expiresAt <= at) {
      return {
        ok: false as const,
        reason: "expired" as const,
        attemptsLeft: 0,
        message: `This code has expired (codes last ${Math.round(config.otp.ttlSeconds / 60)} minutes). Ask for a new code.`,
      };
    }
    if (!safeEqual(row.codeHash, codeHash(config, target, purpose, code))) {
      const attempts = row.attempts + 1;
      await tx
        .update(verifications)
        .set({ attempts })
        .where(and(eq(verifications.target, target), eq(verifications.purpose, purpose)));
      const left = max - attempts;
      return left > 0
        ? {
            ok: false as const,
            reason: "wrong" as const,
            attemptsLeft: left,
            message: `That code is not right. You have ${left} ${left === 1 ? "try" : "tries"} left.`,
          }
        : {
            ok: false as const,
            reason: "locked" as const,
            attemptsLeft: 0,
            lockedNow: true as const,
            message: `That code is not right, and it no longer works after ${max} wrong tries. Ask for a new code.`,
          };
    }
    await tx
      .update(verifications)
      .set({ consumedAt: at })
      .where(and(eq(verifications.target, target), eq(verifications.purpose, purpose)));
    return { ok: true as const };
  });
}
