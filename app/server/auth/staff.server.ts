import { hash, verify } from "@node-rs/argon2";
import { generateTOTP, getTOTPAuthUri } from "@epic-web/totp";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import commonPasswords from "fxa-common-password-list";
import QRCode from "qrcode";
import type { AppServices, Client } from "../../context.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { passwordLengthProblem } from "../../domain/validators/password.ts";
import { decrypt, encrypt, randomToken, sha256 } from "../crypto.server.ts";
import { users, verifications } from "../db/schema.ts";
import { audit } from "../audit.server.ts";

/** Authenticator apps' default: SHA-1, 6 digits, a new code every 30 seconds. */
export const TOTP = { period: 30, digits: 6, algorithm: "SHA-1" } as const;
const ENROL_HOURS = 24;

/** Why a new staff password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const lengthProblem = passwordLengthProblem(password);
  if (lengthProblem) return lengthProblem;
  if (commonPasswords.test(password) || commonPasswords.test(password.toLowerCase())) {
    return "This password is on a list of common passwords. Choose another.";
  }
  return null;
}

export const hashPassword = (password: string) => hash(password);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password).catch(() => false);

/** Creates (or finds) a staff account and a one-time enrolment link token, valid 24 hours. */
export async function createStaffInvite(
  { db, now }: Pick<AppServices, "db" | "now">,
  { email, role, name }: { email: string; role: StaffRole; name?: string },
): Promise<{ userId: string; token: string; created: boolean }> {
  const normalized = email.trim().toLowerCase();
  const [existing] = await db.select().from(users).where(eq(users.email, normalized));
  let userId = existing?.id;
  if (existing && existing.role === "borrower") throw new Error("that e-mail belongs to a borrower account");
  if (!userId) {
    const [created] = await db
      .insert(users)
      .values({ email: normalized, role, name: name ?? null })
      .returning({ id: users.id });
    userId = created?.id;
  }
  if (!userId) throw new Error("could not create the staff account");
  const token = randomToken(24);
  const at = now();
  const row = {
    target: userId,
    purpose: "staff_enrol",
    codeHash: sha256(token),
    attempts: 0,
    sentAt: at,
    expiresAt: new Date(at.getTime() + ENROL_HOURS * 3600_000),
    consumedAt: null,
  };
  await db
    .insert(verifications)
    .values(row)
    .onConflictDoUpdate({ target: [verifications.target, verifications.purpose], set: row });
  return { userId, token, created: !existing };
}

/** The staff user an unused, unexpired enrolment token belongs to. */
export async function userForEnrolToken({ db, now }: Pick<AppServices, "db" | "now">, token: string) {
  const [row] = await db
    .select({ user: users })
    .from(verifications)
    .innerJoin(users, sql`${users.id}::text = ${verifications.target}`)
    .where(
      and(
        eq(verifications.purpose, "staff_enrol"),
        eq(verifications.codeHash, sha256(token)),
        isNull(verifications.consumedAt),
        gt(verifications.expiresAt, now()),
      ),
    );
  return row?.user ?? null;
}

/**
 * Sets the password of the account an enrolment link belongs to, using the
 * link up in the same statement that checks it (and writing the audit row in
 * the same transaction): of two submissions at once, one sets the password
 * and the other finds the link used. The authenticator is set up again at the
 * next sign-in.
 */
export async function setPasswordByEnrolToken(
  { db, now }: Pick<AppServices, "db" | "now">,
  { token, password, client }: { token: string; password: string; client: Client },
) {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const at = now();
    const [used] = await tx
      .update(verifications)
      .set({ consumedAt: at })
      .where(
        and(
          eq(verifications.purpose, "staff_enrol"),
          eq(verifications.codeHash, sha256(token)),
          isNull(verifications.consumedAt),
          gt(verifications.expiresAt, at),
        ),
      )
      .returning({ target: verifications.target });
    if (!used) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, totpSecretEnc: null, totpEnrolledAt: null, totpLastStep: null, totpFailures: 0, totpLockedUntil: null })
      .where(sql`${users.id}::text = ${used.target}`)
      .returning({ id: users.id, role: users.role });
    if (user) await audit({ db: tx }, { by: user, client, at: "database", action: "staff.password_set" });
    return user ?? null;
  });
}

/** A fresh TOTP secret with its otpauth:// URI and a QR code (SVG) for authenticator apps. */
export async function newTotpEnrolment(brand: string, email: string) {
  const { secret } = await generateTOTP(TOTP);
  return { secret, ...(await totpQr(brand, email, secret)) };
}

/** The otpauth:// URI of a secret and its QR code as SVG. */
export async function totpQr(brand: string, email: string, secret: string) {
  const uri = getTOTPAuthUri({ ...TOTP, secret, accountName: email, issuer: `${brand} staff` });
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { uri, qrSvg };
}

export const sealTotpSecret = (services: Pick<AppServices, "keyring">, secret: string) => encrypt(services.keyring, secret);
export const openTotpSecret = (services: Pick<AppServices, "keyring">, sealed: string) => decrypt(services.keyring, sealed);
