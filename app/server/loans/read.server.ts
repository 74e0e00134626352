// The read model of loan applications: what pages show. Every query that
// reads a borrower's application carries the owner's id (a foreign reference
// finds nothing); signed agreements are found by their own unguessable reference.
import { msg } from "../../i18n/form-message.ts";
import { and, eq, gt, isNull, or, type SQLWrapper, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { KIND_NAME, type LoanKind } from "../../domain/loans/application.ts";
import { agreementLinkOpenIfSignedSince } from "../../domain/loans/agreement-link.ts";
import {
  borrowerBankAccounts,
  borrowerProfiles,
  currentSignatureOf,
  loanApplications,
  loanDocuments,
  loanSignatures,
  signedPdfColumns,
} from "../db/schema.ts";
import { jsonColumns, userColumnsReader } from "../db/json-rows.ts";

type Services = Pick<AppServices, "db">;

/** The borrower's own application with this reference and kind, with its current KFS (if any), or null. */
export async function ownedApplication(
  { db }: Services,
  { userId, kind, reference }: { userId: string; kind: LoanKind; reference: string },
) {
  const [row] = await db
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.reference, reference), eq(loanApplications.userId, userId), eq(loanApplications.product, kind)));
  if (!row) return null;
  return { application: row, document: await currentDocument({ db }, row.id) };
}

/** The KFS an application shows now (not superseded): its facts and terms, without the bytes. */
export async function currentDocument({ db }: Services, applicationId: string) {
  const [doc] = await db
    .select({
      id: loanDocuments.id,
      sha256: loanDocuments.sha256,
      sizeBytes: loanDocuments.sizeBytes,
      issuedAt: loanDocuments.issuedAt,
      validUntil: loanDocuments.validUntil,
      assumedDisbursalDate: loanDocuments.assumedDisbursalDate,
      kfs: loanDocuments.terms,
    })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
  return doc ?? null;
}

/**
 * The current KFS's PDF (where it is stored, its hash and size) for the application with this
 * reference and kind: the owner's (`ownerId`), or anyone's when `ownerId` is null (a signed link
 * was checked by the caller).
 */
export async function documentPdf(
  { db }: Services,
  { kind, reference, ownerId }: { kind: LoanKind; reference: string; ownerId: string | null },
) {
  const [row] = await db
    .select({
      pdf: { bytes: loanDocuments.pdf, key: loanDocuments.pdfKey, sha256: loanDocuments.sha256 },
      sizeBytes: loanDocuments.sizeBytes,
    })
    .from(loanDocuments)
    .innerJoin(loanApplications, eq(loanApplications.id, loanDocuments.applicationId))
    .where(
      and(
        eq(loanApplications.reference, reference),
        eq(loanApplications.product, kind),
        isNull(loanDocuments.supersededAt),
        ownerId ? eq(loanApplications.userId, ownerId) : undefined,
      ),
    );
  return row ?? null;
}

/** The borrower's verified bank account, masked, or why there is none. */
export async function disbursalAccount({ db }: Services, userId: string) {
  const [bank] = await db
    .select({
      holderName: borrowerBankAccounts.holderName,
      accountMasked: borrowerBankAccounts.accountMasked,
      ifsc: borrowerBankAccounts.ifsc,
      bankName: borrowerBankAccounts.bankName,
      verifiedAt: borrowerBankAccounts.verifiedAt,
    })
    .from(borrowerBankAccounts)
    .where(eq(borrowerBankAccounts.userId, userId));
  if (!bank) return { account: null, problem: msg("applySteps.errors.noBank") } as const;
  const { verifiedAt, ...account } = bank;
  if (!verifiedAt)
    return {
      account,
      verified: false,
      problem: msg("applySteps.errors.bankNotVerified"),
    } as const;
  return { account, verified: true, problem: null } as const;
}

/**
 * Who is looking at an /Eagreement link: the signed-in borrower's id (null when nobody is signed
 * in) and the time. The link opens to anyone for 30 days after signing, then to its owner only.
 */
export interface AgreementViewer {
  userId: string | null;
  at: Date;
}

/** The access filter of an /Eagreement reference: signed within the link's days, or the viewer's own. */
const agreementVisibleTo = (agreementRef: string, viewer: AgreementViewer) =>
  and(
    eq(loanSignatures.agreementRef, agreementRef),
    or(
      gt(loanSignatures.signedAt, agreementLinkOpenIfSignedSince(viewer.at)),
      viewer.userId ? eq(loanApplications.userId, viewer.userId) : undefined,
    ),
  );

