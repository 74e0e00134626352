/**
 * Staff servicing (docs/product.md "Loan servicing"): a penal charge waived with the reason, with
 * the loan locked, audited.
 */
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanLedger } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { businessToday, lockLoan } from "../loan-account/account.server.ts";
import { afterLedgerChange } from "../loan-account/ledger-change.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** A penal charge waived, with the reason (it leaves the replay; what paid it goes to the dues). */
export async function waivePenal(
  services: Services,
  { staff, client, loanNumber, penalId, reason }: { staff: Staff; client: Client; loanNumber: string; penalId: string; reason: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const [penal] = await tx
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.id, penalId), eq(loanLedger.applicationId, a.id), eq(loanLedger.kind, "penal")));
    if (!penal) return { ok: false, reason: "not_found" };
    const inserted = await tx
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "penal_waiver",
        principalPaise: 0,
        amountPaise: penal.amountPaise,
        businessDate: businessToday(services),
        refId: penal.id,
        seq: penal.seq,
        actorUserId: staff.id,
        details: { reason },
        recordedAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: loanLedger.id });
    if (inserted.length === 0) return { ok: false, reason: "already_undone" };
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "penal.waived",
        subject: applicationSubject(a.id),
        details: { penalId, seq: penal.seq, amountPaise: penal.amountPaise, reason },
      },
    );
    await afterLedgerChange({ ...services, db: tx }, { application: a, at });
    return { ok: true, message: `The ${formatRupees(penal.amountPaise)} charge is waived.` };
  });
}
