import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { COOKIE_NAMES } from "../cookie-names.ts";
import { signedCookie } from "../cookies.server.ts";
import { users } from "../db/schema.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { msg } from "../../i18n/form-message.ts";
import type { Language } from "../../i18n/languages.ts";
import { setBorrowerLanguage } from "../i18n/borrower-language.server.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { sendCode, type SendResult, type VerifyResult, verifyCode } from "../otp/otp.server.ts";
import { createUserSession } from "./session.server.ts";
import { signInLanding } from "../quick-start/progress.server.ts";

export const STAFF_NOT_BORROWER =
  "You are signed in with a staff account. Staff accounts cannot use the borrower area, link a mobile number or apply: sign out first.";

/** The number a code was sent to, between the two steps of sign-in (10 minutes, signed). */
export const pendingSignInCookie = signedCookie(COOKIE_NAMES.otpPending, { path: "/quickStart", maxAge: 10 * 60 });

export interface PendingSignIn {
  mobile: string;
  /** The page asked for, "" when none (then signInLanding decides). */
  redirectTo: string;
  resendAt: string;
}

/**
 * The account for a verified mobile number: a new number creates a borrower,
 * a known one signs in. A signed-in account without a number (Facebook) gets it linked.
 * `error`: a message key (app/i18n/form-message.ts).
 */
export async function userForVerifiedMobile(
  { db, now }: Pick<AppServices, "db" | "now">,
  { mobile, linkTo }: { mobile: string; linkTo: { id: string; role: string } | null },
): Promise<{ userId: string; created: boolean } | { error: string }> {
  // Staff and borrowers are separate identities: a staff account never gets a mobile number or the borrower area.
  if (linkTo && linkTo.role !== "borrower") return { error: msg("signIn.errors.staffSignedIn") };
  const linkToUserId = linkTo?.id ?? null;
  const [existing] = await db.select().from(users).where(eq(users.mobile, mobile));
  if (linkToUserId) {
    if (existing && existing.id !== linkToUserId) {
      return { error: msg("signIn.errors.otherAccount") };
    }
    await db.update(users).set({ mobile, mobileVerifiedAt: now() }).where(eq(users.id, linkToUserId));
    return { userId: linkToUserId, created: false };
  }
  if (existing) {
    if (existing.role !== "borrower") return { error: msg("signIn.errors.staffAccount") };
    if (existing.disabledAt) return { error: msg("signIn.errors.closed") };
    if (!existing.mobileVerifiedAt) await db.update(users).set({ mobileVerifiedAt: now() }).where(eq(users.id, existing.id));
    return { userId: existing.id, created: false };
  }
  const [created] = await db
    .insert(users)
    .values({ mobile, mobileVerifiedAt: now(), role: "borrower" })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (created) return { userId: created.id, created: true };
  // A concurrent sign-in created it first.
  const [again] = await db.select({ id: users.id }).from(users).where(eq(users.mobile, mobile));
  return again ? { userId: again.id, created: false } : { error: msg("signIn.errors.tryAgain") };
}

/** Why a code was not sent, as a message key (app/i18n/form-message.ts) the sign-in page says in its language. */
export function refusedSend(refused: Extract<SendResult, { ok: false }>, now: Date): string {
  const time = refused.retryAt ? formatTimeIST(refused.retryAt) : "";
  switch (refused.reason) {
    case "resend_too_soon":
      return msg("signIn.errors.resendTooSoon", {
        seconds: Math.max(1, Math.ceil(((refused.retryAt?.getTime() ?? 0) - now.getTime()) / 1000)),
      });
    case "number_limit":
      return msg("signIn.errors.numberLimit", { time });
    case "ip_limit":
      return msg("signIn.errors.ipLimit", { time });
    case "sms_failed":
      return msg("signIn.errors.smsFailed");
  }
}

/** Why a code was not accepted, as a message key. */
export function refusedCode(refused: Extract<VerifyResult, { ok: false }>, config: AppServices["config"]): string {
  switch (refused.reason) {
    case "no_code":
      return msg("signIn.errors.noCode");
    case "expired":
      return msg("signIn.errors.expired", { minutes: Math.round(config.otp.ttlSeconds / 60) });
    case "wrong":
      return msg("signIn.errors.wrong", { left: refused.attemptsLeft });
    case "locked":
      return refused.lockedNow ? msg("signIn.errors.lockedNow", { max: config.otp.maxAttempts }) : msg("signIn.errors.locked");
  }
}

/**
 * The sign-in code, by SMS to `mobile` (the limits per number and per address apply); a refusal's
 * `message` is a message key. The SMS is in the request's language (`language`, else the one the
 * root's middleware chose for `client`'s request): the visitor may have no account yet.
 */
export async function sendSignInCode(
  services: Pick<AppServices, "db" | "config" | "sms" | "now">,
  { mobile, client, language = client.language ?? "en" }: { mobile: string; client: Client; language?: Language },
): Promise<SendResult> {
  const { config } = services;
  const t = plainTranslator(language, "notices");
  const sent = await sendCode(services, {
    target: mobile,
    purpose: "sign_in",
    ip: client.ip,
    language,
    message: (code) => t("signInCode.sms", { code, brand: config.public.brandName, minutes: Math.round(config.otp.ttlSeconds / 60) }),
  });
  return sent.ok ? sent : { ...sent, message: refusedSend(sent, services.now()) };
}

/** `message`: a message key (app/i18n/form-message.ts). */
export type CodeSignIn =
  { ok: true; created: boolean; setCookie: string; landing: string } | { ok: false; field: "code" | "form"; message: string };

/**
 * Sign-in with the code sent to `mobile`: the code is checked, the account
 * found or created (or, for a signed-in account without a number, the number
 * linked to it: `linkTo`), and a session started on this device (ending the
 * borrower's other devices). `landing`: where to go when no page was asked for.
 */
export async function signInWithCode(
  services: Pick<AppServices, "db" | "config" | "now" | "realtime">,
  input: { mobile: string; code: string; deviceId: string; linkTo: { id: string; role: string } | null; client: Client },
): Promise<CodeSignIn> {
  const verified = await verifyCode(services, { target: input.mobile, purpose: "sign_in", code: input.code });
  if (!verified.ok) return { ok: false, field: "code", message: refusedCode(verified, services.config) };
  const account = await userForVerifiedMobile(services, { mobile: input.mobile, linkTo: input.linkTo });
  if ("error" in account) return { ok: false, field: "form", message: account.error };
  // A new borrower's messages are in the language they read the site in when they signed up; an
  // existing borrower's stay as chosen with the switch.
  if (account.created && input.client.language) await setBorrowerLanguage(services.db, account.userId, input.client.language);
  const { setCookie } = await createUserSession(services, { userId: account.userId, deviceId: input.deviceId, ...input.client });
  return { ok: true, created: account.created, setCookie, landing: await signInLanding(services, account.userId) };
}
