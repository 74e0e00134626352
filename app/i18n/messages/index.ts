// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enClearCache from "./en/clearCache.ts";
import enCommon from "./en/common.ts";
import enGrievancePolicy from "./en/grievancePolicy.ts";
import enNotice from "./en/notice.ts";
import enPrivacyPolicy from "./en/privacyPolicy.ts";
import enTerms from "./en/terms.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiClearCache from "./hi/clearCache.ts";
import hiCommon from "./hi/common.ts";
import hiGrievancePolicy from "./hi/grievancePolicy.ts";
import hiNotice from "./hi/notice.ts";
import hiPrivacyPolicy from "./hi/privacyPolicy.ts";
import hiTerms from "./hi/terms.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: {
    common: enCommon,
    validation: enValidation,
    about: enAbout,
    privacyPolicy: enPrivacyPolicy,
    terms: enTerms,
    grievancePolicy: enGrievancePolicy,
    clearCache: enClearCache,
    notice: enNotice,
  },
  hi: {
    common: hiCommon,
    validation: hiValidation,
    about: hiAbout,
    privacyPolicy: hiPrivacyPolicy,
    terms: hiTerms,
    grievancePolicy: hiGrievancePolicy,
    clearCache: hiClearCache,
    notice: hiNotice,
  },
} as const;
