/**
 * Identity validators (docs/product.md "KYC profile"), pure and browser-safe. Each returns
 * null when the value is acceptable, else a message for the field.
 */

/** PAN: AAAAA9999A, 4th letter P for an individual, number part not 0000. */
export function panProblem(input: string): string | null {
  const pan = input.trim().toUpperCase();
  if (!/^[A-Z]{5}\d{4}[A-Z]$/.test(pan)) return "Enter your 10-character PAN, like ABCPE1234F (5 letters, 4 digits, 1 letter).";
  if (pan[3] !== "P") return "This is not a personal PAN: its 4th letter must be P.";
  if (pan.slice(5, 9) === "0000") return "This PAN is not valid: its digits cannot be 0000.";
  return null;
}
export const normalizePan = (input: string) => input.trim().toUpperCase();

// Verhoeff checksum tables.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** True when the digit string passes the Verhoeff check (its last digit is the check digit). */
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  const reversed = digits.split("").reverse();
  for (let i = 0; i < reversed.length; i++) {
    c = (D[c] as number[])[(P[i % 8] as number[])[Number(reversed[i])] as number] as number;
  }
  return c === 0;
}

/** Aadhaar: 12 digits, first 2–9, Verhoeff checksum. Spaces allowed when typed. */
export function aadhaarProblem(input: string): string | null {
  const digits = input.replace(/\s/g, "");
  if (!/^\d{12}$/.test(digits)) return "Enter the 12 digits of your Aadhaar number.";
  if (digits[0] === "0" || digits[0] === "1") return "An Aadhaar number cannot start with 0 or 1.";
  if (!verhoeffValid(digits)) return "This Aadhaar number is not valid. Check the digits.";
  return null;
}
export const aadhaarLast4 = (input: string) => input.replace(/\s/g, "").slice(-4);

/** IFSC format: 4 letters, 0, then 6 letters or digits (existence is checked on the server). */
export function ifscFormatProblem(input: string): string | null {
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(input.trim().toUpperCase())
    ? null
    : "Enter the 11-character IFSC, like SBIN0001234 (4 letters, 0, then 6 letters or digits).";
}

/** PIN code format: 6 digits, first 1–9 (existence is checked on the server). */
export function pinFormatProblem(input: string): string | null {
  return /^[1-9]\d{5}$/.test(input.trim()) ? null : "Enter the 6-digit PIN code; it cannot start with 0.";
}

/** A person's name: letters and spaces (with . ' - inside), 2–100 characters. */
export function nameProblem(input: string): string | null {
  const name = input.trim().replace(/\s+/g, " ");
  if (name.length < 2) return "Enter the full name (at least 2 letters).";
  if (name.length > 100) return "Keep the name under 100 characters.";
  if (!/^\p{L}[\p{L}\p{M} .'-]*$/u.test(name)) return "Use letters and spaces only.";
  return null;
}

/** Date of birth: a real date, age from `minAge` to `maxAge` on `today` (both "YYYY-MM-DD"). */
export function dobProblem(input: string, today: string, minAge = 21, maxAge = 60): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.trim());
  if (!m) return "Enter your date of birth.";
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return "This date does not exist.";
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const age = ty - y - (tm < mo || (tm === mo && td < d) ? 1 : 0);
  if (age < minAge) return `You must be at least ${minAge} years old.`;
  if (age > maxAge) return `You must be ${maxAge} or younger.`;
  return null;
}
