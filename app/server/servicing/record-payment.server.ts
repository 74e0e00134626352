/**
 * Staff servicing (docs/product.md "Loan servicing"): money received outside the gateway, recorded
 * on the loan's ledger with the loan locked, audited, and the borrower told.
 */
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { longDate } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { receivableOn, type OfflineMode, type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { payments } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { businessToday, lockLoan } from "../loan-account/account.server.ts";
import { paymentApplied, storeReceivedPayment } from "../loan-account/ledger-change.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** Money received outside the gateway (NEFT to the lender's account, a cheque, cash at a branch), on the date it was received. */
export async function recordOfflinePayment(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    amountPaise,
    date,
    mode,
    reference,
  }: { staff: Staff; client: Client; loanNumber: string; amountPaise: number; date: IsoDate; mode: OfflineMode; reference: string },
): Promise<StaffResult> {
  const at = services.now();
  const today = businessToday(services);
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    // A written-off loan still takes money received: a recovery (docs/product.md "The lender's books").
    if (a.status !== "active" && a.status !== "closed" && a.status !== "written_off") return { ok: false, reason: "not_open" };
    if (!receivableOn(date, a.disbursalDate as string, today)) return { ok: false, reason: "bad_date" };
    const [dup] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.provider, "offline"), eq(payments.providerPaymentId, reference)));
    if (dup) return { ok: false, reason: "duplicate_reference" };
    const p = await storeReceivedPayment(
      { db: tx },
      {
        application: a,
        payment: {
          provider: "offline",
          purpose: "offline",
          amountPaise,
          providerPaymentId: reference,
          paidAt: at,
          businessDate: date,
          mode,
          recordedBy: staff.id,
        },
        details: { mode, bankReference: reference },
        actorUserId: staff.id,
        at,
      },
    );
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payment.recorded",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, amountPaise, date, mode, bankReference: reference, recovery: a.status === "written_off" },
      },
    );
    await paymentApplied({ ...services, db: tx }, { application: a, payment: { id: p.id, amountPaise, businessDate: date }, at });
    return {
      ok: true,
      message:
        a.status === "written_off"
          ? `${formatRupees(amountPaise)} recorded as a recovery on the written-off loan, received on ${longDate(date)}.`
          : `${formatRupees(amountPaise)} recorded as received on ${longDate(date)}.`,
    };
  });
}
