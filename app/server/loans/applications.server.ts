/**
 * Loan applications of the new-loan flow: start or resume, the offer from the
 * borrower's profile, saving Step0 and Step1, issuing the KFS + agreement PDF,
 * signing and cancelling. Every query carries the owner's id.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { KIND_NAME, type LoanKind, PURPOSES, type Purpose, type TermsBounds } from "../../domain/loans/application.ts";
import { buildKfs, KFS_VALID_WORKING_DAYS, type KfsInput, type KfsModel } from "../../domain/loans/kfs.ts";
import { borrowerCanCancel, IN_PROGRESS } from "../../domain/loans/lifecycle.ts";
import { addWorkingDays, type IsoDate, nextWorkingDay } from "../../domain/loan-math.ts";
import { type ApplicantFacts, ageOn, emiOffer, type ProductTerms, salaryAdvanceOffer } from "../../domain/offer.ts";
import { todayIST } from "../../lib/format.ts";
import { sha256Bytes } from "../crypto.server.ts";
import type { Db } from "../db/client.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerEmployment,
  borrowerProfiles,
  loanApplications,
  loanDocuments,
  loanSignatures,
  users,
} from "../db/schema.ts";
import { loadProducts } from "../products.server.ts";
import { auditStatus, type ChangeBy, changeStatus } from "./lifecycle.server.ts";
import { maskMobile } from "../../domain/validators/mobile.ts";

export type Application = typeof loanApplications.$inferSelect;
type Services = Pick<AppServices, "db" | "config" | "now">;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
/** 128 random bits as 26 lower-case base32 characters. */
export function newReference(): string {
  const bytes = randomBytes(17); // 136 bits read, 130 used
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/** The application in progress for this product, or a new draft (one in progress per borrower and product). */
export async function startApplication(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  kind: LoanKind,
  meta: { ip: string; userAgent: string },
): Promise<Application> {
  const existing = await inProgress(db, userId, kind);
  if (existing) return existing;
  const at = now();
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(loanApplications)
      .values({ reference: newReference(), userId, product: kind, status: "draft", createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning();
    if (row) await auditStatus(tx, row.id, null, "draft", { actor: "borrower", actorUserId: userId, reason: "started", ...meta }, at);
    return row ?? null;
  });
  // Lost a race with another tab: the other tab's draft is the one in progress.
  return created ?? ((await inProgress(db, userId, kind)) as Application);
}

async function inProgress(db: Db, userId: string, kind: LoanKind) {
  const [row] = await db
    .select()
    .from(loanApplications)
    .where(
      and(eq(loanApplications.userId, userId), eq(loanApplications.product, kind), inArray(loanApplications.status, [...IN_PROGRESS])),
    );
  return row ?? null;
}

/** The borrower's own application with this reference and kind, with its current KFS (if any), or null. */
export async function loadOwnedApplication(db: Db, userId: string, kind: LoanKind, reference: string) {
  const [row] = await db
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.reference, reference), eq(loanApplications.userId, userId), eq(loanApplications.product, kind)));
  if (!row) return null;
  return { application: row, document: await currentDocumentInfo(db, row.id) };
}

export async function currentDocumentInfo(db: Db, applicationId: string) {
  const [doc] = await db
    .select({
      id: loanDocuments.id,
      sha256: loanDocuments.sha256,
      sizeBytes: loanDocuments.sizeBytes,
      issuedAt: loanDocuments.issuedAt,
      validUntil: loanDocuments.validUntil,
      assumedDisbursalDate: loanDocuments.assumedDisbursalDate,
      terms: loanDocuments.terms,
    })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
  return doc ? { ...doc, kfs: doc.terms } : null;
}