/** The signed agreement behind an /Eagreement reference as `viewer` may see it, or null (unknown, unsigned, or not theirs once the link ended). */
export async function signedAgreement({ db }: Services, agreementRef: string, viewer: AgreementViewer) {
  const [row] = await db
    .select({
      signedSha256: loanSignatures.signedSha256,
      shownSha256: loanSignatures.shownSha256,
      signedAt: loanSignatures.signedAt,
      mobile: loanSignatures.mobile,
      product: loanApplications.product,
      reference: loanApplications.reference,
      status: loanApplications.status,
      terms: loanDocuments.terms,
      name: borrowerProfiles.fullName,
      supersededAt: loanSignatures.supersededAt,
    })
    .from(loanSignatures)
    .innerJoin(loanApplications, eq(loanApplications.id, loanSignatures.applicationId))
    .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(agreementVisibleTo(agreementRef, viewer));
  return row ?? null;
}

/** The signed PDF (where it is stored and its hash) behind an /Eagreement reference as `viewer` may see it, or null. */
export async function signedAgreementPdf({ db }: Services, agreementRef: string, viewer: AgreementViewer) {
  const [row] = await db
    .select({ pdf: signedPdfColumns, reference: loanApplications.reference })
    .from(loanSignatures)
    .innerJoin(loanApplications, eq(loanApplications.id, loanSignatures.applicationId))
    .where(agreementVisibleTo(agreementRef, viewer));
  return row ?? null;
}

/** Whether an /Eagreement reference names a signed agreement at all (whoever may see it). */
export async function agreementExists({ db }: Services, agreementRef: string) {
  const [row] = await db
    .select({ ref: loanSignatures.agreementRef })
    .from(loanSignatures)
    .where(eq(loanSignatures.agreementRef, agreementRef));
  return Boolean(row);
}

/** The /Eagreement reference of a signed application, or null. */
export async function agreementRefOf({ db }: Services, applicationId: string) {
  const [row] = await db.select({ ref: loanSignatures.agreementRef }).from(loanSignatures).where(currentSignatureOf(applicationId));
  return row?.ref ?? null;
}

/** The borrower's applications, newest first, with their agreement references once signed. */
export async function listApplications({ db }: Services, userId: string) {
  const row = await applicationsOfUser(db, userId);
  return applicationsFromJson(row?.applications ?? []);
}
const applicationsOfUser = userColumnsReader("applications_of_user", (userId) => ({ applications: applicationsColumn(userId) }));
/**
 * `listApplications` as JSON (a subquery on `userId`, the owner's id: a parameter, or the user's
 * column in a statement that joins other tables): the dashboard reads it in its one statement.
 * `applicationsFromJson` reads it.
 */
export const applicationsColumn = (userId: SQLWrapper) =>
  sql`(select coalesce(json_agg(json_build_object('a', ${applicationJson.sql}, 'agreementRef', s.agreement_ref, 'hasDocument', exists (select 1 from loan_documents d where d.application_id = a.id and d.superseded_at is null)) order by a.created_at desc), '[]') from loan_applications a left join loan_signatures s on s.application_id = a.id and s.superseded_at is null where a.user_id = ${userId})`;
const applicationJson = jsonColumns(loanApplications, "a", [
  "id",
  "reference",
  "product",
  "status",
  "statusReason",
  "amountPaise",
  "tenureMonths",
  "termsSavedAt",
  "detailsSavedAt",
  "createdAt",
  "signedAt",
  "decidedAt",
]);

/** The applications of `applicationsColumn`, as `listApplications` gives them. */
export const applicationsFromJson = (json: unknown) =>
  (json as { a: Record<string, unknown>; agreementRef: string | null; hasDocument: boolean }[]).map(({ a, agreementRef, hasDocument }) => ({
    ...applicationJson.decode(a),
    agreementRef,
    hasDocument,
  }));

/** An application by id, for its owner only (the reference and product a page links to), or null. */
export async function ownedApplicationById({ db }: Services, { userId, applicationId }: { userId: string; applicationId: string }) {
  const [row] = await db
    .select({ reference: loanApplications.reference, product: loanApplications.product })
    .from(loanApplications)
    .where(and(eq(loanApplications.id, applicationId), eq(loanApplications.userId, userId)));
  return row ?? null;
}

/** The application of an outcome page, for its owner only. */
export async function applicationForOutcome({ db }: Services, { userId, reference }: { userId: string; reference: string }) {
  const [row] = await db
    .select({
      reference: loanApplications.reference,
      product: loanApplications.product,
      status: loanApplications.status,
      statusReason: loanApplications.statusReason,
      amountPaise: loanApplications.amountPaise,
      agreementRef: loanSignatures.agreementRef,
    })
    .from(loanApplications)
    .leftJoin(loanSignatures, currentSignatureOf(loanApplications.id))
    .where(and(eq(loanApplications.reference, reference), eq(loanApplications.userId, userId)));
  return row ? { ...row, kindName: KIND_NAME[row.product] } : null;
}
