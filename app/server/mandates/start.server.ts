/**
 * Setting up autopay (docs/product.md "Autopay"): on the borrower's own active loan, or on their
 * application once signed and before disbursal (a product may pay out only once autopay is
 * active), a mandate on the verified account the loan was (or will be) disbursed to, at most 1.5 × the largest instalment a debit and
 * until 3 months after the last due date (domain/loans/mandate.ts); UPI AutoPay up to ₹15,000 a
 * debit, e-NACH above. The mandate is stored pending, then registered with the provider, and the
 * borrower is sent to authorise it there. A second click while one is pending resumes it.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { todayIST } from "../../domain/india-date.ts";
import { KIND_NAME, shortReference } from "../../domain/loans/application.ts";
import { loanSchedule } from "../../domain/loans/disbursal.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { mandateTerms } from "../../domain/loans/mandate.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { decrypt } from "../crypto.server.ts";
import { borrowerBankAccounts, borrowerProfiles, mandates, payouts, users } from "../db/schema.ts";
import { instalmentsOf } from "../loan-account/account.server.ts";
import type { MandateOrder } from "./provider.server.ts";
import { lockLiveMandate, lockOwnLoan, type Mandate, newMandateReference, registering } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "log" | "keyring" | "mandates">;

/** An application may have autopay set up from its signature until its disbursal; a loan while it is active. */
const BEFORE_DISBURSAL = new Set(["signed", "under_review", "approved"]);

export type StartMandateResult =
  | { ok: true; authUrl: string }
  | { ok: false; reason: "not_found" | "not_open" | "not_offered" | "already_active" | "being_set_up" | "no_account" | "provider_silent" };