/** The current document's bytes, for the application with this reference and kind (access is checked by the caller). */
export async function documentBytes(db: Db, kind: LoanKind, reference: string, ownerId: string | null) {
  const [row] = await db
    .select({
      pdf: loanDocuments.pdf,
      sha256: loanDocuments.sha256,
      userId: loanApplications.userId,
      reference: loanApplications.reference,
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

// ---- the offer --------------------------------------------------------------------------

/** A fact eligibility needs and the profile lacks: which one, its section, where to give it. */
export interface MissingFact {
  fact: "dateOfBirth" | "employment" | "existingEmis";
  section: string;
  href: string;
  what: string;
}
export type FactsResult = { ok: true; facts: ApplicantFacts } | { ok: false; missing: MissingFact[] };

/** What eligibility needs, from the Profile (date of birth) and Employment sections. */
export async function applicantFacts(db: Db, userId: string, today: IsoDate): Promise<FactsResult> {
  // One after the other: `db` may be a transaction's single connection.
  const [profile] = await db
    .select({ dateOfBirth: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  const [employment] = await db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
  const missing: MissingFact[] = [];
  if (!profile)
    missing.push({ fact: "dateOfBirth", section: "Profile", href: "/User/Profile/components/Profile", what: "your date of birth and PAN" });
  if (!employment) {
    missing.push({
      fact: "employment",
      section: "Employment",
      href: "/User/Profile/components/Employment",
      what: "your work, income and existing EMIs",
    });
  } else if (employment.existingEmiPaise === null) {
    missing.push({ fact: "existingEmis", section: "Employment", href: "/User/Profile/components/Employment", what: "your existing EMIs" });
  }
  if (!profile || !employment || employment.existingEmiPaise === null) return { ok: false, missing };
  return {
    ok: true,
    facts: {
      ageYears: ageOn(profile.dateOfBirth, today),
      netMonthlyIncomePaise: employment.netMonthlyIncomePaise,
      existingEmiPaise: employment.existingEmiPaise,
      employmentType: employment.employmentType,
      salaryDay: employment.salaryDay,
    },
  };
}

/** Dates the KFS uses: issued today (India), valid 3 working days, disbursal assumed the next working day. */
export function kfsDates(services: Pick<AppServices, "config" | "now">) {
  const today = todayIST(services.now());
  const holidays = services.config.holidays;
  return {
    today,
    validUntil: addWorkingDays(today, KFS_VALID_WORKING_DAYS, holidays),
    assumedDisbursalDate: nextWorkingDay(today, holidays),
  };
}

type ProductRow = Awaited<ReturnType<typeof loadProducts>>["emi"];
const terms = (p: ProductRow): ProductTerms & Pick<ProductRow, "penalChargePaise" | "coolingOffDays"> => p;

/**
 * The offer for this kind from eligibility (PRODUCT.md §9) and the bounds of
 * Step0's form: for an EMI loan the largest amount at every tenure.
 */
export async function offerFor(services: Services, kind: LoanKind, facts: ApplicantFacts) {
  const products = await loadProducts(services.db);
  const { assumedDisbursalDate } = kfsDates(services);
  if (kind === "emi") {
    const product = terms(products.emi);
    const maxByTenure: Record<number, number> = {};
    let best = emiOffer(facts, product, products.riskBands, product.maxTenure, assumedDisbursalDate);
    for (let t = product.minTenure; t <= product.maxTenure; t++) {
      const o = emiOffer(facts, product, products.riskBands, t, assumedDisbursalDate);
      maxByTenure[t] = o.maxAmountPaise;
      if (t === product.maxTenure) best = o;
    }
    const bounds: TermsBounds = {
      kind,
      minAmountPaise: product.minAmountPaise,
      stepPaise: product.amountStepPaise,
      maxAmountPaise: best.maxAmountPaise,
      maxByTenure,
      minTenure: product.minTenure,
      maxTenure: product.maxTenure,
    };
    return {
      kind,
      product,
      eligible: best.eligible,
      reasons: best.reasons,
      rateBps: best.rateBps,
      bounds,
      assumedDisbursalDate,
      salaryDay: null,
    };
  }
  const product = terms(products.salaryAdvance);
  const o = salaryAdvanceOffer(facts, product, assumedDisbursalDate);
  const bounds: TermsBounds = {
    kind,
    minAmountPaise: product.minAmountPaise,
    stepPaise: product.amountStepPaise,
    maxAmountPaise: o.maxAmountPaise,
    maxByTenure: {},
    minTenure: 1,
    maxTenure: 1,
  };
  return {
    kind,
    product,
    eligible: o.eligible,
    reasons: o.reasons,
    rateBps: product.rateBps,
    bounds,
    assumedDisbursalDate,
    salaryDay: facts.salaryDay ?? null,
  };
}
export type Offer = Awaited<ReturnType<typeof offerFor>>;

/** Any change to the terms or details makes the issued KFS stale: it is withdrawn and reissued at Step5. */
async function supersedeDocument(tx: Db, applicationId: string, at: Date) {
  await tx
    .update(loanDocuments)
    .set({ supersededAt: at })
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
}

/** The owner's application, locked until the transaction ends (so concurrent changes queue). */
async function lockOwned(tx: Db, userId: string, applicationId: string) {
  const [row] = await tx
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.id, applicationId), eq(loanApplications.userId, userId)))
    .for("update");
  return row ?? null;
}

const draftOf = (userId: string, applicationId: string) =>
  and(eq(loanApplications.id, applicationId), eq(loanApplications.userId, userId), eq(loanApplications.status, "draft"));

/** Step0: amount and tenure within the offer (already validated against it), with the offer as shown. */
export async function saveTerms(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  application: Application,
  chosen: { amountPaise: number; tenureMonths: number | null },
  offer: Offer,
) {
  const at = now();
  await db.transaction(async (tx) => {
    const changed = application.amountPaise !== chosen.amountPaise || (application.tenureMonths ?? null) !== chosen.tenureMonths;
    const updated = await tx
      .update(loanApplications)
      .set({
        amountPaise: chosen.amountPaise,
        tenureMonths: chosen.tenureMonths,
        offer: {
          rateBps: offer.rateBps,
          maxAmountPaise: offer.bounds.maxAmountPaise,
          maxByTenure: offer.bounds.maxByTenure,
          salaryDay: offer.salaryDay,
          computedAt: at.toISOString(),
        },
        termsSavedAt: at,
        updatedAt: at,
      })
      .where(draftOf(userId, application.id))
      .returning({ id: loanApplications.id });
    if (updated.length && changed) await supersedeDocument(tx, application.id, at);
  });
}

/** The borrower's verified bank account, masked, or why there is none. */
export async function disbursalAccount(db: Db, userId: string) {
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
  if (!bank) return { account: null, problem: "Add your bank account in the Bank section of your profile." } as const;
  const { verifiedAt, ...account } = bank;
  if (!verifiedAt)
    return {
      account,
      verified: false,
      problem: "Your bank account is not verified yet: the name at the bank must match your profile.",
    } as const;
  return { account, verified: true, problem: null } as const;
}

/** Step1: purpose and the disbursal account (snapshotted as it is now). */
export async function saveDetails(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  application: Application,
  details: { purpose: Purpose; purposeDetails: string | null; account: NonNullable<Application["disbursalAccount"]> | null },
) {
  const at = now();
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(loanApplications)
      .set({
        purpose: details.purpose,
        purposeDetails: details.purposeDetails,
        disbursalAccount: details.account ?? application.disbursalAccount,
        detailsSavedAt: details.account ? at : application.detailsSavedAt,
        updatedAt: at,
      })
      .where(draftOf(userId, application.id))
      .returning({ id: loanApplications.id });
    const changed =
      application.purpose !== details.purpose ||
      (application.purposeDetails ?? null) !== details.purposeDetails ||
      JSON.stringify(application.disbursalAccount) !== JSON.stringify(details.account ?? application.disbursalAccount);
    if (updated.length && changed) await supersedeDocument(tx, application.id, at);
  });
}

