/**
 * The generic form rules of the original specification §5, available to
 * every form: accepted, after, before, alpha, alpha with spaces,
 * alphanumeric, between, and `_confirm` twins.
 */

/** "yes", "on", "1" or "true" (a ticked consent box). */
export const accepted = (value: unknown) => typeof value === "string" && ["yes", "on", "1", "true"].includes(value.toLowerCase());

/** ISO dates compare as strings. */
export const isAfter = (date: string, other: string) => /^\d{4}-\d{2}-\d{2}/.test(date) && date > other;
export const isBefore = (date: string, other: string) => /^\d{4}-\d{2}-\d{2}/.test(date) && date < other;

export const alpha = (value: string) => /^\p{L}+$/u.test(value);
export const alphaSpaces = (value: string) => /^[\p{L} ]+$/u.test(value) && value.trim().length > 0;
export const alphanumeric = (value: string) => /^[\p{L}\p{N}]+$/u.test(value);

/** A number within [min, max], inclusive. */
export function between(value: string | number, min: number, max: number): boolean {
  const n = typeof value === "number" ? value : Number(value);
  return value !== "" && Number.isFinite(n) && n >= min && n <= max;
}

/** Every field `x_confirm` of the form equals its twin `x`; returns the names that differ. */
export function unconfirmedFields(values: Record<string, unknown>): string[] {
  return Object.keys(values)
    .filter((k) => k.endsWith("_confirm"))
    .filter((k) => values[k] !== values[k.slice(0, -"_confirm".length)])
    .map((k) => k);
}
