/**
 * Screening a borrower against the lists (docs/decisions/0007-sanctions-screening.md, "Comparing
 * names", "Dates of birth", "The threshold"): every listed name is prepared once (`buildIndex`: its
 * words, the ways of writing it with words run together, their phonetic keys); a borrower's name is
 * compared only with the listed names it shares keys with, word by word in any order; the date of
 * birth raises or lowers the name's score; a listed person scoring at or above `MATCH_THRESHOLD` is a
 * possible match, which stops disbursal until compliance clears or confirms it. Pure and browser-safe.
 */
import { type NameWord, nameWords, phoneticKeys, rawWords, SPELLING_WORDS, softForm, splitJoined } from "./names.ts";
import { isInitial, wordSimilarity } from "./similarity.ts";
import { dobText, isCalendarDate, LIST_NAME, type ListedDob, type ListedPerson, type ListSource } from "./types.ts";

/** A listed person at or above this score is a possible match (the decision record says why 0.85). */
export const MATCH_THRESHOLD = 0.85;
/** The score is the name's similarity weighted 0.85 and the date of birth's agreement 0.15. */
export const NAME_WEIGHT = 0.85;
export const DOB_WEIGHT = 0.15;
/** What each agreement of the dates of birth adds, before its weight. */
export const DOB_VALUE = { agrees: 1, unknown: 0.6, differs: 0 } as const;
/** Words run together are alike only when nearly the same: Jaro-Winkler rates long strings with a common start too well. */
const MIN_JOINED_SIMILARITY = 0.95;
/** What a word one name leaves out counts for, when the other name's words are all matched and two words are in common (a dropped middle name). */
const DROPPED_WORD = 0.1;

export type DobAgreement = keyof typeof DOB_VALUE;

export interface Candidate {
  name: string;
  /** YYYY-MM-DD, or null when it is not known. */
  dob: string | null;
}

export interface PossibleMatch {
  source: ListSource;
  ref: string;
  kind: "individual" | "entity";
  /** The listed name (primary or alias) the borrower's name came closest to. */
  listedName: string;
  /** 0 to 1: the name's similarity and the date of birth's agreement together. */
  score: number;
  /** 0 to 1: the name's similarity alone. */
  nameScore: number;
  dob: DobAgreement;
  /** Plain English for compliance: which words matched which, and the dates of birth. */
  why: string;
}

/** One way of writing a name: its words, their soft forms, the words as written, and which are words run together. */
interface Form {
  words: string[];
  soft: string[];
  raws: string[];
  joined: boolean[];
}

interface IndexedName {
  person: number;
  name: string;
  /** As written, then (two words or more) each pair of neighbouring words run together, then (three or more) all of them. */
  forms: Form[];
  /** A one-word name, or one with an initial, needs only one key in common. */
  lenient: boolean;
}

export interface ScreeningIndex {
  readonly persons: readonly ListedPerson[];
  readonly names: readonly IndexedName[];
  /** Phonetic key to the names (their positions in `names`) with a word of that key. */
  readonly byKey: ReadonlyMap<string, readonly number[]>;
  /** Every word of the listed names as written, and the spelling table's: what a word written without spaces is split into. */
  readonly vocabulary: ReadonlySet<string>;
}

const form = (words: readonly string[], raws: readonly string[], joined: readonly boolean[]): Form => ({
  words: [...words],
  soft: words.map(softForm),
  raws: [...raws],
  joined: [...joined],
});

/**
 * A name's forms: as written; neighbouring words run together ("Jong Un" as "jongun"); all of them
 * run together. A borrower's initials are never run together ("M. I. Khan" is not "mi khan").
 */
function formsOf(words: readonly NameWord[], listed: boolean): Form[] {
  const w = words.map((x) => x.word);
  const r = words.map((x) => x.raw);
  const forms = [form(w, r, Array<boolean>(w.length).fill(false))];
  if (w.length < 2 || w.length > 6) return forms;
  const joinable = (i: number) => listed || !isInitial(w[i] as string);
  for (let i = 0; i + 1 < w.length; i++)
    if (joinable(i) && joinable(i + 1))
      forms.push(
        form(
          [...w.slice(0, i), `${w[i]}${w[i + 1]}`, ...w.slice(i + 2)],
          [...r.slice(0, i), `${r[i]} ${r[i + 1]}`, ...r.slice(i + 2)],
          w.slice(1).map((_, j) => j === i),
        ),
      );
  if (w.length > 2 && w.every((_, i) => joinable(i))) forms.push(form([w.join("")], [r.join(" ")], [true]));
  return forms;
}

/**
 * A borrower's name's forms: its own, then, when it has a long word the lists do not know that their
 * words make up ("MohdIqbal"), the forms of the name with that word split ("Mohd Iqbal").
 */
