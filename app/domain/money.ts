const wholeRupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const withPaise = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 });

/** "1,23,45,678": a whole number's digits in Indian grouping (the last three, then pairs). */
function indianDigits(whole: number): string {
  const digits = String(whole);
  if (digits.length <= 3) return digits;
  let grouped = digits.slice(-3);
  for (let end = digits.length - 3; end > 0; end -= 2) grouped = `${digits.slice(Math.max(0, end - 2), end)},${grouped}`;
  return grouped;
}

// ₹1,000 crore (1e10 rupees), in paise: below it the rupees as a binary fraction round to the same two decimals.
const LARGEST_WRITTEN_OUT = 1e12;

/**
 * ₹1,00,000 for whole rupees, ₹17.25 otherwise (Indian grouping): what Intl's en-IN rupee format
 * says (tests/unit/money.test.ts compares them), written out here for integer paise because a page
 * shows dozens of amounts and Intl takes a microsecond or two for each.
 */
export function formatRupees(paise: number): string {
  // Past ₹1,000 crore Intl's own figure (of the rupees as a binary fraction) is what was said before.
  if (!Number.isInteger(paise) || Math.abs(paise) > LARGEST_WRITTEN_OUT || Object.is(paise, -0)) {
    return paise % 100 === 0 ? wholeRupees.format(paise / 100) : withPaise.format(paise / 100);
  }
  const abs = Math.abs(paise);
  const rest = abs % 100;
  const amount = `₹${indianDigits((abs - rest) / 100)}${rest === 0 ? "" : rest < 10 ? `.0${rest}` : `.${rest}`}`;
  return paise < 0 ? `-${amount}` : amount;
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
