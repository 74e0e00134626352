/**
 * Names as screening compares them (docs/decisions/0007-sanctions-screening.md, "Normalisation"):
 * Latin letters without accents, lower case, apostrophes dropped and other marks as spaces; titles and
 * honorifics left out; the Arabic article and connectors ("al", "ul", "bin"…) folded into or dropped
 * from the words around them; common transliterations of one name written one way ("Mohd", "Mohammed",
 * "Muhammad" are all "muhammad"). The same steps run on a borrower's name and on every listed name,
 * so a step can only ever make two spellings of one name agree. Pure and browser-safe.
 */

/** Titles and honorifics: left out of a name wherever they stand (unless nothing else is left). */
export const HONORIFICS: ReadonlySet<string> = new Set(
  [
    "mr mrs ms miss mister master sir madam shri sri shree shrimati srimati smt kumari kum sushri",
    "dr doctor prof professor engr adv advocate late",
    "haji hajji hajj alhaji alhaj hafiz hafez mullah mulla maulana moulana mawlana maulvi moulvi molvi mawlawi mufti qari",
    "sheikh shaikh shaykh sheik shekh sahib saheb janab",
  ]
    .join(" ")
    .split(" "),
);

/** Legal forms of an entity's name ("Ltd", "LLC", "Corporation"): left out like titles. */
export const LEGAL_FORMS: ReadonlySet<string> = new Set(
  "ltd limited llc llp inc incorporated co corp corporation company pvt private plc sarl sa gmbh".split(" "),
);

/** Words that join names ("Zaki ur Rehman", "Osama bin Laden", "Ahmad al-Anizi"): dropped where they stand alone. */
const PARTICLES: ReadonlySet<string> = new Set(["al", "el", "ul", "ur", "ud", "bin", "ibn", "bint", "binte", "ben", "ould"]);

/** The article as it is written before some letters ("Abd ar-Rahman", "Salah ad-Din"): dropped only there. */
const LINKS: ReadonlySet<string> = new Set([...PARTICLES, "ar", "as", "ad", "an", "at", "az", "us", "un"]);

/** "Abd" written as a word of its own, before the name it is joined to ("Abdul Rahman", "Abd al-Aziz"). */
const ABD: ReadonlySet<string> = new Set(["abd", "abdu", "abdul", "abdal", "abdel", "abdol", "abdool", "abdoul", "abdur", "abdus", "abdi"]);

/** "Allah" and "ud-Din" written apart from the name they end ("Nasr Ullah", "Salah ud Din"). */
const ALLAH: ReadonlySet<string> = new Set(["allah", "ullah", "ulla", "alla", "ullha"]);
const DIN: ReadonlySet<string> = new Set(["din", "deen", "dine", "uddin", "udin", "eddin", "eddine", "uddeen", "addin", "aldin"]);

/**
 * Spellings of one name, written one way: the transliterations of Arabic and South Asian names that
 * differ in more than a doubled letter (those the comparison absorbs: see similarity.ts).
 */
const SPELLINGS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "muhammad: mohammed mohammad mohamed mohamad muhammed muhamad muhamed mohd md mohmad mohammod mahomed mohamud muhammadu",
    "ahmad: ahmed ahmet ahmd",
    "abdul: abdal abdel abdol abdool abdoul abd abdu",
    "abdullah: abdulla abdallah abdalla abdellah abdalah abdulah",
    "sayyid: syed sayed sayyed saiyid saiyed seyed sayid syyed",
    "hussain: husain hussein husein hossain hosain husayn hussayn hosein hussian",
    "hassan: hasan hassen hasen",
    "rahman: rehman rahaman rahmaan rehmaan rahmon",
    "rahim: raheem rahem",
    "karim: kareem karem",
    "yusuf: yousuf yousef yusef yousaf yusof yosef youssef yusuph",
    "usman: osman othman uthman usmaan osmaan",
    "umar: omar omer umer",
    "qasim: kasim qassim kassim qaseem kaseem",
    "qadir: kadir qader kader qadeer kadeer",
    "iqbal: ikbal",
    "mustafa: mustapha mostafa moustafa mustufa",
    "ibrahim: ebrahim ibraheem ibrahem",
    "ismail: ismael ismayil esmail ismaeel",
    "ali: aly",
    "abu: abou abo",
    "khalid: khaled",
    "masud: masood masoud",
    "said: saeed sayeed saed saeid saiid",
    "daud: dawood dawud dawod daoud davood",
    "shakil: shakeel",
    "jamil: jameel",
    "javed: jawed javaid javid",
    "zia: ziya",
    "chaudhary: choudhary chaudhry chowdhury choudhury chaudhari chaudhuri chowdhary choudhari",
  ].flatMap((row) => {
    const [canonical, variants] = row.split(": ") as [string, string];
    return variants.split(" ").map((v) => [v, canonical] as const);
  }),
);

