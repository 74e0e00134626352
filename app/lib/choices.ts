/**
 * A select's options (value → words) from the domain's English names, each said in the page's
 * language by `say(value)`: the domain keeps its English names for staff pages, the borrower's
 * page says them from its catalogue ("profileSections.genders.female").
 */
export function choices<K extends string>(names: Readonly<Record<K, string>>, say: (value: K) => string): Record<K, string> {
  return Object.fromEntries((Object.keys(names) as K[]).map((value) => [value, say(value)])) as Record<K, string>;
}
