// What every public and borrower page shows around its content: the header, the footer, the
// language switch and the error views. ICU messages; Hindi in ../hi/common.ts.
export default {
  skipToContent: "Skip to content",
  homeLink: "{brand} home",
  nav: {
    label: "Main",
    home: "Home",
    calculator: "EMI calculator",
    rates: "Rates",
    about: "About us",
    contact: "Contact",
    menu: "Menu",
  },
  account: {
    short: "Account",
    long: "Your account",
    backOffice: "Back office",
    signIn: "Sign in",
  },
  language: {
    switchLabel: "Language",
  },
  displaced: {
    title: "Someone else logged in!",
    body: "Your account was signed in on another device, so this one was signed out and its data cleared. If it was not you, <link>sign in again</link> and raise a ticket from Help, or call our grievance officer.",
  },
  footer: {
    about: "{brand} is a digital lending platform of {lender}, a non-banking financial company registered with the Reserve Bank of India.",
    rbiRegistration: "RBI registration: {number}",
    cin: "CIN: {cin}",
    answerWithin: "We answer every complaint within 30 days.",
    policies: "Policies",
    grievancePolicy: "Grievance redressal policy",
    privacyPolicy: "Privacy policy",
    terms: "Terms and conditions",
    clearData: "Clear this site's data on your device",
  },
  /** The toast area (sonner): its name for screen readers, and each toast's close button. */
  toasts: {
    region: "Notifications",
    close: "Close",
  },
  grievanceOfficer: "Grievance officer",
  lenderNote:
    "{brand} is a platform of {lender}, registered with the RBI ({registration}). Complaints: grievance officer {officer}, <phone>{phoneNumber}</phone>, <email>{emailAddress}</email>.",
  notFound: {
    title: "Page not found",
    heading: "Page not found: {path}",
    body: "The page you asked for does not exist or has moved. Check the address, or start again from the home page.",
    home: "Home",
    contact: "Contact us",
  },
  error: {
    forbiddenTitle: "Not allowed",
    forbiddenHeading: "You cannot open this page",
    forbiddenBody: "Your account does not have access to this page.",
    updatingTitle: "Updating…",
    updatingHeading: "A newer version is available",
    updatingBody: "This page is reloading to fetch the latest version.",
    refusedTitle: "Not accepted",
    refusedHeading: "That could not be accepted",
    refusedBody: "The request could not be completed (status {status}).",
    failedTitle: "Something went wrong",
    failedBody: "We could not complete your request. Please try again in a moment; if it keeps happening, contact us.",
    backToPage: "Back to the page",
    goHome: "Go to the home page",
  },
} as const;
