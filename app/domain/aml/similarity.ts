/**
 * How alike two words of a name are, 0 to 1 (docs/decisions/0007-sanctions-screening.md, "Comparing
 * names"): the same word 1; an initial and a word it begins 0.85; the same soft form (doubled letters,
 * q/k, ee/i…) 0.97; a short word (three letters or fewer) and one with the same two consonants or
 * more 0.9; otherwise the Jaro-Winkler similarity of the soft forms when it is at least 0.84 and the
 * shorter is at least three quarters of the longer; else 0. Pure and browser-safe.
 */
import { initialOf, skeleton, softForm } from "./names.ts";

/** The similarity an initial has with a word it could stand for ("M." and "Muhammad"). */
export const INITIAL_SIMILARITY = 0.85;
/** Below this, two different words do not count as alike at all. */
export const MIN_WORD_SIMILARITY = 0.84;
/** Words whose lengths differ more than this are not alike ("muhammadali" is not "muhammad" misspelt). */
export const MIN_LENGTH_RATIO = 0.75;
/** A word of three letters or fewer and another with the same two consonants or more ("Haq", "Huq", "Haque"). */
export const SHORT_SIMILARITY = 0.9;
/** Two words that differ only in what the soft form removes. */
export const SOFT_SIMILARITY = 0.97;

/**
 * Jaro-Winkler similarity (Winkler 1990): the Jaro similarity — characters in common within a window
 * of half the longer length, less half the transpositions — raised by 0.1 for each of up to four
 * leading characters in common.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a === "" ? 0 : 1;
  if (a === "" || b === "") return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transposed = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) transposed++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transposed / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** A word of one letter: an initial. */
export const isInitial = (word: string) => word.length === 1;

/** How alike two normalised words are, 0 to 1 (above); their soft forms may be given when they are known. */
export function wordSimilarity(a: string, b: string, sa = softForm(a), sb = softForm(b)): number {
  if (a === b) return 1;
  if (isInitial(a) || isInitial(b)) {
    if (isInitial(a) && isInitial(b)) return 0;
    return initialOf(a) === initialOf(b) ? INITIAL_SIMILARITY : 0;
  }
  if (sa === sb) return SOFT_SIMILARITY;
  if (sa.length <= 3 || sb.length <= 3) {
    const k = skeleton(a);
    return k.replace(/^a/, "").length >= 2 && k === skeleton(b) ? SHORT_SIMILARITY : 0;
  }
  if (Math.min(sa.length, sb.length) < MIN_LENGTH_RATIO * Math.max(sa.length, sb.length)) return 0;
  const jw = jaroWinkler(sa, sb);
  return jw >= MIN_WORD_SIMILARITY ? jw : 0;
}
