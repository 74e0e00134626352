import { type IsoDate, processingFee } from "../../domain/loan-math.ts";
import type { KfsInput } from "../../domain/loans/kfs.ts";
import type { AppServices } from "../../context.ts";
import { loanAccounts } from "../db/schema.ts";

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
  const fee = processingFee(input.amountPaise, input.fees);
  const terms = {
    kind: input.kind,
    principalPaise: input.amountPaise,
    netDisbursedPaise: input.amountPaise - fee.totalUpfrontPaise,
    rateBps: input.rateBps,
    penalPaise: input.penalChargePaise,
    coolingOffDays: input.coolingOffDays,
    disbursalDate,
    // The books: the fee and its GST as charged, accrual from the disbursal day (the framework and GST split are set when first booked).
    feePaise: fee.feePaise,
    feeGstPaise: fee.gstPaise,
    accruedThrough: disbursalDate,
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
    .onConflictDoUpdate({
      target: loanAccounts.applicationId,
      set: { ...terms, settledOn: null, npaSince: null, gstSplit: null, framework: null, updatedAt: at },
    });
}
