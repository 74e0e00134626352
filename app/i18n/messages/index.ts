// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCalculator from "./en/calculator.ts";
import enClearCache from "./en/clearCache.ts";
import enCommon from "./en/common.ts";
import enGrievancePolicy from "./en/grievancePolicy.ts";
import enHome from "./en/home.ts";
import enNotice from "./en/notice.ts";
import enPrivacyPolicy from "./en/privacyPolicy.ts";
import enRates from "./en/rates.ts";
import enTerms from "./en/terms.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCalculator from "./hi/calculator.ts";
import hiClearCache from "./hi/clearCache.ts";
import hiCommon from "./hi/common.ts";
import hiGrievancePolicy from "./hi/grievancePolicy.ts";
import hiHome from "./hi/home.ts";
import hiNotice from "./hi/notice.ts";
import hiPrivacyPolicy from "./hi/privacyPolicy.ts";
import hiRates from "./hi/rates.ts";
import hiTerms from "./hi/terms.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: {
    common: enCommon,
    validation: enValidation,
    about: enAbout,
    calculator: enCalculator,
    clearCache: enClearCache,
    grievancePolicy: enGrievancePolicy,
    home: enHome,
    notice: enNotice,
    privacyPolicy: enPrivacyPolicy,
    rates: enRates,
    terms: enTerms,
  },
  hi: {
    common: hiCommon,
    validation: hiValidation,
    about: hiAbout,
    calculator: hiCalculator,
    clearCache: hiClearCache,
    grievancePolicy: hiGrievancePolicy,
    home: hiHome,
    notice: hiNotice,
    privacyPolicy: hiPrivacyPolicy,
    rates: hiRates,
    terms: hiTerms,
  },
} as const;