// ---- the KFS and agreement ------------------------------------------------------------------

export type IssueResult =
  { ok: true; documentId: string; reissued: boolean } | { ok: false; reason: "offer_changed" | "not_draft" | "no_facts"; message: string };

/** The KFS's inputs: the saved choices, today's product terms and the borrower's own details. */
async function kfsInput(services: Services, application: Application, dates: ReturnType<typeof kfsDates>) {
  const { db, config } = services;
  const kind = application.product;
  const factsResult = await applicantFacts(db, application.userId, dates.today);
  if (!factsResult.ok) return null;
  const offer = await offerFor(services, kind, factsResult.facts);
  const [[person], [address]] = await Promise.all([
    db
      .select({ name: borrowerProfiles.fullName, panMasked: borrowerProfiles.panMasked, mobile: users.mobile })
      .from(borrowerProfiles)
      .innerJoin(users, eq(users.id, borrowerProfiles.userId))
      .where(eq(borrowerProfiles.userId, application.userId)),
    db
      .select({ city: borrowerAddresses.currentCity, state: borrowerAddresses.currentState, pin: borrowerAddresses.currentPincode })
      .from(borrowerAddresses)
      .where(eq(borrowerAddresses.userId, application.userId)),
  ]);
  if (!person || !application.amountPaise || !application.disbursalAccount || !application.purpose) return null;
  const input: KfsInput = {
    kind,
    reference: application.reference,
    brandName: config.public.brandName,
    lender: config.public.lender,
    borrower: {
      name: person.name,
      panMasked: person.panMasked,
      mobileMasked: maskMobile(person.mobile),
      address: address ? `${address.city}, ${address.state} ${address.pin}` : "",
    },
    issuedOn: dates.today,
    validUntil: dates.validUntil,
    assumedDisbursalDate: dates.assumedDisbursalDate,
    amountPaise: application.amountPaise,
    tenureMonths: application.tenureMonths,
    rateBps: offer.rateBps,
    fees: offer.product,
    penalChargePaise: offer.product.penalChargePaise,
    coolingOffDays: offer.product.coolingOffDays,
    salaryDay: offer.salaryDay,
    purpose: PURPOSES[application.purpose] + (application.purposeDetails ? `: ${application.purposeDetails}` : ""),
    disbursalAccount: application.disbursalAccount,
  };
  const max = kind === "emi" ? (offer.bounds.maxByTenure[application.tenureMonths ?? 0] ?? 0) : offer.bounds.maxAmountPaise;
  return { input, fits: offer.eligible && application.amountPaise <= max && application.amountPaise >= offer.bounds.minAmountPaise };
}

