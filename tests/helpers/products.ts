/**
 * The EMI product's form on /admin/products as an administrator sends it, with the defaults'
 * values and `changes` made (a field given as undefined is left out: a checkbox not ticked).
 */
export function emiProductForm(changes: Record<string, string | undefined> = {}): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    intent: "emi",
    minAmount: "10000",
    maxAmount: "500000",
    amountStep: "1000",
    minTenure: "3",
    maxTenure: "36",
    rate: "18",
    fee: "2",
    minFee: "500",
    gst: "18",
    penalCharge: "500",
    coolingOffDays: "3",
    autopayBeforeDisbursal: "on",
    note: "Quarterly review of the EMI loan",
    ...changes,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
