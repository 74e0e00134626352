import { type IsoDate, processingFee } from "../../domain/loan-math.ts";
import type { KfsInput } from "../../domain/loans/kfs.ts";
import type { AppServices } from "../../context.ts";
import type { Instalment } from "../../domain/loans/disbursal.ts";
import { eq } from "drizzle-orm";
import { loanAccounts, loanInstalments, loanLedger } from "../db/schema.ts";

/**
 * A loan disbursed (the payout's answer, the demo's loans): its schedule fixed (replacing one an
 * earlier disbursal fixed), its account opened and the disbursal's entry in its ledger, in the
 * caller's transaction.
 */
export async function openLoan(
  { db }: Pick<AppServices, "db">,
  {
    applicationId,
    input,
    disbursalDate,
    schedule,
    disbursal,
    at,
  }: {
    applicationId: string;
    input: Parameters<typeof openAccount>[1]["input"];
    disbursalDate: IsoDate;
    schedule: readonly Instalment[];
    /** The disbursal's entry: the payout that paid it (none for the demo), what it says, and when it was recorded. */
    disbursal: { payoutId: string | null; details: Record<string, unknown>; recordedAt: Date };
    at: Date;
  },
) {
  await db.delete(loanInstalments).where(eq(loanInstalments.applicationId, applicationId));
  await db.insert(loanInstalments).values(schedule.map((i) => ({ applicationId, ...i })));
  await openAccount({ db }, { applicationId, input, disbursalDate, at });
  await db.insert(loanLedger).values({
    applicationId,
    kind: "disbursal",
    principalPaise: input.amountPaise,
    businessDate: disbursalDate,
    payoutId: disbursal.payoutId,
    details: disbursal.details,
    recordedAt: disbursal.recordedAt,
  });
}

/** The servicing terms of a loan disbursed on `disbursalDate` under the signed terms (written at activation). */
export async function openAccount(
  { db }: Pick<AppServices, "db">,
  {
    applicationId,
    input,
    disbursalDate,
    at,
  }: {
    applicationId: string;
    input: Pick<KfsInput, "kind" | "amountPaise" | "rateBps" | "penalChargePaise" | "coolingOffDays" | "fees">;
    disbursalDate: IsoDate;
    at: Date;
  },
) {
  const terms = {
    kind: input.kind,
    principalPaise: input.amountPaise,
    netDisbursedPaise: input.amountPaise - processingFee(input.amountPaise, input.fees).totalUpfrontPaise,
    rateBps: input.rateBps,
    penalPaise: input.penalChargePaise,
    coolingOffDays: input.coolingOffDays,
    disbursalDate,
  };
  await db
    .insert(loanAccounts)
    .values({
      applicationId,
      ...terms,
      asOf: disbursalDate,
      outstandingPrincipalPaise: input.amountPaise,
      overduePaise: 0,
      penalDuePaise: 0,
      dpd: 0,
      nextDueDate: null,
      nextDuePaise: null,
      advancePaise: 0,
      refundDuePaise: 0,
      settledOn: null,
      updatedAt: at,
    })
    .onConflictDoUpdate({ target: loanAccounts.applicationId, set: { ...terms, settledOn: null, updatedAt: at } });
}
