// The borrowers a staff search term names, shared by the application queue and borrower search.
import { inArray, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { normalizeIndianMobile } from "../../domain/validators/mobile.ts";

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The people `term` names, as a condition on a user id column: by mobile (with or without +91),
 * the PAN's last 4, or part of the name (a term with a digit is never a name). Each is looked up
 * once in its own table, so nothing is joined before a page is cut. Undefined when it names none.
 */
export function peopleNamedBy(userId: AnyPgColumn, term: string): SQL | undefined {
  const conditions: SQL[] = [];
  const mobile = normalizeIndianMobile(term);
  if (mobile) conditions.push(inArray(userId, sql`(select u.id from users u where u.mobile = ${mobile})`));
  const people: SQL[] = [];
  if (/^[0-9a-z]{4}$/i.test(term)) people.push(sql`right(p.pan_masked, 4) = ${term.toUpperCase()}`);
  if (term.length >= 2 && !/\d/.test(term)) people.push(sql`p.full_name ilike ${`%${escapeLike(term)}%`}`);
  if (people.length)
    conditions.push(inArray(userId, sql`(select p.user_id from borrower_profiles p where ${sql.join(people, sql` or `)})`));
  return conditions.length ? or(...conditions) : undefined;
}
