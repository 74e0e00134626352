/**
 * Money helpers. Every amount inside the program is an integer number of paise
 * (PRODUCT.md §2); rates are integer basis points (1850 = 18.5%).
 *
 * Rounding approach: all divisions of money go through {@link divHalfUp} /
 * {@link mulDivHalfUp}, which work on integers only. For integers within
 * Number.MAX_SAFE_INTEGER, `%` and the division of `n − n % d` by `d` are both
 * exact in IEEE-754 doubles, so the quotient and remainder are exact and the
 * half-up decision (2·|remainder| ≥ |divisor|) is exact too. When a product of
 * two factors could exceed 2^53 the computation moves to BigInt. No rounding
 * step ever looks at a binary fraction such as 0.1.
 *
 * "Half-up" means half away from zero (17.245 → 17.25, −17.245 → −17.25):
 * money in this product is never negative, so it is the commercial rounding.
 */

/** Thrown for a malformed amount or percentage. */
export class MoneyFormatError extends RangeError {
  override name = "MoneyFormatError";
}

function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

/**
 * numerator ÷ denominator rounded half away from zero; both integers, exact.
 * divHalfUp(5, 2) = 3, divHalfUp(249, 100) = 2, divHalfUp(-5, 2) = -3.
 */
export function divHalfUp(numerator: number, denominator: number): number {
  assertSafeInteger(numerator, "numerator");
  assertSafeInteger(denominator, "denominator");
  if (denominator === 0) throw new RangeError("division by zero");
  const remainder = numerator % denominator; // exact; takes the sign of the numerator
  const quotient = (numerator - remainder) / denominator; // exact: an integer result
  if (2 * Math.abs(remainder) >= Math.abs(denominator)) {
    return quotient + (numerator < 0 !== denominator < 0 ? -1 : 1);
  }
  return quotient + 0; // + 0 turns −0 into 0
}

/** The same rounding on BigInts. */
export function divHalfUpBig(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator;
  const absRem = remainder < 0n ? -remainder : remainder;
  const absDen = denominator < 0n ? -denominator : denominator;
  if (2n * absRem >= absDen) return quotient + (numerator < 0n !== denominator < 0n ? -1n : 1n);
  return quotient;
}

/**
 * a × b ÷ d rounded half away from zero, exact for any safe integers: in
 * doubles when a × b stays below 2^53, otherwise in BigInt.
 */
export function mulDivHalfUp(a: number, b: number, d: number): number {
  assertSafeInteger(a, "factor");
  assertSafeInteger(b, "factor");
  const product = a * b;
  if (Number.isSafeInteger(product)) return divHalfUp(product, d);
  assertSafeInteger(d, "denominator");
  const result = divHalfUpBig(BigInt(a) * BigInt(b), BigInt(d));
  const n = Number(result);
  if (!Number.isSafeInteger(n)) throw new RangeError("result is beyond the safe integer range");
  return n;
}

/**
 * A real number rounded half away from zero to an integer. For values that
 * come out of floating-point formulas (the EMI); exact on the double it is
 * given (no `Math.floor(x + 0.5)` trap at 0.49999999999999994).
 */
export function roundHalfUp(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`cannot round ${value}`);
  const a = Math.abs(value);
  const f = Math.floor(a);
  const r = a - f >= 0.5 ? f + 1 : f;
  return value < 0 ? -r : r + 0;
}

// ---- parsing ------------------------------------------------------------------------------

/**
 * Parses a decimal with at most `scale` fractional digits into an integer
 * count of 10^-scale units, digit by digit (no float arithmetic). Accepts an
 * optional sign; returns null for anything else.
 */
function parseScaled(text: string, scale: number): number | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const [, sign = "", whole = "", fraction = ""] = m;
  if (whole === "" && fraction === "") return null;
  if (fraction.length > scale) {
    // Trailing zeros beyond the scale are harmless: "17.250" is 17.25.
    if (/[^0]/.test(fraction.slice(scale))) return null;
  }
  const digits = (whole === "" ? "0" : whole) + fraction.slice(0, scale).padEnd(scale, "0");
  const value = Number(digits.replace(/^0+(?=\d)/, ""));
  if (!Number.isSafeInteger(value)) return null;
  return sign === "-" && value !== 0 ? -value : value;
}

