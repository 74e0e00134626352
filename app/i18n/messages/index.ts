// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCalculator from "./en/calculator.ts";
import enCommon from "./en/common.ts";
import enHome from "./en/home.ts";
import enRates from "./en/rates.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCalculator from "./hi/calculator.ts";
import hiCommon from "./hi/common.ts";
import hiHome from "./hi/home.ts";
import hiRates from "./hi/rates.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: { common: enCommon, validation: enValidation, about: enAbout, calculator: enCalculator, home: enHome, rates: enRates },
  hi: { common: hiCommon, validation: hiValidation, about: hiAbout, calculator: hiCalculator, home: hiHome, rates: hiRates },
} as const;
