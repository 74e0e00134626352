// The privacy policy (/privacy-policy). What is collected and why, and who it may go to, are the
// "notice" namespace's (../en/notice.ts), shared with the collection notice; the consents' words
// are those of app/domain/privacy/consents.ts, each purpose whole. Hindi in ../hi/privacyPolicy.ts.
export default {
  meta: {
    title: "Privacy policy",
    description: "What we collect, why, with whose consent, and what we never collect.",
  },
  heading: "Privacy policy",
  intro:
    'This policy explains how {lender} ("we"), through {brand}, collects and uses your personal data, under the Digital Personal Data Protection Act, 2023 and the Reserve Bank of India\'s directions on digital lending.',
  collect: {
    heading: "What we collect and why",
    region: "What we collect and why (scrolls sideways)",
    caption: "Personal data we collect and the purpose of each",
    data: "Data",
    why: "Why we need it",
  },
  never: {
    heading: "What we never collect",
    body: "We never ask for or read your contacts, call logs, messages, photos or files, or your location. We only see the documents and the selfie that you choose to upload.",
  },
  consent: {
    heading: "Your consent",
    body: 'We ask for your consent separately for each purpose, and record each answer with the time, the IP address and the browser it came from. You can see each consent and withdraw it, as easily as you gave it, on the "Your data and privacy" page of your profile.',
    kyc: "<strong>KYC checks.</strong> We check your identity and KYC details with the documents you give, for your loan applications. If you withdraw it: You cannot apply for a new loan until you give it again. A loan you already have goes on as agreed, and we keep the KYC records the law asks us to keep.",
    communications:
      "<strong>Reminders and updates by SMS, e-mail and push.</strong> We send you reminders before and on a due date, and tell you when a credit check comes back, by SMS, e-mail and push notification. If you withdraw it: Those reminders and updates stop by SMS, e-mail and push, and stay in the app's notices. Messages your loan or the law needs still come: the signed agreement, money paid out or received, charges, overdue notices, autopay notices, closure, credit bureau reporting and data breaches.",
    bureau_enquiry:
      "<strong>Credit bureau enquiry.</strong> We check your PAN and your credit history with a credit bureau to make you an offer and to review your application. If you withdraw it: We make no new enquiry about you with a credit bureau, so we cannot make you a new offer or review a new application until you give it again. We still report your loans to the credit bureaus twice a month, because the law requires it.",
  },
  share: {
    heading: "Who we share it with",
    intro: "Only what each needs, under contract, and never for marketing:",
    body: "We report every loan to the four credit bureaus twice a month, as the law requires; we ask a bureau about you only with your consent. We also give data to regulators, courts and law enforcement when the law requires it. We never sell your data. Your download of your data lists which of these had yours.",
  },
  keep: {
    heading: "Where and how long we keep it",
    india: "Your data is stored on servers in India.",
    encrypted: "PAN and bank account numbers are encrypted; documents are kept outside the website and shown only to you and our staff.",
    retention:
      "KYC records are kept for {kycYears} years after the relationship ends, as the Prevention of Money Laundering Act, 2002 and the RBI's KYC directions require; loan and accounting records for {loanYears} years after a loan ends.",
    erasure:
      "If you ask us to erase your data, we erase everything else within 30 days of your asking, tell you what we keep and until when, and erase it the day after.",
  },
  breach: {
    heading: "If your data is breached",
    body: "If a breach of security affects your personal data, we tell you and the Data Protection Board of India within {hours} hours of finding it: what happened, what it may mean for you, what we are doing and what you can do.",
  },
  cookies: {
    heading: "Cookies and storage on your device",
    body: "We use a session cookie named <code>token</code> to keep you signed in, a short-lived cookie to show you messages after a form, and a random device identifier in your browser's storage. We use no advertising trackers. You can clear all of them from the <link>clear this site's data</link> page.",
  },
  rights: {
    heading: "Your rights",
    intro: 'From the "Your data and privacy" page of your profile you can, at any time:',
    download: "download everything we hold about you, as a PDF to read and as a JSON file, with the list of those we shared it with;",
    correct: "correct your details in your profile, or ask us to correct what you cannot change there;",
    erase: "ask us to erase your data: the page shows what we would erase and what the law makes us keep, why and until when;",
    nominee: "name a nominee to use these rights if you die or cannot use them yourself;",
    consent: "withdraw or give again each consent.",
    answerWithin: "We answer each request within {days} days.",
    complain:
      "To complain, write to our grievance officer, {officer}, at <email>{emailAddress}</email> or call <phone>{phoneNumber}</phone>.",
    seeAlso: "See also our <link>grievance redressal policy</link>.",
    board: "If we do not answer you, or you are not satisfied, you may complain to the Data Protection Board of India.",
  },
} as const;