function givenForms(name: string, index: ScreeningIndex): Form[] {
  const forms = formsOf(nameWords(name), false);
  const raw = rawWords(name);
  let split = false;
  const words = raw.map((w) => {
    const parts = w.length >= 4 && !index.vocabulary.has(w) ? splitJoined(w, index.vocabulary) : null;
    split ||= parts !== null;
    return parts ? parts.join(" ") : w;
  });
  return split ? [...forms, ...formsOf(nameWords(words.join(" ")), false)] : forms;
}

/** The words of a name's forms that have phonetic keys (all but initials), each once. */
const keyedWords = (forms: readonly Form[]) => new Set(forms.flatMap((f) => f.words.filter((w) => !isInitial(w))));

/** Prepares the lists for screening: each person's names, once each after normalisation, by their keys. */
export function buildIndex(persons: readonly ListedPerson[]): ScreeningIndex {
  const names: IndexedName[] = [];
  const byKey = new Map<string, number[]>();
  const vocabulary = new Set<string>(SPELLING_WORDS);
  persons.forEach((person, p) => {
    const seen = new Set<string>();
    for (const name of person.names) {
      for (const w of rawWords(name)) vocabulary.add(w);
      const words = nameWords(name);
      const normalised = words.map((w) => w.word).join(" ");
      if (normalised === "" || seen.has(normalised)) continue;
      seen.add(normalised);
      const forms = formsOf(words, true);
      const id = names.push({ person: p, name, forms, lenient: words.length === 1 || words.some((w) => isInitial(w.word)) }) - 1;
      for (const key of new Set([...keyedWords(forms)].flatMap(phoneticKeys))) {
        const list = byKey.get(key);
        if (list) list.push(id);
        else byKey.set(key, [id]);
      }
    }
  });
  return { persons, names, byKey, vocabulary };
}

/**
 * The listed names a borrower's name is compared with (the blocking): those that two of its words
 * share a phonetic key with, or one when either name is one word or has an initial (two names of two
 * words or more with one word in common cannot reach the threshold: see the decision record).
 */
function blocked(forms: readonly Form[], index: ScreeningIndex): number[] {
  const hits = new Map<number, number>();
  for (const word of keyedWords(forms)) {
    const reached = new Set(phoneticKeys(word).flatMap((key) => index.byKey.get(key) ?? []));
    for (const id of reached) hits.set(id, (hits.get(id) ?? 0) + 1);
  }
  const base = forms[0]?.words ?? [];
  const lenient = base.length === 1 || base.some(isInitial);
  return [...hits].filter(([id, n]) => n >= 2 || lenient || (index.names[id] as IndexedName).lenient).map(([id]) => id);
}

/** How many listed names a borrower's name is compared with (the tests hold the blocking to it). */
export const comparedNames = (name: string, index: ScreeningIndex) => blocked(givenForms(name, index), index).length;

interface NameComparison {
  score: number;
  listed: Form;
  given: Form;
  /** Matched words: the listed word's position, the borrower's, their similarity. */
  pairs: [number, number, number][];
}

/**
 * Two forms of names compared word by word in any order: each word paired with its most alike word
 * of the other (greedily, best pairs first; words run together only when at least 0.95 alike), then twice the sum of the pairs' similarities over the
 * two names' word counts. A word one name leaves out counts 0.1 when the other name's words are all
 * matched and two words are in common ("Mohammed Khan" or "M. Khan" for "Mohammed Iqbal Khan"). No
 * full word in common (initials alone) is no match.
 */
function compareForms(listed: Form, given: Form): NameComparison {
  const candidates: [number, number, number][] = [];
  for (let i = 0; i < listed.words.length; i++)
    for (let j = 0; j < given.words.length; j++) {
      const s = wordSimilarity(listed.words[i] as string, given.words[j] as string, listed.soft[i], given.soft[j]);
      if (s >= (listed.joined[i] || given.joined[j] ? MIN_JOINED_SIMILARITY : Number.MIN_VALUE)) candidates.push([i, j, s]);
    }
  candidates.sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
  const usedL = new Set<number>();
  const usedG = new Set<number>();
  const pairs: [number, number, number][] = [];
  for (const c of candidates) {
    if (usedL.has(c[0]) || usedG.has(c[1])) continue;
    usedL.add(c[0]);
    usedG.add(c[1]);
    pairs.push(c);
  }
  const [nL, nG] = [listed.words.length, given.words.length];
  const full = pairs.filter(([i, j]) => !isInitial(listed.words[i] as string) && !isInitial(given.words[j] as string)).length;
  if (full === 0) return { score: 0, listed, given, pairs };
  let denominator = nL + nG;
  const leaveOut = pairs.length >= 2;
  if (leaveOut && usedG.size === nG) denominator -= (1 - DROPPED_WORD) * (nL - usedL.size);
  if (leaveOut && usedL.size === nL) denominator -= (1 - DROPPED_WORD) * (nG - usedG.size);
  const sum = pairs.reduce((t, p) => t + p[2], 0);
  return { score: Math.min(1, (2 * sum) / denominator), listed, given, pairs };
}

