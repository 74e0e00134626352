import { useCallback } from "react";
import { useTranslations } from "../i18n/use-translations.ts";
import { parseMessage } from "../i18n/form-message.ts";

/**
 * Says a message a schema or the server gave (app/i18n/form-message.ts) in the page's language; words
 * that are no key are shown as they are. A key whose namespace the page did not load is shown as
 * use-intl's fallback (the key), which the Hindi page tests catch.
 */
export function useMessageText(): (text: string) => string {
  const t = useTranslations();
  return useCallback(
    (text: string) => {
      const parsed = parseMessage(text);
      if (!parsed) return text;
      return (t as unknown as (key: string, values?: Record<string, string | number>) => string)(parsed.key, parsed.values);
    },
    [t],
  );
}

/** A field's errors, each in the page's language, as one line. */
export function useErrorText(): (errors: readonly string[] | undefined) => string | null {
  const say = useMessageText();
  return useCallback((errors) => (errors?.length ? errors.map(say).join(" ") : null), [say]);
}
