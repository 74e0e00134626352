import { eq, getTableColumns, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { preparedQuery } from "../db/prepared.ts";

import { ADDRESS_REST, EMPLOYMENT_REST, kycCompleteness, PROFILE_REST, sectionFill } from "../../domain/kyc/completeness.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerDocuments,
  borrowerEmployment,
  borrowerProfiles,
  borrowerReferences,
  consents,
  users,
} from "../db/schema.ts";

/** The columns named by a section's list of remaining fields. */
function pick(table: PgTable, keys: Record<string, string>) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  return Object.fromEntries(Object.keys(keys).map((k) => [k, columns[k] as PgColumn]));
}

/**
 * The borrower's KYC completeness in one query, with the owner's id in it: the four one-row
 * sections joined by the user's id (each with its key, so a saved row whose remaining fields are all
 * empty is told from no row), the references counted, the document kinds and the latest KYC consent.
 */
export async function loadCompleteness({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await sectionsOf(db, { userId });
  const kinds = row?.documents ?? [];
  return kycCompleteness({
    profile: sectionFill(row?.profile, PROFILE_REST),
    kycConsent: row?.kycConsent === true,
    address: sectionFill(row?.address, ADDRESS_REST),
    employmentType: row?.employment?.type ?? null,
    employment: sectionFill(row?.employment, EMPLOYMENT_REST),
    bank: row?.bank ? (row.bank.verifiedAt ? "verified" : "unverified") : "none",
    references: row?.references ?? 0,
    documents: kinds.filter((k) => k !== "selfie") as Parameters<typeof kycCompleteness>[0]["documents"],
    selfie: kinds.includes("selfie"),
  });
}

const sectionsOf = preparedQuery("kyc_sections_of", (db, name) =>
  db
    .select({
      profile: { userId: borrowerProfiles.userId, ...pick(borrowerProfiles, PROFILE_REST) },
      address: { userId: borrowerAddresses.userId, ...pick(borrowerAddresses, ADDRESS_REST) },
      employment: {
        userId: borrowerEmployment.userId,
        type: borrowerEmployment.employmentType,
        ...pick(borrowerEmployment, EMPLOYMENT_REST),
      },
      bank: { userId: borrowerBankAccounts.userId, verifiedAt: borrowerBankAccounts.verifiedAt },
      references: sql<number>`(select count(*)::int from ${borrowerReferences} where ${borrowerReferences.userId} = ${users.id})`,
      documents: sql<
        string[]
      >`(select coalesce(json_agg(${borrowerDocuments.kind}), '[]'::json) from ${borrowerDocuments} where ${borrowerDocuments.userId} = ${users.id})`,
      kycConsent: sql<
        boolean | null
      >`(select ${consents.granted} from ${consents} where ${consents.userId} = ${users.id} and ${consents.purpose} = 'kyc' order by ${consents.createdAt} desc limit 1)`,
    })
    .from(users)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .leftJoin(borrowerAddresses, eq(borrowerAddresses.userId, users.id))
    .leftJoin(borrowerEmployment, eq(borrowerEmployment.userId, users.id))
    .leftJoin(borrowerBankAccounts, eq(borrowerBankAccounts.userId, users.id))
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare(name),
);
