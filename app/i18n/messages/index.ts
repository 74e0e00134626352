// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCommon from "./en/common.ts";
import enHome from "./en/home.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCommon from "./hi/common.ts";
import hiHome from "./hi/home.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: { common: enCommon, validation: enValidation, about: enAbout, home: enHome },
  hi: { common: hiCommon, validation: hiValidation, about: hiAbout, home: hiHome },
} as const;
