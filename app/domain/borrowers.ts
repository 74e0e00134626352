import { maskMobile } from "./validators/mobile.ts";

/** Borrower search (docs/product.md "Borrowers"): rows a page. */
export const BORROWER_PAGE_SIZE = 25;

/**
 * How every staff page names a borrower: the full name of their KYC profile (what their PAN and
 * agreement carry), else their mobile number with a word that no name is given yet. Never the
 * account's own name (Facebook's, or a sample's): two pages must not name one person two ways.
 * `masked` shows only the mobile's last 4 (the audit log).
 */
export function staffBorrowerName(
  person: { fullName?: string | null; mobile?: string | null },
  { masked = false }: { masked?: boolean } = {},
): string {
  const name = person.fullName?.trim();
  if (name) return name;
  if (person.mobile) return `No name yet, ${masked ? maskMobile(person.mobile) : `+91 ${person.mobile}`}`;
  return "No name or mobile yet";
}
