import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { AppServices } from "../../context.ts";
import {
  type bankSchema,
  maskAccount,
  NAME_MATCH_THRESHOLD,
  nameMatchScore,
  type referencesSchema,
} from "../../domain/kyc/references-bank-schema.ts";
import { encrypt } from "../crypto.server.ts";
import { borrowerBankAccounts, borrowerProfiles, borrowerReferences } from "../db/schema.ts";
import { lookupIfsc } from "../reference/lookups.server.ts";
import { msg } from "../../i18n/form-message.ts";

export async function loadReferences({ db }: Pick<AppServices, "db">, userId: string) {
  return db.select().from(borrowerReferences).where(eq(borrowerReferences.userId, userId)).orderBy(asc(borrowerReferences.position));
}

export async function saveReferences(
  { db, now }: Pick<AppServices, "db" | "now">,
  { userId, input: v }: { userId: string; input: z.output<ReturnType<typeof referencesSchema>> },
) {
  const rows = [
    { userId, position: 1, name: v.ref1Name, relation: v.ref1Relation, mobile: v.ref1Mobile, updatedAt: now() },
    { userId, position: 2, name: v.ref2Name, relation: v.ref2Relation, mobile: v.ref2Mobile, updatedAt: now() },
  ];
  await db.transaction(async (tx) => {
    await tx.delete(borrowerReferences).where(eq(borrowerReferences.userId, userId));
    await tx.insert(borrowerReferences).values(rows);
  });
}

/** The borrower's bank account as shown to them (masked), scoped by owner. */
export async function loadBank({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId));
  if (!row) return null;
  const { accountNumberEnc: _enc, ...visible } = row;
  return visible;
}

/**
 * Saves the Bank section: the IFSC must exist (its bank's name is filled in),
 * the account number is encrypted, and the account is verified through the
 * bank-verification interface when the bank's name matches the profile name.
 */
export async function saveBank(
  services: Pick<AppServices, "db" | "now" | "keyring" | "bankVerifier">,
  { userId, input: v }: { userId: string; input: z.output<typeof bankSchema> },
): Promise<{ ok: true; verified: boolean; score: number } | { ok: false; fieldErrors: Record<string, string[]> }> {
  const { db, now, keyring, bankVerifier } = services;
  const bank = lookupIfsc(v.ifsc);
  if (!bank) return { ok: false, fieldErrors: { ifsc: [msg("validation.ifsc.unknown")] } };
  const [profile] = await db
    .select({ fullName: borrowerProfiles.fullName })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  if (!profile)
    return {
      ok: false,
      fieldErrors: {
        holderName: [msg("profileSections.errors.profileFirst")],
      },
    };
  const { nameAtBank } = await bankVerifier.verify({ accountNumber: v.accountNumber, ifsc: bank.ifsc, holderName: v.holderName });
  const score = nameMatchScore(profile.fullName, nameAtBank);
  const verified = score >= NAME_MATCH_THRESHOLD;
  const values = {
    holderName: v.holderName,
    accountNumberEnc: encrypt(keyring, v.accountNumber),
    accountMasked: maskAccount(v.accountNumber),
    ifsc: bank.ifsc,
    bankName: bank.bankName,
    accountType: v.accountType,
    nameAtBank,
    nameMatchScore: score,
    verifiedAt: verified ? now() : null,
    updatedAt: now(),
  };
  await db
    .insert(borrowerBankAccounts)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: borrowerBankAccounts.userId, set: values });
  return { ok: true, verified, score };
}

/**
 * The profile name changed: the bank's name for the account is compared again
 * (no new penny drop), so a verified account stays verified only if it still matches.
 */
export async function rematchBankName(
  { db, now }: Pick<AppServices, "db" | "now">,
  { userId, fullName }: { userId: string; fullName: string },
) {
  const [bank] = await db
    .select({ nameAtBank: borrowerBankAccounts.nameAtBank, verifiedAt: borrowerBankAccounts.verifiedAt })
    .from(borrowerBankAccounts)
    .where(eq(borrowerBankAccounts.userId, userId));
  if (!bank?.nameAtBank) return;
  const score = nameMatchScore(fullName, bank.nameAtBank);
  const verifiedAt = score >= NAME_MATCH_THRESHOLD ? (bank.verifiedAt ?? now()) : null;
  await db
    .update(borrowerBankAccounts)
    .set({ nameMatchScore: score, verifiedAt, updatedAt: now() })
    .where(eq(borrowerBankAccounts.userId, userId));
}
