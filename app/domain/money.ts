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

/** Rupees with up to two decimals, as typed ("1,00,000.50" is accepted) → integer paise. */
export function parseRupeesToPaise(input: string): number | null {
  const s = input.replace(/[,\s₹]/g, "");
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const rupees = Number(m[1]);
  const paise = Number(((m[2] ?? "") + "00").slice(0, 2));
  return rupees * 100 + paise;
}
