/**
 * What the mandate provider says (docs/product.md "Autopay"), applied once with the mandate
 * locked: pending becomes active (the bank confirmed it) or rejected; any live mandate may become
 * cancelled (at the bank, or by us through cancel.server.ts). A mandate that has ended stays ended,
 * whatever arrives late; a webhook delivered twice or racing the borrower's return changes nothing
 * a second time. The borrower's return is only a hint: the provider is asked before it is applied.
 */
import { isLiveMandate } from "../../domain/loans/mandate.ts";
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, mandates } from "../db/schema.ts";
import { DEBIT_CANCELLED } from "../../domain/loans/autopay.ts";
import { stepPath } from "../../domain/loans/application.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { applyDebitEvent, type DebitApplied } from "./debit-answer.server.ts";
import { cancelWaitingDebits } from "./debit-rows.server.ts";
import { noticeDebits } from "./notice.server.ts";
import type { MandateEvent } from "./provider.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates">;
export type MandateApplied = "active" | "rejected" | "cancelled" | "unchanged" | "unknown";

export async function applyMandateEvent(services: Services, event: MandateEvent): Promise<MandateApplied> {
  const provider = services.mandates;
  if (!provider) return "unknown";
  const at = services.now();
  // A mandate that ended here but that the provider says is active (approved at the bank after it
  // was cancelled here) is cancelled at the provider too, after the transaction.
  const ended: string[] = [];
  let applicationId: string | null = null;
  const applied = await services.db.transaction(async (tx): Promise<MandateApplied> => {
    const [m] = await tx
      .select()
      .from(mandates)
      .where(and(eq(mandates.provider, provider.name), eq(mandates.providerMandateId, event.providerMandateId)))
      .for("update");
    if (!m || (event.reference && event.reference !== m.reference)) {
      services.log.warn({ providerMandateId: event.providerMandateId }, "a mandate event for a mandate this application did not make");
      return "unknown";
    }
    const live = isLiveMandate(m.status);
    const to =
      m.status === "pending" && (event.state === "active" || event.state === "rejected")
        ? event.state
        : live && event.state === "cancelled"
          ? "cancelled"
          : null;
    if (!to) {
      if (!live && event.state === "active") ended.push(event.providerMandateId);
      return "unchanged";
    }
    const when = event.at ?? at;
    applicationId = m.applicationId;
    if (to === "cancelled") await cancelWaitingDebits({ db: tx }, { mandateId: m.id, reason: DEBIT_CANCELLED.mandateEnded, at });
    await tx
      .update(mandates)
      .set({
        status: to,
        ...(to === "active"
          ? { activatedAt: when }
          : { endedAt: when, reason: event.reason ?? (to === "cancelled" ? "Cancelled at the bank" : "Not approved at the bank") }),
        updatedAt: at,
      })
      .where(eq(mandates.id, m.id));
    await audit(
      { db: tx },
      {
        by: "system",
        at,
        action: `mandate.${to}`,
        subject: applicationSubject(m.applicationId),
        details: { reference: m.reference, provider: m.provider, reason: event.reason },
      },
    );
    return to;
  });
  // Active now: the instalments it can still pay in time are announced at once (not only at the next daily run).
  if (applied === "active" && applicationId)
    await noticeDebits(services, { day: businessToday(services), applicationIds: [applicationId] }).catch((error: unknown) => {
      services.log.error({ err: error, applicationId }, "the first autopay notices were not sent; the daily run sends them");
    });
  for (const id of ended) {
    services.log.warn({ providerMandateId: id }, "the provider says active a mandate that has ended here: cancelling it there");
    await provider.cancel(id).catch((error: unknown) => {
      services.log.error({ err: error, providerMandateId: id }, "a mandate that ended here is still active at the provider");
    });
  }
  return applied;
}

/** A provider's webhook: signature checked, then applied once. */
export async function receiveMandateWebhook(
  services: Services,
  rawBody: string,
  headers: Headers,
): Promise<MandateApplied | DebitApplied | "bad_signature" | "ignored"> {
  const provider = services.mandates;
  if (!provider) return "ignored";
  const event = provider.webhook(rawBody, headers);
  if (event === "bad_signature" || event === "ignored") return event;
  if ("debit" in event) return applyDebitEvent(services, event.debit);
  const applied = await applyMandateEvent(services, event);
  if (event.state !== "pending" || applied === "unknown") return applied;
  // An event that says only that something happened to one of ours (Razorpay's authorisation
  // payment) is a hint, like the borrower's return: the provider is asked, and its answer applied.
  try {
    return await applyMandateEvent(services, await provider.fetch(event.providerMandateId));
  } catch (error) {
    services.log.warn({ err: error, providerMandateId: event.providerMandateId }, "the mandate provider did not answer on a webhook");
    return applied;
  }
}

/**
 * The borrower back from the provider: the query's signature checked, the provider asked about the
 * mandate, what it says applied. Where to return the borrower (the loan's page, or the application's
 * before disbursal), with the mandate's status now; null for a return that is not the provider's.
 */
export async function returnFromMandate(services: Services, query: URLSearchParams) {
  const provider = services.mandates;
  if (!provider) return null;
  const hint = provider.callback(query);
  if (hint === "bad_signature" || hint === "ignored") return null;
  try {
    await applyMandateEvent(services, await provider.fetch(hint.providerMandateId));
  } catch (error) {
    services.log.warn({ err: error, providerMandateId: hint.providerMandateId }, "the mandate provider did not answer on the return");
  }
  const [row] = await services.db
    .select({
      status: mandates.status,
      loanNumber: loanApplications.loanNumber,
      product: loanApplications.product,
      reference: loanApplications.reference,
    })
    .from(mandates)
    .innerJoin(loanApplications, eq(loanApplications.id, mandates.applicationId))
    .where(and(eq(mandates.provider, provider.name), eq(mandates.providerMandateId, hint.providerMandateId)));
  if (!row) return null;
  // Back to the loan's page, or (set up before disbursal) to the application's.
  const page = row.loanNumber ? loanPath(row.product, row.loanNumber) : stepPath(row.product, row.reference, "Step7");
  return { path: `${page}#autopay-title`, status: row.status };
}
