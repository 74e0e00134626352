import { count, eq, getTableColumns } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";

import { ADDRESS_REST, EMPLOYMENT_REST, kycCompleteness, PROFILE_REST, sectionFill } from "../../domain/kyc/completeness.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerDocuments,
  borrowerEmployment,
  borrowerProfiles,
  borrowerReferences,
} from "../db/schema.ts";
import { loadConsents } from "./profile.server.ts";

/** The columns named by a section's list of remaining fields. */
function pick(table: PgTable, keys: Record<string, string>) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  return Object.fromEntries(Object.keys(keys).map((k) => [k, columns[k] as PgColumn]));
}

/** The borrower's KYC completeness, read with the owner's id in every query. */
export async function loadCompleteness(services: Pick<AppServices, "db">, userId: string) {
  const { db } = services;
  const [profile, address, employment, bank, refs, docs, consentState] = await Promise.all([
    db.select(pick(borrowerProfiles, PROFILE_REST)).from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId)),
    db.select(pick(borrowerAddresses, ADDRESS_REST)).from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId)),
    db
      .select({ type: borrowerEmployment.employmentType, ...pick(borrowerEmployment, EMPLOYMENT_REST) })
      .from(borrowerEmployment)
      .where(eq(borrowerEmployment.userId, userId)),
    db.select({ verifiedAt: borrowerBankAccounts.verifiedAt }).from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId)),
    db.select({ n: count() }).from(borrowerReferences).where(eq(borrowerReferences.userId, userId)),
    db.select({ kind: borrowerDocuments.kind }).from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId)),
    loadConsents(services, userId),
  ]);
  const kinds = docs.map((d) => d.kind);
  return kycCompleteness({
    profile: sectionFill(profile[0], PROFILE_REST),
    kycConsent: consentState.kyc === true,
    address: sectionFill(address[0], ADDRESS_REST),
    employmentType: employment[0]?.type ?? null,
    employment: sectionFill(employment[0], EMPLOYMENT_REST),
    bank: bank[0] ? (bank[0].verifiedAt ? "verified" : "unverified") : "none",
    references: refs[0]?.n ?? 0,
    documents: kinds.filter((k) => k !== "selfie"),
    selfie: kinds.includes("selfie"),
  });
}