function scaledFromInput(input: string | number, scale: number, what: string, cleanup: RegExp): number {
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) throw new MoneyFormatError(`${what} must be a finite number, got ${input}`);
    // The shortest round-trip decimal of the double ("17.25" for 17.25); a
    // number such as 0.1 + 0.2 has more decimals than allowed and is refused.
    text = String(input);
    if (/e/i.test(text)) throw new MoneyFormatError(`${what} ${text} has too many digits`);
  } else {
    text = input.replace(cleanup, "");
  }
  const value = parseScaled(text, scale);
  if (value === null) throw new MoneyFormatError(`${what} "${String(input)}" is not a number with at most ${scale} decimals`);
  return value;
}

/**
 * Rupees (a string as typed, or a number) with up to two decimals → integer
 * paise, exactly: "1,00,000.5" → 10000050, "17.25" → 1725, 17.25 → 1725.
 * Strings may carry Indian or western grouping commas, spaces and a leading ₹.
 * Throws MoneyFormatError for anything else (three decimals, letters, 1e3, NaN).
 */
export function rupeesToPaise(input: string | number): number {
  return scaledFromInput(input, 2, "amount", /[,\s₹]/g);
}

/** Like {@link rupeesToPaise}, but null instead of throwing. */
export function tryRupeesToPaise(input: string | number): number | null {
  try {
    return rupeesToPaise(input);
  } catch (error) {
    if (error instanceof MoneyFormatError) return null;
    throw error;
  }
}

/** A percentage with up to two decimals → basis points, exactly: "18.5" → 1850, 0.08 → 8. */
export function percentToBps(input: string | number): number {
  return scaledFromInput(input, 2, "percentage", /[\s%]/g);
}

/** Like {@link percentToBps}, but null instead of throwing. */
export function tryPercentToBps(input: string | number): number | null {
  try {
    return percentToBps(input);
  } catch (error) {
    if (error instanceof MoneyFormatError) return null;
    throw error;
  }
}

// ---- printing -----------------------------------------------------------------------------

function scaledToString(value: number, scale: number, trimZeros: boolean): string {
  assertSafeInteger(value, "value");
  const negative = value < 0;
  const digits = String(Math.abs(value)).padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale);
  if (trimZeros) fraction = fraction.replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Paise → a plain rupee string with two decimals, exactly: 1725 → "17.25", 10000000 → "100000.00". */
export function paiseToRupeesString(paise: number): string {
  return scaledToString(paise, 2, false);
}

/** Basis points → percent without needless zeros, exactly: 1850 → "18.5", 8 → "0.08", 1800 → "18". */
export function bpsToPercentString(bps: number): string {
  return scaledToString(bps, 2, true);
}

/** Basis points → percent as a number (1850 → 18.5), for JSON and display. */
export function bpsToPercent(bps: number): number {
  return Number(bpsToPercentString(bps));
}

type NumericString = `${number}`;

const inrWithPaise = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const inrWholeRupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/**
 * Paise as rupees with Indian grouping and two decimals: 10000000 → "₹1,00,000.00".
 * The exact decimal string is handed to Intl (it formats numeric strings
 * without going through a double), so no amount is ever off by a paisa.
 */
export function formatINR(paise: number): string {
  return inrWithPaise.format(paiseToRupeesString(paise) as NumericString);
}

/**
 * Like {@link formatINR} but without ".00" for whole rupees: 10000000 →
 * "₹1,00,000", 1725 → "₹17.25". The form used in sentences and headlines.
 */
export function formatINRShort(paise: number): string {
  if (paise % 100 !== 0) return formatINR(paise);
  return inrWholeRupees.format(String(paise / 100) as NumericString);
}
