import { and, eq, isNull } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { buildKfs, type KfsInput } from "../../domain/loans/kfs.ts";
import { maskMobile } from "../../domain/validators/mobile.ts";
import type { Db } from "../db/client.ts";
import { borrowerAddresses, borrowerProfiles, loanApplications, loanDocuments, users } from "../db/schema.ts";
import type { Language } from "../../i18n/languages.ts";
import { renderAgreementPdf } from "../pdf/pdf.server.ts";
import { type Put, storingObjects } from "../storage/put-bytes.server.ts";
import { kfsWords, purposeText } from "./kfs-words.server.ts";
import { kfsDates, offerFor } from "./offer.server.ts";
import { type Application, lockOwned, supersedeDocument } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "storage" | "log">;

export type IssueResult =
  { ok: true; documentId: string; reissued: boolean } | { ok: false; reason: "offer_changed" | "not_draft" | "no_facts"; message: string };

/** The KFS's inputs: the saved choices, today's product terms and the borrower's own details; null when something is missing. */
export async function kfsInput(
  services: Pick<AppServices, "db" | "config" | "now">,
  application: Application,
  dates: ReturnType<typeof kfsDates>,
  language: Language = "en",
) {
  const { db, config } = services;
  const kind = application.product;
  if (!application.amountPaise) return null;
  // The credit policy judges the amount and tenure chosen: the rate is the risk band's, the KFS is issued only when they pass.
  const offer = await offerFor(services, {
    userId: application.userId,
    kind,
    applicationId: application.id,
    tenureMonths: application.tenureMonths,
    asked: { amountPaise: application.amountPaise, tenureMonths: application.tenureMonths },
  });
  if (!offer.ok) return null;
  const [person] = await db
    .select({ name: borrowerProfiles.fullName, panMasked: borrowerProfiles.panMasked, mobile: users.mobile })
    .from(borrowerProfiles)
    .innerJoin(users, eq(users.id, borrowerProfiles.userId))
    .where(eq(borrowerProfiles.userId, application.userId));
  const [address] = await db
    .select({ city: borrowerAddresses.currentCity, state: borrowerAddresses.currentState, pin: borrowerAddresses.currentPincode })
    .from(borrowerAddresses)
    .where(eq(borrowerAddresses.userId, application.userId));
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
    purpose: purposeText(language, application.purpose, application.purposeDetails),
    disbursalAccount: application.disbursalAccount,
  };
  const passes = offer.verdict.result === "pass" || offer.verdict.result === "deviation";
  return { input, fits: passes && application.amountPaise >= offer.bounds.minAmountPaise, verdict: offer.verdict };
}

/**
 * Step5: the KFS and agreement, generated once and stored, in the language of the page that asks
 * for it. In one transaction with the owner's draft locked: a current one is kept while it is valid
 * and in that language; an expired one, or one in another language (the borrower switched before
 * signing), is replaced by a fresh one computed with the terms of today, and if those no longer
 * allow the chosen amount, the terms must be chosen again (`offer_changed`). The PDF goes to file
 * storage before its row is written (removed again if the transaction fails).
 */
export async function issueKfs(
  services: Services,
  { userId, applicationId, language }: { userId: string; applicationId: string; language: Language },
): Promise<IssueResult> {
  const { db, now } = services;
  const issueLocked = async (tx: Db, put: Put): Promise<IssueResult> => {
    const application = await lockOwned(tx, userId, applicationId);
    if (!application || application.status !== "draft")
      return { ok: false, reason: "not_draft", message: "This application is no longer a draft." } as const;
    const dates = kfsDates(services);
    const [current] = await tx
      .select({ id: loanDocuments.id, validUntil: loanDocuments.validUntil, language: loanDocuments.language })
      .from(loanDocuments)
      .where(and(eq(loanDocuments.applicationId, application.id), isNull(loanDocuments.supersededAt)));
    if (current && current.validUntil >= dates.today && current.language === language)
      return { ok: true, documentId: current.id, reissued: false } as const;

    const at = now();
    const prepared = await kfsInput({ ...services, db: tx }, application, dates, language);
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
    const kfs = buildKfs(prepared.input, kfsWords(language));
    const pdf = await renderAgreementPdf(prepared.input, kfs, at);
    if (current) await supersedeDocument(tx, application.id, at);
    const stored = await put(pdf);
    const [doc] = await tx
      .insert(loanDocuments)
      .values({
        applicationId: application.id,
        pdfKey: stored.key,
        sha256: stored.sha256,
        sizeBytes: pdf.byteLength,
        terms: kfs,
        input: prepared.input,
        language,
        issuedAt: at,
        validUntil: dates.validUntil,
        assumedDisbursalDate: dates.assumedDisbursalDate,
      })
      .returning({ id: loanDocuments.id });
    return { ok: true, documentId: (doc as { id: string }).id, reissued: Boolean(current) } as const;
  };
  return storingObjects(services, (put) => db.transaction((tx) => issueLocked(tx, put)));
}