/** Latin letters without accents, lower case; letters with no decomposition written as their nearest Latin. */
const LETTERS: Readonly<Record<string, string>> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i", ħ: "h" };
const fold = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþıħ]/g, (c) => LETTERS[c] ?? c);

/**
 * One word written the one way: "Abdurrahman" as "abdul" and "rahman" (the theophoric "Abd al-"
 * joined to its name is split off), "-ulla"/"-allah" endings as "-ullah", "-udin"/"-eddine" endings
 * as "-uddin", then the spelling table.
 */
function canonicalWords(word: string): string[] {
  const abd = ABD_JOINED.exec(word) ?? ABD_JOINED.exec(single(word));
  if (abd && !/^l?lah?$/.test(abd[1] as string) && !ALLAH.has(abd[1] as string)) return ["abdul", ...canonicalWords(abd[1] as string)];
  let w = word;
  if (w.length > 6) w = w.replace(/^([a-z]{3,}?)[ua]llah?$/, "$1ullah").replace(/^([a-z]{3,}?)[ueao]dd?(?:i|ee|ie)ne?$/, "$1uddin");
  return [SPELLINGS[w] ?? SPELLINGS_SINGLE[single(w)] ?? w];
}

/** "Abd" joined to the name after it, with or without the article between. */
const ABD_JOINED = /^abd(?:ul|al|el|ol|oul|ur|ar|us|as|un|an|ud|ad|uz|az|ush|ash|ut|at|i|u|)([a-z]{3,})$/;

/** A word with its doubled letters single ("Mohhammed" is "mohamed"). */
const single = (word: string) => word.replace(/(.)\1+/g, "$1");

/** The spelling table by the spellings' single-letter forms, for a spelling written with a letter doubled or halved. */
const SPELLINGS_SINGLE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SPELLINGS).flatMap(([variant, canonical]) => [
    [single(variant), canonical],
    [single(canonical), canonical],
  ]),
);

/** A normalised word: its written form (for explaining a match) and its canonical form. */
export interface NameWord {
  raw: string;
  word: string;
}

