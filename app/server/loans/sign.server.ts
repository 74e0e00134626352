import { shortReference } from "../../domain/loans/application.ts";
import { and, eq, isNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { maskMobile } from "../../domain/validators/mobile.ts";
import { todayIST } from "../../domain/india-date.ts";
import { sha256Bytes } from "../crypto.server.ts";
import { borrowerProfiles, currentSignatureOf, loanApplications, loanDocuments, loanSignatures, users } from "../db/schema.ts";
import { sendCode, type SendResult, verifyCode } from "../otp/otp.server.ts";
import type { Db } from "../db/client.ts";
import { appendSignaturePage } from "../pdf/pdf.server.ts";
import { type Put, storingObjects } from "../storage/put-bytes.server.ts";
import { pdfBytes } from "../storage/stored-pdf.server.ts";
import { queueCkycSearch } from "../ckyc/search.server.ts";
import { queueScreening } from "../aml/screen.server.ts";
import { changeStatus } from "./lifecycle.server.ts";
import { newReference } from "./reference.server.ts";
import { lockOwned, supersedeDocument } from "./rows.server.ts";
import { judge, recordEvaluation } from "../credit/judge.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { refusedCode } from "../auth/sign-in.server.ts";
import { msg } from "../../i18n/form-message.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "sms" | "log" | "jobs" | "storage">;
interface Signer {
  id: string;
  mobile: string | null;
}

/** Step6's "Send code": the one-time code for signing, to the borrower's verified mobile. */
export async function sendSigningCode(
  services: Services,
  { user, reference, client }: { user: Signer; reference: string; client: Client },
): Promise<SendResult | { ok: false; reason: "no_mobile"; message: string }> {
  if (!user.mobile) return { ok: false, reason: "no_mobile", message: msg("applySteps.errors.verifyMobile") };
  const { config } = services;
  // In the language of the page the borrower signs on.
  const language = client.language ?? "en";
  const t = plainTranslator(language, "notices");
  return sendCode(services, {
    target: user.mobile,
    purpose: "agreement",
    ip: client.ip,
    language,
    message: (code) =>
      t("signingCode.sms", {
        code,
        brand: config.public.brandName,
        ref: shortReference(reference),
        minutes: Math.round(config.otp.ttlSeconds / 60),
      }),
  });
}

export type SignResult =
  | { ok: true; agreementRef: string; alreadySigned: boolean }
  | { ok: false; field: "code" | "documentId" | "form"; message: string }
  /** The credit policy no longer allows these terms: the amount is chosen again at Step0 (or the page says why none can be). */
  | { ok: false; field: "policy"; message: string };

/**
 * Step6: in one transaction, with the owner's application row locked (so two
 * clicks or two tabs sign once): the code is checked, the document shown must
 * be the current, unexpired one, the signature is recorded with the hash of
 * the bytes shown, the signed copy (with its signature page) is stored with
 * its own hash, and the status moves draft → signed with its audit row, and
 * the borrower is told (the link to the signed copy by SMS, the copy itself by
 * e-mail).
 */
export async function signApplication(
  services: Services,
  input: { user: Signer; applicationId: string; documentId: string; code: string; client: Client },
): Promise<SignResult> {
  const { db, now, config } = services;
  const { user, client } = input;
  if (!user.mobile) return { ok: false, field: "form", message: msg("applySteps.errors.verifyMobile") };
  const mobile = user.mobile;
  const signLocked = async (tx: Db, put: Put): Promise<SignResult & { reference?: string }> => {
    const application = await lockOwned(tx, user.id, input.applicationId);
    if (!application) return { ok: false, field: "form", message: msg("applySteps.errors.notFound") };
    if (application.status !== "draft") {
      const [existing] = await tx
        .select({ agreementRef: loanSignatures.agreementRef })
        .from(loanSignatures)
        .where(currentSignatureOf(application.id));
      if (existing) return { ok: true, agreementRef: existing.agreementRef, alreadySigned: true };
      return { ok: false, field: "form", message: msg("applySteps.errors.cannotSign") };
    }
    const [doc] = await tx
      .select()
      .from(loanDocuments)
      .where(and(eq(loanDocuments.applicationId, application.id), isNull(loanDocuments.supersededAt)));
    if (!doc || doc.id !== input.documentId) {
      return {
        ok: false,
        field: "documentId",
        message: msg("applySteps.errors.kfsChanged"),
      };
    }
    if (doc.validUntil < todayIST(now())) {
      return {
        ok: false,
        field: "documentId",
        message: msg("applySteps.errors.kfsExpired"),
      };
    }
    // The credit policy in force judges the terms signed, before the code is used; the borrower's row
    // locked, so that two of their applications signed at once are judged one after the other.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const judged = await judge(
      { db: tx, now },
      {
        userId: user.id,
        kind: application.product,
        applicationId: application.id,
        asked: {
          amountPaise: application.amountPaise ?? 0,
          tenureMonths: application.tenureMonths,
          monthlyPaise: doc.terms.figures.instalmentPaise,
        },
      },
    );
    if (!judged.ok) return { ok: false, field: "form", message: msg("applySteps.errors.noFacts") };
    const verdict = judged.verdict;
    await recordEvaluation(tx, {
      userId: user.id,
      applicationId: application.id,
      stage: "signing",
      verdict,
      bureauReference: judged.bureauReference,
      at: now(),
    });
    if (verdict.result === "fail" || verdict.result === "missing") {
      // The terms no longer pass: they are chosen again (the KFS for them withdrawn); Step0 says why when nothing passes.
      await supersedeDocument(tx, application.id, now());
      await tx.update(loanApplications).set({ termsSavedAt: null, updatedAt: now() }).where(eq(loanApplications.id, application.id));
      return {
        ok: false,
        field: "policy",
        message: verdict.eligible ? msg("applySteps.errors.policyLess") : msg("applySteps.errors.policyNone"),
      };
    }
    const checked = await verifyCode({ db: tx, config, now }, { target: mobile, purpose: "agreement", code: input.code });
    if (!checked.ok) return { ok: false, field: "code", message: refusedCode(checked, config) };

    const at = now();
    const [profile] = await tx
      .select({ name: borrowerProfiles.fullName })
      .from(borrowerProfiles)
      .where(eq(borrowerProfiles.userId, user.id));
    // The bytes shown, read from storage (or the row, if issued before the move) and checked against the hash recorded at issue.
    const shown = await pdfBytes(services.storage, { bytes: doc.pdf, key: doc.pdfKey, sha256: doc.sha256 });
    const shownSha256 = sha256Bytes(shown);
    const signedPdf = await appendSignaturePage(shown, {
      name: profile?.name ?? "",
      signedAt: at,
      shownSha256,
      mobileMasked: maskMobile(mobile),
      ip: client.ip,
      userAgent: client.userAgent,
      reference: application.reference,
      brandName: config.public.brandName,
      lenderName: config.public.lender.name,
      language: doc.language,
    });
    const agreementRef = newReference();
    const stored = await put(signedPdf);
    await tx.insert(loanSignatures).values({
      applicationId: application.id,
      documentId: doc.id,
      shownSha256,
      signedAt: at,
      ip: client.ip,
      userAgent: client.userAgent,
      mobile,
      signedPdfKey: stored.key,
      signedSha256: stored.sha256,
      agreementRef,
      language: doc.language,
    });
    await changeStatus(
      { ...services, db: tx },
      { application, to: "signed", by: { ...client, actor: "borrower", actorUserId: user.id }, at, extra: { signedAt: at } },
    );
    // The central KYC registry searched before onboarding: a record it holds is never uploaded again.
    await queueCkycSearch({ ...services, db: tx }, user.id);
    // Screened against the sanctions lists at onboarding (a possible match stops the disbursal).
    await queueScreening({ ...services, db: tx }, user.id);
    await notify(
      { ...services, db: tx },
      {
        userId: user.id,
        event: "application_signed",
        key: application.id,
        data: { applicationId: application.id, reference: application.reference, agreementRef },
      },
    );
    return { ok: true, agreementRef, alreadySigned: false, reference: application.reference };
  };
  // The signed copy goes to file storage before its row (removed again if the transaction fails).
  const outcome = await storingObjects(services, (put) => db.transaction((tx) => signLocked(tx, put)));
  if (!outcome.ok) return outcome;
  return { ok: true, agreementRef: outcome.agreementRef, alreadySigned: outcome.alreadySigned };
}
