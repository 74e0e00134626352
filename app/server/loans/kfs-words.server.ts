import type { KfsWords } from "../../domain/loans/kfs.ts";
import type { Purpose } from "../../domain/loans/application.ts";
import type { Language } from "../../i18n/languages.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";

/** The Key Fact Statement's words in `language` (the catalogue's `kfs` namespace, formatted under plain Node too). */
export function kfsWords(language: Language): KfsWords {
  const rates = plainTranslator(language, "rates");
  return { language, t: plainTranslator(language, "kfs"), coolingOff: (days) => rates("coolingOff", { days }) };
}

/**
 * What the loan is for, as the statement prints it: the purpose chosen, in the words the application's
 * details step offered it with (applySteps), then the borrower's own words.
 */
export const purposeText = (language: Language, purpose: Purpose, details: string | null) =>
  plainTranslator(language, "applySteps")(`details.purposes.${purpose}`) + (details ? `: ${details}` : "");
