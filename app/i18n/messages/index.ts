// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCommon from "./en/common.ts";
import enContact from "./en/contact.ts";
import enOutcome from "./en/outcome.ts";
import enSignIn from "./en/signIn.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCommon from "./hi/common.ts";
import hiContact from "./hi/contact.ts";
import hiOutcome from "./hi/outcome.ts";
import hiSignIn from "./hi/signIn.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: { common: enCommon, validation: enValidation, about: enAbout, signIn: enSignIn, contact: enContact, outcome: enOutcome },
  hi: { common: hiCommon, validation: hiValidation, about: hiAbout, signIn: hiSignIn, contact: hiContact, outcome: hiOutcome },
} as const;
