// What the borrower's dashboard reads besides the session: the applications, the quick start, the
// credit team's open requests, the disbursals, the loans and the KYC sections, each from its own
// module, in one statement (one round trip instead of six). Every subquery has the owner's id in it.
import type { AppServices } from "../../context.ts";
import { userColumnsReader } from "../db/json-rows.ts";
import { completenessColumn, completenessFromJson } from "../kyc/completeness.server.ts";
import { borrowerLoansColumn, borrowerLoansFromJson } from "../loan-account/read.server.ts";
import { applicationsColumn, applicationsFromJson } from "../loans/read.server.ts";
import { disbursalsColumn, disbursalsFromJson } from "../payouts/read.server.ts";
import { quickStartColumn, quickStartFromJson } from "../quick-start/progress.server.ts";
import { openRequestsColumn, openRequestsFromJson } from "../review/read.server.ts";

const dashboardOf = userColumnsReader("dashboard_of_user", (userId) => ({
  applications: applicationsColumn(userId),
  quickStart: quickStartColumn(userId),
  requests: openRequestsColumn(userId),
  disbursals: disbursalsColumn(userId),
  loans: borrowerLoansColumn(userId),
  kyc: completenessColumn(userId),
}));

/**
 * The borrower's applications (as `listApplications`), quick start (`quickStartProgress`), open
 * requests (`openRequestsFor`), disbursals (`borrowerDisbursals`) and loans replayed to today
 * (`borrowerLoans`), and the KYC profile's completeness (`loadCompleteness`).
 */
export async function dashboardReads(services: Pick<AppServices, "db" | "config" | "now">, userId: string) {
  const row = await dashboardOf(services.db, userId);
  return {
    applications: applicationsFromJson(row?.applications ?? []),
    quickStart: quickStartFromJson(row?.quickStart),
    requests: openRequestsFromJson(row?.requests ?? []),
    disbursals: disbursalsFromJson(row?.disbursals ?? []),
    loans: await borrowerLoansFromJson(services, row?.loans ?? []),
    kyc: completenessFromJson(row?.kyc),
  };
}
