import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { signedCookie } from "../cookies.server.ts";
import { users } from "../db/schema.ts";

export const STAFF_NOT_BORROWER =
  "You are signed in with a staff account. Staff accounts cannot use the borrower area, link a mobile number or apply: sign out first.";

/** The number a code was sent to, between the two steps of sign-in (10 minutes, signed). */
export const pendingSignInCookie = signedCookie("otp_pending", { path: "/quickStart", maxAge: 10 * 60 });

export interface PendingSignIn {
  mobile: string;
  /** The page asked for, "" when none (then signInLanding decides). */
  redirectTo: string;
  resendAt: string;
}

/**
 * The account for a verified mobile number: a new number creates a borrower,
 * a known one signs in. A signed-in account without a number (Facebook) gets it linked.
 */
export async function userForVerifiedMobile(
  { db, now }: Pick<AppServices, "db" | "now">,
  mobile: string,
  linkTo: { id: string; role: string } | null,
): Promise<{ userId: string; created: boolean } | { error: string }> {
  // Staff and borrowers are separate identities: a staff account never gets a mobile number or the borrower area.
  if (linkTo && linkTo.role !== "borrower") return { error: STAFF_NOT_BORROWER };
  const linkToUserId = linkTo?.id ?? null;
  const [existing] = await db.select().from(users).where(eq(users.mobile, mobile));
  if (linkToUserId) {
    if (existing && existing.id !== linkToUserId) {
      return { error: "This mobile number belongs to another account. Sign in with it instead." };
    }
    await db.update(users).set({ mobile, mobileVerifiedAt: now() }).where(eq(users.id, linkToUserId));
    return { userId: linkToUserId, created: false };
  }
  if (existing) {
    if (existing.role !== "borrower") return { error: "Staff accounts sign in at the staff sign-in page." };
    if (existing.disabledAt) return { error: "This account is closed. Please contact us." };
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
  return again ? { userId: again.id, created: false } : { error: "Please try again." };
}