/**
 * Step5: the KFS and agreement, generated once and stored. A current one is
 * kept while it is valid; an expired one is replaced by a fresh one computed
 * with the terms of today (and if those no longer allow the chosen amount,
 * the borrower goes back to Step0).
 */
export async function issueDocument(
  services: Services,
  render: (input: KfsInput, kfs: KfsModel, at: Date) => Promise<Uint8Array>,
  userId: string,
  applicationId: string,
): Promise<IssueResult> {
  const { db, now } = services;
  return db.transaction(async (tx) => {
    const application = await lockOwned(tx, userId, applicationId);
    if (!application || application.status !== "draft")
      return { ok: false, reason: "not_draft", message: "This application is no longer a draft." } as const;
    const dates = kfsDates(services);
    const [current] = await tx
      .select({ id: loanDocuments.id, validUntil: loanDocuments.validUntil })
      .from(loanDocuments)
      .where(and(eq(loanDocuments.applicationId, application.id), isNull(loanDocuments.supersededAt)));
    if (current && current.validUntil >= dates.today) return { ok: true, documentId: current.id, reissued: false } as const;

    const at = now();
    const prepared = await kfsInput({ ...services, db: tx }, application, dates);
    if (!prepared)
      return { ok: false, reason: "no_facts", message: "Your profile is missing details the Key Fact Statement needs." } as const;
    if (!prepared.fits) {
      if (current) await supersedeDocument(tx, application.id, at);
      await tx.update(loanApplications).set({ termsSavedAt: null, updatedAt: at }).where(eq(loanApplications.id, application.id));
      return {
        ok: false,
        reason: "offer_changed",
        message: "Your offer has changed since you chose the amount. Choose the amount and tenure again.",
      } as const;
    }
    const kfs = buildKfs(prepared.input);
    const pdf = await render(prepared.input, kfs, at);
    if (current) await supersedeDocument(tx, application.id, at);
    const [doc] = await tx
      .insert(loanDocuments)
      .values({
        applicationId: application.id,
        pdf: Buffer.from(pdf),
        sha256: sha256Bytes(pdf),
        sizeBytes: pdf.byteLength,
        terms: kfs,
        issuedAt: at,
        validUntil: dates.validUntil,
        assumedDisbursalDate: dates.assumedDisbursalDate,
      })
      .returning({ id: loanDocuments.id });
    return { ok: true, documentId: (doc as { id: string }).id, reissued: Boolean(current) } as const;
  });
}

