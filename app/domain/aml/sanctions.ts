/**
 * Sanctions screening (docs/decisions/0007-sanctions-screening.md): the lists read as data (the UN
 * Security Council consolidated list as published, the national lists under UAPA section 51A and the
 * WMD Act section 12A as our CSV), and the matching engine that finds a borrower's possible matches by
 * name and date of birth. The entry to the module; pure and browser-safe.
 */
export { HONORIFICS, normaliseName, phoneticKey, softForm } from "./names.ts";
export { MAX_NATIONAL_ROWS, NATIONAL_COLUMNS, parseNationalList } from "./national-list.ts";
export {
  buildIndex,
  type Candidate,
  comparedNames,
  DOB_VALUE,
  DOB_WEIGHT,
  type DobAgreement,
  dobAgreement,
  MATCH_THRESHOLD,
  NAME_WEIGHT,
  type PossibleMatch,
  screen,
  type ScreeningIndex,
} from "./screening.ts";
export { jaroWinkler, wordSimilarity } from "./similarity.ts";
export { dobText, entryFacts, LIST_NAME, LIST_SOURCES, type ListedDob, type ListedPerson, type ListSource } from "./types.ts";
export { parseUnList } from "./un-list.ts";
