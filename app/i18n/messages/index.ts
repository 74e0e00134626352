// Every namespace of messages, in both languages. English is the source; each Hindi namespace
// `satisfies Translation<typeof en>` (../translation.ts). A page's loader sends only its own
// namespaces, in its own language (app/web/i18n.server.ts): this module is imported by server
// code only, so no catalogue reaches the browser whole.
import enAbout from "./en/about.ts";
import enCommon from "./en/common.ts";
import enLoanAutopay from "./en/loan-autopay.ts";
import enLoanPay from "./en/loan-pay.ts";
import enLoanPayment from "./en/loan-payment.ts";
import enLoans from "./en/loans.ts";
import enValidation from "./en/validation.ts";
import hiAbout from "./hi/about.ts";
import hiCommon from "./hi/common.ts";
import hiLoanAutopay from "./hi/loan-autopay.ts";
import hiLoanPay from "./hi/loan-pay.ts";
import hiLoanPayment from "./hi/loan-payment.ts";
import hiLoans from "./hi/loans.ts";
import hiValidation from "./hi/validation.ts";

export const CATALOGUES = {
  en: {
    common: enCommon,
    validation: enValidation,
    about: enAbout,
    loans: enLoans,
    loanPay: enLoanPay,
    loanAutopay: enLoanAutopay,
    loanPayment: enLoanPayment,
  },
  hi: {
    common: hiCommon,
    validation: hiValidation,
    about: hiAbout,
    loans: hiLoans,
    loanPay: hiLoanPay,
    loanAutopay: hiLoanAutopay,
    loanPayment: hiLoanPayment,
  },
} as const;
