import { and, desc, eq, ne } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type IdentityInput, maskPan, type ProfileInput } from "../../domain/kyc/profile-schema.ts";
import { accepted } from "../../domain/validators/form-rules.ts";
import { aadhaarLast4 } from "../../domain/validators/identity.ts";
import { encrypt, hmac } from "../crypto.server.ts";
import { borrowerProfiles, consents } from "../db/schema.ts";
import { rematchBankName } from "./references-bank.server.ts";
import { msg } from "../../i18n/form-message.ts";

export const panKey = (services: Pick<AppServices, "config">) => `pan:${services.config.encryptionKey}`;

/** The borrower's own Profile section (masked), scoped by the owner's id in the query. */
export async function loadProfile({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId));
  if (!row) return null;
  const { panEnc: _enc, panHmac: _hmac, ...visible } = row;
  return visible;
}

/** The borrower's latest answer for one purpose: given, withdrawn, or null when never asked. */
export async function latestConsent({ db }: Pick<AppServices, "db">, userId: string, purpose: string): Promise<boolean | null> {
  const [latest] = await db
    .select({ granted: consents.granted })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.purpose, purpose)))
    .orderBy(desc(consents.createdAt), desc(consents.id))
    .limit(1);
  return latest?.granted ?? null;
}

/** Latest consent per purpose. */
export async function loadConsents({ db }: Pick<AppServices, "db">, userId: string) {
  const rows = await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.createdAt);
  const latest: Record<string, boolean> = {};
  for (const row of rows) latest[row.purpose] = row.granted;
  return latest;
}

const PAN_TAKEN = { pan: [msg("validation.pan.taken")] };
type Saved = { ok: true } | { ok: false; fieldErrors: Record<string, string[]> };

/** The stored form of a PAN (encrypted, keyed hash, masked), or an error when another account has it. */
async function panColumns(services: Pick<AppServices, "db" | "config" | "keyring">, userId: string, pan: string) {
  const panHmac = hmac(panKey(services), pan);
  const [taken] = await services.db
    .select({ userId: borrowerProfiles.userId })
    .from(borrowerProfiles)
    .where(and(eq(borrowerProfiles.panHmac, panHmac), ne(borrowerProfiles.userId, userId)));
  if (taken) return null;
  return { panEnc: encrypt(services.keyring, pan), panHmac, panMasked: maskPan(pan) };
}

/** Two accounts saving the same PAN at once: the unique keyed hash decides. */
async function panRace(save: () => Promise<void>): Promise<Saved> {
  try {
    await save();
    return { ok: true };
  } catch (error) {
    if (String((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === "23505") {
      return { ok: false, fieldErrors: PAN_TAKEN };
    }
    throw error;
  }
}

/**
 * Saves the Profile section: PAN encrypted with its keyed hash (one account
 * per PAN), only the last 4 digits of Aadhaar, and each changed consent logged.
 */
export async function saveProfile(
  services: Pick<AppServices, "db" | "config" | "keyring" | "now">,
  {
    userId,
    input,
    client,
    existing,
  }: {
    userId: string;
    input: ProfileInput;
    client: Client;
    /** Whether the borrower already has a saved profile (the caller has read it). */
    existing: boolean;
  },
): Promise<Saved> {
  const { db, now } = services;
  const pan = input.pan ? await panColumns(services, userId, input.pan) : null;
  if (input.pan && !pan) return { ok: false, fieldErrors: PAN_TAKEN };
  if (!existing && (!pan || !input.aadhaar)) return { ok: false, fieldErrors: { pan: [msg("validation.pan.missing")] } };
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
  return panRace(() =>
    db.transaction(async (tx) => {
      if (existing) {
        await tx.update(borrowerProfiles).set(values).where(eq(borrowerProfiles.userId, userId));
      } else {
        await tx.insert(borrowerProfiles).values({ userId, ...(values as typeof values & NonNullable<typeof pan>) });
      }
      await recordConsents(
        { db: tx, now },
        { userId, wanted: { kyc: true, communications: accepted(input.consentCommunications) }, before, client },
      );
      await rematchBankName({ db: tx, now }, { userId, fullName: input.fullName });
    }),
  );
}

/** Logs each consent whose answer differs from the latest one (time, address, browser). */
export async function recordConsents(
  { db, now }: Pick<AppServices, "db" | "now">,
  { userId, wanted, before, client }: { userId: string; wanted: Record<string, boolean>; before: Record<string, boolean>; client: Client },
) {
  for (const [purpose, granted] of Object.entries(wanted)) {
    if (before[purpose] !== granted) {
      await db.insert(consents).values({ userId, purpose, granted, ip: client.ip, userAgent: client.userAgent, createdAt: now() });
    }
  }
}

/**
 * The quick start's Step1: name, date of birth and PAN into the Profile
 * section's row (the rest of the section stays empty until its form is saved).
 */
export async function saveIdentity(
  services: Pick<AppServices, "db" | "config" | "keyring" | "now">,
  { userId, input }: { userId: string; input: IdentityInput },
): Promise<Saved> {
  const pan = input.pan ? await panColumns(services, userId, input.pan) : null;
  if (input.pan && !pan) return { ok: false, fieldErrors: PAN_TAKEN };
  const values = { fullName: input.fullName, dateOfBirth: input.dateOfBirth, updatedAt: services.now(), ...(pan ?? {}) };
  if (pan) {
    return panRace(() =>
      services.db.transaction(async (tx) => {
        await tx
          .insert(borrowerProfiles)
          .values({ userId, ...values, ...pan })
          .onConflictDoUpdate({ target: borrowerProfiles.userId, set: values });
        await rematchBankName({ db: tx, now: services.now }, { userId, fullName: input.fullName });
      }),
    );
  }
  const updated = await services.db
    .update(borrowerProfiles)
    .set(values)
    .where(eq(borrowerProfiles.userId, userId))
    .returning({ id: borrowerProfiles.userId });
  if (!updated.length) return { ok: false, fieldErrors: { pan: [msg("validation.pan.missing")] } };
  await rematchBankName(services, { userId, fullName: input.fullName });
  return { ok: true };
}