/** A name's words as written: accents dropped, lower case, apostrophes dropped, split at anything but a letter. */
export function rawWords(name: string): string[] {
  const folded = fold(name)
    .replace(/['’‘`´ʿʾʻʼ]/g, "")
    .replace(/[^a-z]+/g, " ")
    .trim();
  return folded === "" ? [] : folded.split(" ");
}

/** The words the spelling table knows (each spelling and the one it is written as). */
export const SPELLING_WORDS: readonly string[] = [...new Set([...Object.keys(SPELLINGS), ...Object.values(SPELLINGS)])];

/**
 * A word written without its spaces, split back into known words ("mohdiqbal" is "mohd", "iqbal"):
 * the fewest words of `vocabulary` (of two letters or more) that make it up, two at least; null when there are none.
 */
export function splitJoined(word: string, vocabulary: ReadonlySet<string>): string[] | null {
  const best: (string[] | null)[] = [[], ...Array<null>(word.length).fill(null)];
  for (let end = 1; end <= word.length; end++)
    for (let start = Math.max(0, end - 24); start < end; start++) {
      const before = best[start];
      const piece = word.slice(start, end);
      if (
        before &&
        piece.length >= 2 &&
        vocabulary.has(piece) &&
        (best[end] === null || before.length + 1 < (best[end] as string[]).length)
      )
        best[end] = [...before, piece];
    }
  const found = best[word.length];
  return found && found.length >= 2 ? found : null;
}

/** The words of a name after normalisation, with the words they were written as. */
export function nameWords(name: string): NameWord[] {
  const all = rawWords(name);
  const titled = all.filter((w) => !HONORIFICS.has(w) && !LEGAL_FORMS.has(w));
  const words = titled.length ? titled : all;
  const out: NameWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const next = words[i + 1];
    const last = out[out.length - 1];
    if (ABD.has(w) && next !== undefined) {
      // "Abd al-Rahman", "Abdul Rahman": "abdul" and the name; "Abd Allah" is "abdullah".
      const skip = LINKS.has(next) ? 1 : 0;
      const after = words[i + 1 + skip];
      if (after !== undefined && ALLAH.has(after)) {
        out.push({ raw: words.slice(i, i + 2 + skip).join(" "), word: "abdullah" });
        i += 1 + skip;
      } else {
        out.push({ raw: w, word: "abdul" });
        i += skip;
      }
      continue;
    }
    if (last && LINKS.has(w) && next !== undefined && DIN.has(next)) continue;
    if (last && (ALLAH.has(w) || (DIN.has(w) && (w.length > 4 || LINKS.has(words[i - 1] ?? ""))))) {
      // "Nasr Ullah" is "nasrullah" as "Nasrullah" is; "Salah ud Din" and "Salah Uddin" are "salahuddin".
      const joined = canonicalWords(last.raw.replace(/ /g, "") + (ALLAH.has(w) ? "ullah" : "uddin"));
      out[out.length - 1] = { raw: `${last.raw} ${w}`, word: joined.join("") };
      continue;
    }
    if (PARTICLES.has(w) && words.length > 1) continue;
    for (const word of canonicalWords(w)) out.push({ raw: w, word });
  }
  return out;
}

/** The words of a name after normalisation ("Mr. Mohd. Iqbal Khan" is muhammad, iqbal, khan). */
export function normaliseName(name: string): string[] {
  return nameWords(name).map((w) => w.word);
}

/**
 * A word as the comparison reads it: doubled letters single, "q" as "k", "ph" as "f", "w" as "v",
 * "ee" as "i", "oo" and "ou" as "u", a "y" after the first letter as "i", a final "h" after a vowel
 * dropped ("Fatimah" is "fatima", "Iqbaal" is "iqbal").
 */
export function softForm(word: string): string {
  return word
    .replace(/ph/g, "f")
    .replace(/q/g, "k")
    .replace(/w/g, "v")
    .replace(/ee/g, "i")
    .replace(/o[ou]/g, "u")
    .replace(/(?!^)y/g, "i")
    .replace(/([aeiou])h$/, "$1")
    .replace(/(.)\1+/g, "$1");
}

/**
 * The phonetic key a word is found by (the blocking of screening.ts): its soft form's consonants,
 * with aspirates as plain ("kh", "gh", "th", "dh", "bh", "sh", "ch", "jh", "zh"), "c" as "k", "z" as
 * "j", and a first vowel as "a". A key shorter than three letters is the soft form itself, marked.
 */
export function phoneticKey(word: string): string {
  const consonants = skeleton(word);
  return consonants.length >= 2 ? consonants : `=${softForm(word)}`;
}

/**
 * The keys a word is found by: its phonetic key and, for a key longer than four letters, the key's
 * first four ("Nsengiyumva" and "Nsengiyuma" differ in the one and share the other).
 */
export function phoneticKeys(word: string): string[] {
  const key = phoneticKey(word);
  return key.length > 4 && !key.startsWith("=") ? [key, `${key.slice(0, 4)}…`] : [key];
}

/** A word's consonants as the phonetic key has them ("haq", "huq" and "haque" are all "hk"). */
export function skeleton(word: string): string {
  return softForm(word)
    .replace(/([kgtdbscjz])h/g, "$1")
    .replace(/c/g, "k")
    .replace(/z/g, "j")
    .replace(/x/g, "ks")
    .replace(/^[aeiou]/, "A")
    .replace(/[aeiou]/g, "")
    .replace(/(.)\1+/g, "$1")
    .toLowerCase();
}

/** The first letter of a word as an initial is compared: a vowel as "a", "q" and "c" as "k". */
export const initialOf = (word: string) => (/^[aeiouy]/.test(word) ? "a" : /^[qc]/.test(word) ? "k" : word.slice(0, 1));
