/**
 * Settling a written-off loan (docs/product.md "Credit bureau reporting"): an administrator accepts
 * the recoveries received since the write-off as full and final. No money moves (each recovery was
 * booked as it came); the loan is reported to the bureaus as settled after write-off from then on.
 */
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { writeOffSettlements } from "../db/schema.ts";
import { businessToday, ledgerOf, lockLoan } from "../loan-account/account.server.ts";

type Services = Pick<AppServices, "db" | "now">;

export async function settleWrittenOff(
  services: Services,
  { staff, client, loanNumber, reason }: { staff: { id: string; role: string }; client: Client; loanNumber: string; reason: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status !== "written_off") return { ok: false, reason: "not_written_off" };
    const [done] = await tx.select().from(writeOffSettlements).where(eq(writeOffSettlements.applicationId, a.id));
    if (done) return { ok: false, reason: "settled_already" };
    const { rows } = await ledgerOf({ db: tx }, a.id);
    const writeOff = rows.find((r) => r.kind === "write_off");
    if (!writeOff) return { ok: false, reason: "not_written_off" };
    // Recoveries: the payments recorded after the write-off and not reversed.
    const reversed = new Set(rows.filter((r) => r.kind === "payment_reversal").map((r) => r.refId));
    const recovered = rows
      .filter((r) => r.kind === "payment" && r.entryNo > writeOff.entryNo && !reversed.has(r.id))
      .reduce((s, r) => s + r.amountPaise, 0);
    if (recovered <= 0) return { ok: false, reason: "no_recoveries" };
    const settledOn = businessToday(services);
    await tx
      .insert(writeOffSettlements)
      .values({ applicationId: a.id, settledOn, amountPaise: recovered, reason, recordedBy: staff.id, recordedAt: at });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "loan.settle_written_off",
        subject: applicationSubject(a.id),
        details: { loanNumber, amountPaise: recovered, reason },
      },
    );
    return {
      ok: true,
      message: `Settled: the ${formatRupees(recovered)} recovered is accepted as full and final, and the bureaus are told so in the next file.`,
    };
  });
}