/**
 * A listed name against the borrower's: the best of every form of the one against every form of the
 * other ("Ziaur Rahman" against "Zia ur Rehman" is "ziaurrahman" against "ziarahman"). Names whose
 * words are all matched as written need no other form.
 */
function compareName(name: IndexedName, given: readonly Form[]): NameComparison {
  let best = compareForms(name.forms[0] as Form, given[0] as Form);
  if (best.pairs.length === best.listed.words.length && best.pairs.length === best.given.words.length) return best;
  for (const l of name.forms)
    for (const g of given) {
      if (l === name.forms[0] && g === given[0]) continue;
      const c = compareForms(l, g);
      if (c.score > best.score) best = c;
    }
  return best;
}

/** A borrower's YYYY-MM-DD date of birth as numbers; throws on anything else. */
function givenDob(dob: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dob);
  const d = m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : null;
  if (!d || !isCalendarDate(d.year, d.month, d.day)) throw new Error(`The date of birth "${dob}" is not a date (YYYY-MM-DD).`);
  return d;
}

/**
 * Whether a borrower's date of birth agrees with a listed person's: it agrees with a full date that is
 * the same day, a year and month that are its own, a year alone that is its year, a range that holds
 * its year; with any one of them is enough. Unknown when either side has none.
 */
export function dobAgreement(dob: string | null, dobs: readonly ListedDob[]): DobAgreement {
  if (dob === null || dobs.length === 0) return "unknown";
  const g = givenDob(dob);
  const agrees = (d: ListedDob) =>
    "fromYear" in d
      ? d.fromYear <= g.year && g.year <= d.toYear
      : d.year === g.year && (d.month === null || d.month === g.month) && (d.day === null || d.day === g.day);
  return dobs.some(agrees) ? "agrees" : "differs";
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function explain(c: NameComparison, person: ListedPerson, candidate: Candidate, dob: DobAgreement, nameScore: number): string {
  const words = [...c.pairs]
    .sort((a, b) => a[1] - b[1])
    .map(([i, j, s]) => {
      const [l, g] = [c.listed.raws[i] as string, c.given.raws[j] as string];
      if (s === 1) return l === g ? `"${g}"` : `"${g}" as "${l}" (one spelling)`;
      if (isInitial(c.given.words[j] as string)) return `"${g}" as the initial of "${l}"`;
      return `"${g}" like "${l}" (${pct(s)})`;
    })
    .concat(c.listed.raws.filter((_, i) => !c.pairs.some((p) => p[0] === i)).map((l) => `"${l}" not in the borrower's name`))
    .concat(c.given.raws.filter((_, j) => !c.pairs.some((p) => p[1] === j)).map((g) => `"${g}" not in the listed name`));
  const listedDobs = person.dobs.map(dobText).join(", ");
  const dobWords =
    person.kind === "entity"
      ? "not compared: an entity is matched by name only"
      : dob === "unknown"
        ? candidate.dob === null
          ? "not known for the borrower"
          : "not given by the list"
        : `${dob}: the borrower's ${candidate.dob} against the listed ${listedDobs}`;
  return `Name ${pct(nameScore)} alike: ${words.join("; ")}. Date of birth ${dobWords}.`;
}

/**
 * Screens one borrower: every listed person with a name at or above the threshold, once (with the
 * name that came closest), best first. An empty name is no match.
 */
export function screen(candidate: Candidate, index: ScreeningIndex): PossibleMatch[] {
  const given = givenForms(candidate.name, index);
  if ((given[0] as Form).words.length === 0) return [];
  const best = new Map<number, PossibleMatch>();
  for (const id of blocked(given, index)) {
    const name = index.names[id] as IndexedName;
    const person = index.persons[name.person] as ListedPerson;
    const comparison = compareName(name, given);
    const nameScore = round3(comparison.score);
    const dob = person.kind === "entity" ? "unknown" : dobAgreement(candidate.dob, person.dobs);
    const score = person.kind === "entity" ? nameScore : round3(NAME_WEIGHT * comparison.score + DOB_WEIGHT * DOB_VALUE[dob]);
    if (score < MATCH_THRESHOLD) continue;
    const held = best.get(name.person);
    if (held && (held.score > score || (held.score === score && held.nameScore >= nameScore))) continue;
    best.set(name.person, {
      source: person.source,
      ref: person.ref,
      kind: person.kind,
      listedName: name.name,
      score,
      nameScore,
      dob,
      why: `${LIST_NAME[person.source]} ${person.ref}, "${name.name}". ${explain(comparison, person, candidate, dob, nameScore)}`,
    });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || b.nameScore - a.nameScore || a.ref.localeCompare(b.ref));
}
