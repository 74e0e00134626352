/**
 * Indian mobile numbers: 10 digits starting 6–9, optionally written with a
 * +91 / 91 / 0 prefix and spaces or hyphens. Returns the 10-digit form or null.
 */
export function normalizeIndianMobile(input: string): string | null {
  const compact = input.replace(/[\s-]/g, "");
  const match = /^(?:\+91|91|0)?([6-9]\d{9})$/.exec(compact);
  return match ? (match[1] ?? null) : null;
}

export const INDIAN_MOBILE_MESSAGE = "Enter a valid 10-digit Indian mobile number, starting with 6, 7, 8 or 9.";

/** A mobile number as shown and logged: only its last 4 digits ("XXXXXX3210"). */
export const maskMobile = (mobile: string | null | undefined) => (mobile ? `XXXXXX${mobile.slice(-4)}` : "");
