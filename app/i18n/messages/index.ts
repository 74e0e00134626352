// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCommon from "./en/common.ts";
import enConsents from "./en/consents.ts";
import enPrivacyRights from "./en/privacyRights.ts";
import enProfile from "./en/profile.ts";
import enProfileSections from "./en/profileSections.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCommon from "./hi/common.ts";
import hiConsents from "./hi/consents.ts";
import hiPrivacyRights from "./hi/privacyRights.ts";
import hiProfile from "./hi/profile.ts";
import hiProfileSections from "./hi/profileSections.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: {
    common: enCommon,
    validation: enValidation,
    about: enAbout,
    profile: enProfile,
    profileSections: enProfileSections,
    privacyRights: enPrivacyRights,
    consents: enConsents,
  },
  hi: {
    common: hiCommon,
    validation: hiValidation,
    about: hiAbout,
    profile: hiProfile,
    profileSections: hiProfileSections,
    privacyRights: hiPrivacyRights,
    consents: hiConsents,
  },
} as const;
