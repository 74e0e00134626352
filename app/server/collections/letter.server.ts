/**
 * The collections reminder letter (docs/product.md "Collections"), rendered from what its dunning
 * step recorded when it was sent: only for the borrower whose loan it is.
 */
import { and, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { GRIEVANCE_PATH } from "../../domain/collections.ts";
import { jsonColumns } from "../db/json-rows.ts";
import { collectionCases, dunningSends, loanApplications } from "../db/schema.ts";
import { termsOf } from "../loan-account/account.server.ts";
import { loanFacts } from "../loan-account/documents.server.ts";
import { renderReminderLetterPdf } from "../pdf/servicing-pdf.server.ts";
import { messageLink } from "../../../server/config.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/** The letter a dunning step sent to `userId` about their loan `loanNumber`, or null (anyone else's, or no letter). */
export async function reminderLetter(
  services: Services,
  { userId, loanNumber, sendId }: { userId: string; loanNumber: string; sendId: string },
) {
  if (!/^[0-9a-f-]{36}$/.test(sendId)) return null;
  const [row] = await services.db
    .select({ send: dunningSends, application: loanApplications })
    .from(dunningSends)
    .innerJoin(collectionCases, eq(collectionCases.id, dunningSends.caseId))
    .innerJoin(loanApplications, eq(loanApplications.id, collectionCases.applicationId))
    .where(
      and(
        eq(dunningSends.id, sendId),
        eq(dunningSends.tone, "letter"),
        eq(loanApplications.userId, userId),
        eq(loanApplications.loanNumber, loanNumber),
      ),
    );
  if (!row) return null;
  const found = await termsOf(services, row.application.id);
  if (!found) return null;
  const facts = await loanFacts(services, { userId, loanNumber, product: row.application.product, terms: found.terms });
  const pdf = await renderReminderLetterPdf(
    facts,
    {
      sentOn: row.send.sentOn as IsoDate,
      dpd: row.send.dpd,
      amountPaise: row.send.amountPaise,
      payLink: messageLink(services.config, loanPath(row.application.product, loanNumber)),
      grievanceLink: messageLink(services.config, GRIEVANCE_PATH),
    },
    row.send.createdAt,
  );
  return { pdf, filename: `reminder-${loanNumber}-${row.send.sentOn}.pdf` };
}

/**
 * The reminder letters sent about a loan, newest first (the loan page's documents), as JSON beside
 * the loan's row (`applicationId` is its column; the owner is in that statement's condition): the
 * borrower's loan page reads them in its one statement. `reminderLettersFromJson` reads them.
 */
export const reminderLettersColumn = (applicationId: AnyPgColumn) =>
  sql`(select coalesce(json_agg(${letterJson.sql} order by s.sent_on desc), '[]') from dunning_sends s join collection_cases c on c.id = s.case_id where c.application_id = ${applicationId} and s.tone = 'letter')`;
const letterJson = jsonColumns(dunningSends, "s", ["id", "sentOn"]);

/** The letters of `reminderLettersColumn`: each one's id and the day it was sent. */
export const reminderLettersFromJson = (json: unknown) => (json as Record<string, unknown>[]).map(letterJson.decode);
