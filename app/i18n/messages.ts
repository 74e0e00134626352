// The message catalogue's types, for components (useTranslations) and servers alike. The messages
// themselves are in ./messages/ and reach a page through its loader.
import type { CATALOGUES } from "./messages/index.ts";
import type { Language } from "./languages.ts";
// The module augmented below (named, so that TypeScript resolves it before augmenting it).
export type { AppConfig } from "use-intl";

export type Messages = (typeof CATALOGUES)["en"];
export type Namespace = keyof Messages;

declare module "use-intl" {
  interface AppConfig {
    Locale: Language;
    Messages: Messages;
  }
}

/** India's time zone: dates in messages are India's. */
export const TIME_ZONE = "Asia/Kolkata";
