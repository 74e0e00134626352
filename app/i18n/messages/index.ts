// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enApplyFlow from "./en/applyFlow.ts";
import enApplyQuick from "./en/applyQuick.ts";
import enApplySteps from "./en/applySteps.ts";
import enSignedAgreement from "./en/signedAgreement.ts";
import enAbout from "./en/about.ts";
import enCalculator from "./en/calculator.ts";
import enClearCache from "./en/clearCache.ts";
import enCommon from "./en/common.ts";
import enConsents from "./en/consents.ts";
import enContact from "./en/contact.ts";
import enGrievancePolicy from "./en/grievancePolicy.ts";
import enHome from "./en/home.ts";
import enKfs from "./en/kfs.ts";
import enLoanAutopay from "./en/loan-autopay.ts";
import enLoanPay from "./en/loan-pay.ts";
import enLoanPayment from "./en/loan-payment.ts";
import enLoanPdf from "./en/loan-pdf.ts";
import enLoans from "./en/loans.ts";
import enNotice from "./en/notice.ts";
import enNotices from "./en/notices.ts";
import enOutcome from "./en/outcome.ts";
import enPrivacyPolicy from "./en/privacyPolicy.ts";
import enPrivacyRights from "./en/privacyRights.ts";
import enProfile from "./en/profile.ts";
import enProfileSections from "./en/profileSections.ts";
import enRates from "./en/rates.ts";
import enSignIn from "./en/signIn.ts";
import enTerms from "./en/terms.ts";
import enValidation from "./en/validation.ts";
import hiApplyFlow from "./hi/applyFlow.ts";
import hiApplyQuick from "./hi/applyQuick.ts";
import hiApplySteps from "./hi/applySteps.ts";
import hiSignedAgreement from "./hi/signedAgreement.ts";
import hiAbout from "./hi/about.ts";
import hiCalculator from "./hi/calculator.ts";
import hiClearCache from "./hi/clearCache.ts";
import hiCommon from "./hi/common.ts";
import hiConsents from "./hi/consents.ts";
import hiContact from "./hi/contact.ts";
import hiGrievancePolicy from "./hi/grievancePolicy.ts";
import hiHome from "./hi/home.ts";
import hiKfs from "./hi/kfs.ts";
import hiLoanAutopay from "./hi/loan-autopay.ts";
import hiLoanPay from "./hi/loan-pay.ts";
import hiLoanPayment from "./hi/loan-payment.ts";
import hiLoanPdf from "./hi/loan-pdf.ts";
import hiLoans from "./hi/loans.ts";
import hiNotice from "./hi/notice.ts";
import hiNotices from "./hi/notices.ts";
import hiOutcome from "./hi/outcome.ts";
import hiPrivacyPolicy from "./hi/privacyPolicy.ts";
import hiPrivacyRights from "./hi/privacyRights.ts";
import hiProfile from "./hi/profile.ts";
import hiProfileSections from "./hi/profileSections.ts";
import hiRates from "./hi/rates.ts";
import hiSignIn from "./hi/signIn.ts";
import hiTerms from "./hi/terms.ts";
import hiValidation from "./hi/validation.ts";
import enAccount from "./en/account.ts";
import hiAccount from "./hi/account.ts";
import enDashboard from "./en/dashboard.ts";
import hiDashboard from "./hi/dashboard.ts";
import enNotifications from "./en/notifications.ts";
import hiNotifications from "./hi/notifications.ts";
import enHelp from "./en/help.ts";
import hiHelp from "./hi/help.ts";
import enStatement from "./en/statement.ts";
import hiStatement from "./hi/statement.ts";
import enDataExport from "./en/dataExport.ts";
import hiDataExport from "./hi/dataExport.ts";

export const CATALOGUES = {
  en: {
    common: enCommon,
    validation: enValidation,
    applyFlow: enApplyFlow,
    applyQuick: enApplyQuick,
    applySteps: enApplySteps,
    signedAgreement: enSignedAgreement,
    about: enAbout,
    calculator: enCalculator,
    clearCache: enClearCache,
    consents: enConsents,
    contact: enContact,
    grievancePolicy: enGrievancePolicy,
    home: enHome,
    kfs: enKfs,
    loanAutopay: enLoanAutopay,
    loanPay: enLoanPay,
    loanPayment: enLoanPayment,
    loanPdf: enLoanPdf,
    loans: enLoans,
    notice: enNotice,
    notices: enNotices,
    outcome: enOutcome,
    privacyPolicy: enPrivacyPolicy,
    privacyRights: enPrivacyRights,
    profile: enProfile,
    profileSections: enProfileSections,
    rates: enRates,
    signIn: enSignIn,
    terms: enTerms,
    account: enAccount,
    dashboard: enDashboard,
    notifications: enNotifications,
    help: enHelp,
    statement: enStatement,
    dataExport: enDataExport,
  },
  hi: {
    common: hiCommon,
    validation: hiValidation,
    applyFlow: hiApplyFlow,
    applyQuick: hiApplyQuick,
    applySteps: hiApplySteps,
    signedAgreement: hiSignedAgreement,
    about: hiAbout,
    calculator: hiCalculator,
    clearCache: hiClearCache,
    consents: hiConsents,
    contact: hiContact,
    grievancePolicy: hiGrievancePolicy,
    home: hiHome,
    kfs: hiKfs,
    loanAutopay: hiLoanAutopay,
    loanPay: hiLoanPay,
    loanPayment: hiLoanPayment,
    loanPdf: hiLoanPdf,
    loans: hiLoans,
    notice: hiNotice,
    notices: hiNotices,
    outcome: hiOutcome,
    privacyPolicy: hiPrivacyPolicy,
    privacyRights: hiPrivacyRights,
    profile: hiProfile,
    profileSections: hiProfileSections,
    rates: hiRates,
    signIn: hiSignIn,
    terms: hiTerms,
    account: hiAccount,
    dashboard: hiDashboard,
    notifications: hiNotifications,
    help: hiHelp,
    statement: hiStatement,
    dataExport: hiDataExport,
  },
} as const;
