import { and, eq, ne } from "drizzle-orm";
import type { AppServices, RequestInfo } from "../../context.ts";
import { maskPan, type ProfileInput } from "../../domain/kyc/profile-schema.ts";
import { accepted } from "../../domain/validators/form-rules.ts";
import { aadhaarLast4 } from "../../domain/validators/identity.ts";
import { encrypt, hmac } from "../crypto.server.ts";
import { borrowerProfiles, consents } from "../db/schema.ts";

const panKey = (services: Pick<AppServices, "config">) => `pan:${services.config.encryptionKey}`;

/** The borrower's own Profile section (masked), scoped by the owner's id in the query. */
export async function loadProfile({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId));
  if (!row) return null;
  const { panEnc: _enc, panHmac: _hmac, ...visible } = row;
  return visible;
}

/** Latest consent per purpose. */
export async function loadConsents({ db }: Pick<AppServices, "db">, userId: string) {
  const rows = await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.createdAt);
  const latest: Record<string, boolean> = {};
  for (const row of rows) latest[row.purpose] = row.granted;
  return latest;
}

/**
 * Saves the Profile section: PAN encrypted with its keyed hash (one account
 * per PAN), only the last 4 digits of Aadhaar, and each changed consent logged.
 */
export async function saveProfile(
  services: Pick<AppServices, "db" | "config" | "keyring" | "now">,
  userId: string,
  input: ProfileInput,
  request: Pick<RequestInfo, "ip" | "userAgent">,
  /** Whether the borrower already has a saved profile (the caller has read it). */
  existing: boolean,
): Promise<{ ok: true } | { ok: false; fieldErrors: Record<string, string[]> }> {
  const { db, keyring, now } = services;
  let pan: { panEnc: string; panHmac: string; panMasked: string } | null = null;
  if (input.pan) {
    const panHmac = hmac(panKey(services), input.pan);
    const [taken] = await db
      .select({ userId: borrowerProfiles.userId })
      .from(borrowerProfiles)
      .where(and(eq(borrowerProfiles.panHmac, panHmac), ne(borrowerProfiles.userId, userId)));
    if (taken) return { ok: false, fieldErrors: { pan: ["This PAN is already registered with another account. Sign in with that account, or contact us."] } };
    pan = { panEnc: encrypt(keyring, input.pan), panHmac, panMasked: maskPan(input.pan) };
  }
  if (!existing && (!pan || !input.aadhaar)) return { ok: false, fieldErrors: { pan: ["Enter your PAN."] } };
  const values = {
    fullName: input.fullName,
    dateOfBirth: input.dateOfBirth,
    gender: input.gender,
    email: input.email.toLowerCase(),
    maritalStatus: input.maritalStatus,
    updatedAt: now(),
    ...(pan ?? {}),
    ...(input.aadhaar ? { aadhaarLast4: aadhaarLast4(input.aadhaar) } : {}),
  };
  const before = await loadConsents(services, userId);
  try {
    await db.transaction(async (tx) => {
    if (existing) {
      await tx.update(borrowerProfiles).set(values).where(eq(borrowerProfiles.userId, userId));
    } else {
      await tx.insert(borrowerProfiles).values({ userId, ...(values as typeof values & NonNullable<typeof pan> & { aadhaarLast4: string }) });
    }
    const wanted = { kyc: true, communications: accepted(input.consentCommunications) };
    for (const [purpose, granted] of Object.entries(wanted)) {
      if (before[purpose] !== granted) {
        await tx.insert(consents).values({ userId, purpose, granted, ip: request.ip, userAgent: request.userAgent, createdAt: now() });
      }
    }
    });
  } catch (error) {
    // Two accounts saving the same PAN at once: the unique keyed hash decides.
    if (String((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === "23505") {
      return { ok: false, fieldErrors: { pan: ["This PAN is already registered with another account. Sign in with that account, or contact us."] } };
    }
    throw error;
  }
  return { ok: true };
}
