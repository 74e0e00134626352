/**
 * Staff servicing (docs/product.md "Loan servicing"): a payment the gateway held (its amount
 * differed from the order) applied for what was received, with the loan locked, audited.
 */
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { payments } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { lockLoan, lockPayment } from "../loan-account/account.server.ts";
import { paymentApplied, paymentEntry } from "../loan-account/ledger-change.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

export async function releaseHeldPayment(
  services: Services,
  { staff, client, loanNumber, paymentRef }: { staff: Staff; client: Client; loanNumber: string; paymentRef: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const p = await lockPayment({ db: tx }, { applicationId: a.id, reference: paymentRef });
    if (!p || p.status !== "held" || !p.receivedPaise || !p.businessDate) return { ok: false, reason: "not_held" };
    // An autopay debit taken after the write-off is the borrower's money, never a recovery: it is returned.
    if (a.status === "written_off" && p.mode === "autopay") return { ok: false, reason: "late_debit" };
    await tx.update(payments).set({ status: "captured", amountPaise: p.receivedPaise, updatedAt: at }).where(eq(payments.id, p.id));
    await paymentEntry(
      { db: tx },
      {
        applicationId: a.id,
        payment: { ...p, amountPaise: p.receivedPaise },
        details: { released: true, orderedPaise: p.amountPaise },
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
        action: "payment.released",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, orderedPaise: p.amountPaise, receivedPaise: p.receivedPaise },
      },
    );
    await paymentApplied(
      { ...services, db: tx },
      { application: a, payment: { id: p.id, amountPaise: p.receivedPaise, businessDate: p.businessDate }, at },
    );
    return { ok: true, message: `${formatRupees(p.receivedPaise)} applied to the loan.` };
  });
}