export async function startMandate(
  services: Services,
  {
    userId,
    loan,
    client,
    origin,
  }: {
    userId: string;
    /** The active loan by its number, or the application (before disbursal) by its reference. */
    loan: { loanNumber: string } | { reference: string };
    client: Client;
    origin: string;
  },
): Promise<StartMandateResult> {
  const provider = services.mandates;
  const at = services.now();
  type Prepared =
    | Extract<StartMandateResult, { ok: false }>
    | { ok: true; resume: string }
    | { ok: true; resume: null; mandate: Mandate; order: MandateOrder };
  const prepared = await services.db.transaction(async (tx): Promise<Prepared> => {
    const a = await lockOwnLoan({ db: tx }, { userId, ...loan });
    if (!a) return { ok: false, reason: "not_found" };
    if ("loanNumber" in loan ? a.status !== "active" : !BEFORE_DISBURSAL.has(a.status)) return { ok: false, reason: "not_open" };
    if (!provider) return { ok: false, reason: "not_offered" };
    const live = await lockLiveMandate({ db: tx }, a.id);
    if (live?.status === "pending" && live.authUrl) return { ok: true, resume: live.authUrl };
    if (live && registering(live, at)) return { ok: false, reason: "being_set_up" };
    if (live?.status === "pending" && !live.providerMandateId) {
      // Cut off while it was being registered (a process stopped): given up, and a new one made.
      await giveUp({ db: tx }, live, at);
    } else if (live) return { ok: false, reason: "already_active" };
    // The account the loan was paid into; for a loan from before payouts were recorded, the verified Bank section's.
    const [paidInto] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.applicationId, a.id), eq(payouts.purpose, "disbursal"), eq(payouts.status, "processed")));
    const [verified] = paidInto
      ? []
      : await tx
          .select()
          .from(borrowerBankAccounts)
          .where(and(eq(borrowerBankAccounts.userId, userId), isNotNull(borrowerBankAccounts.verifiedAt)));
    const account = paidInto ?? verified;
    // The schedule fixed at disbursal; before it, the signed KFS's.
    const signed = a.disbursalDate ? null : await signedTerms({ ...services, db: tx }, a);
    const schedule = a.disbursalDate
      ? await instalmentsOf({ db: tx }, a.id)
      : signed?.input
        ? loanSchedule(signed.input, signed.input.assumedDisbursalDate)
        : [];
    const last = schedule.at(-1);
    if (!account || !last) return { ok: false, reason: "no_account" };
    const terms = mandateTerms({
      instalmentPaise: Math.max(...schedule.map((i) => i.principalPaise + i.interestPaise)),
      lastDueDate: last.dueDate,
      today: todayIST(at),
    });
    const [m] = await tx
      .insert(mandates)
      .values({
        reference: newMandateReference(),
        applicationId: a.id,
        userId,
        provider: provider.name,
        ...terms,
        status: "pending",
        holderName: account.holderName,
        accountMasked: account.accountMasked,
        ifsc: account.ifsc,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!m) throw new Error("the mandate was not stored");
    await audit(
      { db: tx },
      {
        by: { id: userId, role: "borrower" },
        client,
        at,
        action: "mandate.started",
        subject: applicationSubject(a.id),
        details: { reference: m.reference, kind: m.kind, maxAmountPaise: m.maxAmountPaise, endDate: m.endDate },
      },
    );
    const [person] = await tx
      .select({ name: borrowerProfiles.fullName, mobile: users.mobile, email: borrowerProfiles.email })
      .from(users)
      .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
      .where(eq(users.id, userId));
    return {
      ok: true,
      resume: null,
      mandate: m,
      order: {
        reference: m.reference,
        kind: m.kind,
        maxAmountPaise: m.maxAmountPaise,
        startDate: m.startDate,
        endDate: m.endDate,
        account: { holderName: account.holderName, accountNumber: decrypt(services.keyring, account.accountNumberEnc), ifsc: account.ifsc },
        customer: { name: person?.name ?? "Borrower", mobile: person?.mobile ?? "", email: person?.email ?? null },
        description: a.loanNumber
          ? `Autopay for ${KIND_NAME[a.product]} ${a.loanNumber}`
          : `Autopay for ${KIND_NAME[a.product]} application ${shortReference(a.reference)}`,
        callbackUrl: `${origin}/api/mandates/${provider.name}/return`,
      },
    };
  });
  if (!prepared.ok) return prepared;
  if (prepared.resume !== null) return { ok: true, authUrl: prepared.resume };
  if (!provider) return { ok: false, reason: "not_offered" };
  let session;
  try {
    session = await provider.create(prepared.order);
  } catch (error) {
    services.log.warn({ err: error, reference: prepared.mandate.reference }, "the mandate provider did not take the mandate");
    await services.db.transaction(async (tx) => {
      const [m] = await tx.select().from(mandates).where(eq(mandates.id, prepared.mandate.id)).for("update");
      if (m?.status === "pending") await giveUp({ db: tx }, m, services.now());
    });
    return { ok: false, reason: "provider_silent" };
  }
  // Only a mandate still pending gets its id: one cancelled meanwhile is cancelled at the provider too.
  const stored = await services.db
    .update(mandates)
    .set({ providerMandateId: session.providerMandateId, authUrl: session.authUrl, updatedAt: services.now() })
    .where(and(eq(mandates.id, prepared.mandate.id), eq(mandates.status, "pending")))
    .returning({ id: mandates.id });
  if (stored.length) return { ok: true, authUrl: session.authUrl };
  await provider.cancel(session.providerMandateId).catch((error: unknown) => {
    services.log.error(
      { err: error, providerMandateId: session.providerMandateId },
      "a mandate cancelled while it was registered is still at the provider",
    );
  });
  return { ok: false, reason: "not_open" };
}

/** A mandate whose registration never came back: rejected, with the reason, audited. */
async function giveUp({ db }: Pick<AppServices, "db">, m: Mandate, at: Date) {
  const reason = "The autopay service could not be reached";
  await db.update(mandates).set({ status: "rejected", reason, endedAt: at, updatedAt: at }).where(eq(mandates.id, m.id));
  await audit(
    { db },
    {
      by: "system",
      at,
      action: "mandate.rejected",
      subject: applicationSubject(m.applicationId),
      details: { reference: m.reference, reason },
    },
  );
}
