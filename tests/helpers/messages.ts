// What a message key a schema or the server gives (app/i18n/form-message.ts) says, in a language:
// for tests that hold the words of a rule rather than its key. The catalogue's ICU messages are
// formatted as they are written (the tests' use-intl parses them; the app formats them compiled).
import { createTranslator } from "use-intl/core";
import { parseMessage } from "../../app/i18n/form-message.ts";
import type { Language } from "../../app/i18n/languages.ts";
import { CATALOGUES } from "../../app/i18n/messages/index.ts";
import { TIME_ZONE } from "../../app/i18n/messages.ts";

type Say = (key: string, values?: Record<string, string | number>) => string;

/** `text` said in `language` when it is a message key; words as they are; null stays null. */
export function said(text: string | null | undefined, language: Language = "en"): string | null {
  if (text === null || text === undefined) return null;
  const parsed = parseMessage(text);
  if (!parsed) return text;
  const t = createTranslator({ locale: language, messages: CATALOGUES[language], timeZone: TIME_ZONE }) as unknown as Say;
  return t(parsed.key, parsed.values);
}
