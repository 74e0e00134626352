import { type SQLWrapper, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { jsonColumns, userColumnsReader } from "../db/json-rows.ts";

import { ADDRESS_REST, EMPLOYMENT_REST, kycCompleteness, PROFILE_REST, sectionFill } from "../../domain/kyc/completeness.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerDocuments,
  borrowerEmployment,
  borrowerProfiles,
  borrowerReferences,
  consents,
} from "../db/schema.ts";

/**
 * The borrower's KYC completeness in one query, with the owner's id in it: the four one-row
 * sections (each with its key, so a saved row whose remaining fields are all empty is told from no
 * row), the references counted, the document kinds and the latest KYC consent.
 */
export async function loadCompleteness({ db }: Pick<AppServices, "db">, userId: string) {
  const row = await sectionsOf(db, userId);
  return completenessFromJson(row?.kyc);
}
const sectionsOf = userColumnsReader("kyc_sections_of", (userId) => ({ kyc: completenessColumn(userId) }));

/**
 * What `loadCompleteness` reads, as JSON (a subquery on `userId`, the owner's id): the dashboard
 * reads it in its one statement. `completenessFromJson` reads it.
 */
export const completenessColumn = (userId: SQLWrapper) =>
  sql`json_build_object('profile', (select ${profileJson.sql} from ${borrowerProfiles} bp where bp.user_id = ${userId}), 'address', (select ${addressJson.sql} from ${borrowerAddresses} ba where ba.user_id = ${userId}), 'employment', (select ${employmentJson.sql} from ${borrowerEmployment} be where be.user_id = ${userId}), 'bank', (select ${bankJson.sql} from ${borrowerBankAccounts} bb where bb.user_id = ${userId}), 'references', (select count(*)::int from ${borrowerReferences} br where br.user_id = ${userId}), 'documents', (select coalesce(json_agg(bd.kind), '[]'::json) from ${borrowerDocuments} bd where bd.user_id = ${userId}), 'kycConsent', (select kc.granted from ${consents} kc where kc.user_id = ${userId} and kc.purpose = 'kyc' order by kc.created_at desc limit 1))`;
const keysOf = <K extends string>(rest: Record<K, string>) => Object.keys(rest) as K[];
const profileJson = jsonColumns(borrowerProfiles, "bp", ["userId", ...keysOf(PROFILE_REST)]);
const addressJson = jsonColumns(borrowerAddresses, "ba", ["userId", ...keysOf(ADDRESS_REST)]);
const employmentJson = jsonColumns(borrowerEmployment, "be", ["userId", "employmentType", ...keysOf(EMPLOYMENT_REST)]);
const bankJson = jsonColumns(borrowerBankAccounts, "bb", ["userId", "verifiedAt"]);

/** The completeness of `completenessColumn`. */
export function completenessFromJson(json: unknown) {
  const row = json as
    | {
        profile: Record<string, unknown> | null;
        address: Record<string, unknown> | null;
        employment: Record<string, unknown> | null;
        bank: Record<string, unknown> | null;
        references: number | null;
        documents: string[] | null;
        kycConsent: boolean | null;
      }
    | undefined;
  const decode = <T>(section: Record<string, unknown> | null | undefined, read: (json: Record<string, unknown>) => T) =>
    section ? read(section) : null;
  const profile = decode(row?.profile, profileJson.decode);
  const address = decode(row?.address, addressJson.decode);
  const employment = decode(row?.employment, employmentJson.decode);
  const bank = decode(row?.bank, bankJson.decode);
  const kinds = row?.documents ?? [];
  return kycCompleteness({
    profile: sectionFill(profile, PROFILE_REST),
    kycConsent: row?.kycConsent === true,
    address: sectionFill(address, ADDRESS_REST),
    employmentType: employment?.employmentType ?? null,
    employment: sectionFill(employment, EMPLOYMENT_REST),
    bank: bank ? (bank.verifiedAt ? "verified" : "unverified") : "none",
    references: row?.references ?? 0,
    documents: kinds.filter((k) => k !== "selfie") as Parameters<typeof kycCompleteness>[0]["documents"],
    selfie: kinds.includes("selfie"),
  });
}
