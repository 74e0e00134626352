/**
 * Identity validators (docs/product.md "KYC profile"), pure and browser-safe. Each returns
 * null when the value is acceptable, else a message for the field: a key of the catalogue's
 * `validation` namespace (app/i18n/form-message.ts), said in the page's language where it is shown.
 */
import { msg } from "../../i18n/form-message.ts";

/** PAN: AAAAA9999A, 4th letter P for an individual, number part not 0000. */
export function panProblem(input: string): string | null {
  const pan = input.trim().toUpperCase();
  if (!/^[A-Z]{5}\d{4}[A-Z]$/.test(pan)) return msg("validation.pan.format");
  if (pan[3] !== "P") return msg("validation.pan.notPersonal");
  if (pan.slice(5, 9) === "0000") return msg("validation.pan.zeros");
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
  if (!/^\d{12}$/.test(digits)) return msg("validation.aadhaar.digits");
  if (digits[0] === "0" || digits[0] === "1") return msg("validation.aadhaar.firstDigit");
  if (!verhoeffValid(digits)) return msg("validation.aadhaar.checksum");
  return null;
}
export const aadhaarLast4 = (input: string) => input.replace(/\s/g, "").slice(-4);

/** IFSC format: 4 letters, 0, then 6 letters or digits (existence is checked on the server). */
export function ifscFormatProblem(input: string): string | null {
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(input.trim().toUpperCase()) ? null : msg("validation.ifsc.format");
}

/** PIN code format: 6 digits, first 1–9 (existence is checked on the server). */
export function pinFormatProblem(input: string): string | null {
  return /^[1-9]\d{5}$/.test(input.trim()) ? null : msg("validation.pinCode.format");
}

/** A person's name: letters and spaces (with . ' - inside), 2–100 characters. */
export function nameProblem(input: string): string | null {
  const name = input.trim().replace(/\s+/g, " ");
  if (name.length < 2) return msg("validation.name.tooShort");
  if (name.length > 100) return msg("validation.name.tooLong");
  if (!/^\p{L}[\p{L}\p{M} .'-]*$/u.test(name)) return msg("validation.name.letters");
  return null;
}

/** Date of birth: a real date, age from `minAge` to `maxAge` on `today` (both "YYYY-MM-DD"). */
export function dobProblem(input: string, today: string, minAge = 21, maxAge = 60): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.trim());
  if (!m) return msg("validation.dateOfBirth.missing");
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return msg("validation.dateOfBirth.noSuchDate");
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const age = ty - y - (tm < mo || (tm === mo && td < d) ? 1 : 0);
  if (age < minAge) return msg("validation.dateOfBirth.tooYoung", { min: String(minAge) });
  if (age > maxAge) return msg("validation.dateOfBirth.tooOld", { max: String(maxAge) });
  return null;
}
