const wholeRupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const withPaise = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 });

/** ₹1,00,000 for whole rupees, ₹17.25 otherwise (Indian grouping). */
export function formatRupees(paise: number): string {
  return paise % 100 === 0 ? wholeRupees.format(paise / 100) : withPaise.format(paise / 100);
}

const plainWhole = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const plainPaise = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1,00,000 or 17.25: for a table whose column heading says "(₹)". */
export function formatRupeesPlain(paise: number): string {
  return paise % 100 === 0 ? plainWhole.format(paise / 100) : plainPaise.format(paise / 100);
}