// ---- signing ----------------------------------------------------------------------------------

export type SignOutcome =
  { ok: true; agreementRef: string; alreadySigned: boolean } | { ok: false; field: "code" | "documentId" | "form"; message: string };

/**
 * Step6: in one transaction, with the application row locked (so two clicks
 * or two tabs sign once): the code is checked, the document shown must be
 * the current, unexpired one, the signature is recorded with the hash of the
 * bytes shown, the signed copy is stored with its own hash, and the status
 * moves draft → signed with its audit row.
 */
export async function signApplication(
  services: Services,
  deps: {
    verify: (tx: Db, mobile: string, code: string) => Promise<{ ok: true } | { ok: false; message: string }>;
    signPdf: (original: Uint8Array, facts: { name: string; signedAt: Date; shownSha256: string }) => Promise<Uint8Array>;
  },
  user: { id: string; mobile: string | null },
  applicationId: string,
  form: { documentId: string; code: string },
  by: Omit<ChangeBy, "actor" | "actorUserId"> & { ip: string; userAgent: string },
): Promise<SignOutcome> {
  const { db, now } = services;
  if (!user.mobile) return { ok: false, field: "form", message: "Verify your mobile number first." };
  const mobile = user.mobile;
  return db.transaction(async (tx) => {
    const application = await lockOwned(tx, user.id, applicationId);
    if (!application) return { ok: false, field: "form", message: "This application was not found." } as const;
    if (application.status !== "draft") {
      const [existing] = await tx
        .select({ agreementRef: loanSignatures.agreementRef })
        .from(loanSignatures)
        .where(eq(loanSignatures.applicationId, application.id));
      if (existing) return { ok: true, agreementRef: existing.agreementRef, alreadySigned: true } as const;
      return { ok: false, field: "form", message: "This application can no longer be signed." } as const;
    }
    const [doc] = await tx
      .select()
      .from(loanDocuments)
      .where(and(eq(loanDocuments.applicationId, application.id), isNull(loanDocuments.supersededAt)));
    if (!doc || doc.id !== form.documentId) {
      return {
        ok: false,
        field: "documentId",
        message: "The Key Fact Statement has changed since you opened it. Read the new one before you sign.",
      } as const;
    }
    const today = todayIST(now());
    if (doc.validUntil < today) {
      return {
        ok: false,
        field: "documentId",
        message: "This Key Fact Statement has expired. A fresh one is ready: read it before you sign.",
      } as const;
    }
    const checked = await deps.verify(tx, mobile, form.code);
    if (!checked.ok) return { ok: false, field: "code", message: checked.message } as const;

    const at = now();
    const [profile] = await tx
      .select({ name: borrowerProfiles.fullName })
      .from(borrowerProfiles)
      .where(eq(borrowerProfiles.userId, user.id));
    const shownSha256 = sha256Bytes(doc.pdf);
    const signedPdf = await deps.signPdf(doc.pdf, { name: profile?.name ?? "", signedAt: at, shownSha256 });
    const agreementRef = newReference();
    await tx.insert(loanSignatures).values({
      applicationId: application.id,
      documentId: doc.id,
      shownSha256,
      signedAt: at,
      ip: by.ip,
      userAgent: by.userAgent,
      mobile,
      signedPdf: Buffer.from(signedPdf),
      signedSha256: sha256Bytes(signedPdf),
      agreementRef,
    });
    await changeStatus(tx, application, "signed", { ...by, actor: "borrower", actorUserId: user.id }, at, { signedAt: at });
    return { ok: true, agreementRef, alreadySigned: false } as const;
  });
}

