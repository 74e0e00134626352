// Short random references for records a person reads out or quotes (a data-rights request, a breach,
// a suspicious-transaction report): a prefix and 8 characters of Crockford's base 32 (no I, L, O or
// U), about 10^12 of them; the table's unique constraint refuses the rare repeat.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function randomReference(prefix: "DR" | "BR" | "STR"): string {
  const bytes = randomBytes(8);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 32];
  return `${prefix}-${out}`;
}
