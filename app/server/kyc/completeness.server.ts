import { count, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { DocumentKind } from "../../domain/kyc/documents.ts";
import { kycCompleteness } from "../../domain/kyc/completeness.ts";
import { borrowerAddresses, borrowerBankAccounts, borrowerDocuments, borrowerEmployment, borrowerProfiles, borrowerReferences } from "../db/schema.ts";
import { loadConsents } from "./profile.server.ts";

/** The borrower's KYC completeness, read with the owner's id in every query. */
export async function loadCompleteness(services: Pick<AppServices, "db">, userId: string) {
  const { db } = services;
  const [profile, address, employment, bank, refs, docs, consentState] = await Promise.all([
    db.select({ id: borrowerProfiles.userId }).from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId)),
    db.select({ id: borrowerAddresses.userId }).from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId)),
    db.select({ type: borrowerEmployment.employmentType }).from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId)),
    db.select({ verifiedAt: borrowerBankAccounts.verifiedAt }).from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId)),
    db.select({ n: count() }).from(borrowerReferences).where(eq(borrowerReferences.userId, userId)),
    db.select({ kind: borrowerDocuments.kind }).from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId)),
    loadConsents(services, userId),
  ]);
  const kinds = docs.map((d) => d.kind);
  return kycCompleteness({
    profile: profile.length > 0,
    kycConsent: consentState.kyc === true,
    address: address.length > 0,
    employmentType: (employment[0]?.type ?? null) as "salaried" | "self_employed" | null,
    bank: bank[0] ? (bank[0].verifiedAt ? "verified" : "unverified") : "none",
    references: refs[0]?.n ?? 0,
    documents: kinds.filter((k) => k !== "selfie") as DocumentKind[],
    selfie: kinds.includes("selfie"),
  });
}