/** The borrower cancels before disbursal (draft, signed, under review or approved). */
export async function cancelApplication(
  { db, now }: Pick<AppServices, "db" | "now">,
  userId: string,
  applicationId: string,
  by: { ip: string; userAgent: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const application = await lockOwned(tx, userId, applicationId);
    if (!application || !borrowerCanCancel(application.status)) return false;
    await changeStatus(
      tx,
      application,
      "cancelled",
      { actor: "borrower", actorUserId: userId, reason: "Cancelled by the borrower", ...by },
      now(),
    );
    return true;
  });
}

// ---- signed agreements ------------------------------------------------------------------------

/** The signed agreement behind an /Eagreement reference, or null (unknown or unsigned). */
export async function signedAgreement(db: Db, agreementRef: string) {
  const [row] = await db
    .select({
      signedSha256: loanSignatures.signedSha256,
      shownSha256: loanSignatures.shownSha256,
      signedAt: loanSignatures.signedAt,
      mobile: loanSignatures.mobile,
      product: loanApplications.product,
      reference: loanApplications.reference,
      status: loanApplications.status,
      amountPaise: loanApplications.amountPaise,
      name: borrowerProfiles.fullName,
    })
    .from(loanSignatures)
    .innerJoin(loanApplications, eq(loanApplications.id, loanSignatures.applicationId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(eq(loanSignatures.agreementRef, agreementRef));
  return row ?? null;
}

/** The signed PDF behind an /Eagreement reference, or null. */
export async function signedAgreementPdf(db: Db, agreementRef: string) {
  const [row] = await db
    .select({ pdf: loanSignatures.signedPdf, sha256: loanSignatures.signedSha256, reference: loanApplications.reference })
    .from(loanSignatures)
    .innerJoin(loanApplications, eq(loanApplications.id, loanSignatures.applicationId))
    .where(eq(loanSignatures.agreementRef, agreementRef));
  return row ?? null;
}

/** The /Eagreement reference of a signed application, or null. */
export async function agreementRefOf(db: Db, applicationId: string) {
  const [row] = await db
    .select({ ref: loanSignatures.agreementRef })
    .from(loanSignatures)
    .where(eq(loanSignatures.applicationId, applicationId));
  return row?.ref ?? null;
}

/** The borrower's applications, newest first, with their agreement references once signed. */
export async function listApplications(db: Db, userId: string) {
  return db
    .select({
      reference: loanApplications.reference,
      product: loanApplications.product,
      status: loanApplications.status,
      statusReason: loanApplications.statusReason,
      amountPaise: loanApplications.amountPaise,
      tenureMonths: loanApplications.tenureMonths,
      termsSavedAt: loanApplications.termsSavedAt,
      detailsSavedAt: loanApplications.detailsSavedAt,
      createdAt: loanApplications.createdAt,
      signedAt: loanApplications.signedAt,
      agreementRef: loanSignatures.agreementRef,
      hasDocument: sql<boolean>`exists (select 1 from loan_documents d where d.application_id = ${loanApplications.id} and d.superseded_at is null)`,
    })
    .from(loanApplications)
    .leftJoin(loanSignatures, eq(loanSignatures.applicationId, loanApplications.id))
    .where(eq(loanApplications.userId, userId))
    .orderBy(desc(loanApplications.createdAt));
}

/** The application of an outcome page, for its owner only. */
export async function applicationForOutcome(db: Db, userId: string, reference: string) {
  const [row] = await db
    .select({
      reference: loanApplications.reference,
      product: loanApplications.product,
      status: loanApplications.status,
      amountPaise: loanApplications.amountPaise,
      agreementRef: loanSignatures.agreementRef,
    })
    .from(loanApplications)
    .leftJoin(loanSignatures, eq(loanSignatures.applicationId, loanApplications.id))
    .where(and(eq(loanApplications.reference, reference), eq(loanApplications.userId, userId)));
  return row ? { ...row, kindName: KIND_NAME[row.product], status: row.status } : null;
}
