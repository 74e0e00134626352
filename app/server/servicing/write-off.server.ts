/**
 * Staff servicing (docs/product.md "Loan servicing"): an administrator writes off a loan at least
 * 180 days past due, with the loan locked, audited.
 */
import type { AppServices, Client } from "../../context.ts";
import { replay } from "../../domain/loans/servicing.ts";
import { WRITE_OFF_AFTER_DPD, type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { loanLedger } from "../db/schema.ts";
import { bookLoan } from "../books/book-loan.server.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { businessToday, ledgerOf, lockLoan, termsOf } from "../loan-account/account.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** An administrator writes off a loan at least 180 days past due. */
export async function writeOff(
  services: Services,
  { staff, client, loanNumber, reason }: { staff: Staff; client: Client; loanNumber: string; reason: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status !== "active") return { ok: false, reason: "not_open" };
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return { ok: false, reason: "not_found" };
    const state = replay(found.terms, (await ledgerOf({ db: tx }, a.id)).events, businessToday(services));
    if (state.dpd < WRITE_OFF_AFTER_DPD) return { ok: false, reason: "too_early" };
    await changeStatus(
      { ...services, db: tx },
      {
        application: a,
        to: "written_off",
        by: { actor: staff.role, actorUserId: staff.id, reason, ip: client.ip, userAgent: client.userAgent },
        at,
        details: { dpd: state.dpd, outstandingPrincipalPaise: state.outstandingPrincipalPaise },
      },
    );
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "write_off",
      principalPaise: 0,
      amountPaise: state.outstandingPrincipalPaise,
      businessDate: businessToday(services),
      actorUserId: staff.id,
      details: { reason, dpd: state.dpd, overduePaise: state.overduePaise, penalDuePaise: state.penalDuePaise },
      recordedAt: at,
    });
    // Its journal: against the provision held for the loan, the rest to expense.
    await bookLoan({ ...services, db: tx }, { applicationId: a.id });
    return { ok: true, message: `Written off with ${formatRupees(state.outstandingPrincipalPaise)} of principal outstanding.` };
  });
}
