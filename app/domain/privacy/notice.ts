// What the product collects about a borrower and why, who it is shared with, and how long it is kept
// (docs/product.md "Data rights"): one source for the collection notice shown before any personal
// data is asked, the privacy policy, the "Download my data" file and an erasure's plan, so that what
// the borrower is told is what the code does. Each sentence is whole in English and in Hindi (the
// languages issue moves the Hindi into its library as it stands).

export type NoticeLanguage = "en" | "hi";

/** An item of personal data the product keeps, and why. */
export interface DataItem {
  id: string;
  en: { what: string; why: string };
  hi: { what: string; why: string };
}

export const DATA_ITEMS = [
  {
    id: "mobile",
    en: { what: "Mobile number", why: "To create your account, sign you in with one-time codes and send you messages about your loans." },
    hi: {
      what: "मोबाइल नंबर",
      why: "आपका खाता बनाने, वन-टाइम कोड से आपको साइन इन कराने और आपके लोन के बारे में संदेश भेजने के लिए।",
    },
  },
  {
    id: "identity",
    en: {
      what: "Name, date of birth, gender, marital status and e-mail",
      why: "To identify you and check that you can borrow (age 21 to 60).",
    },
    hi: {
      what: "नाम, जन्म तिथि, लिंग, वैवाहिक स्थिति और ई-मेल",
      why: "आपकी पहचान करने और यह देखने के लिए कि आप लोन ले सकते हैं (उम्र 21 से 60 वर्ष)।",
    },
  },
  {
    id: "pan",
    en: { what: "PAN", why: "For KYC, the credit bureau check and to stop duplicate accounts. It is stored encrypted." },
    hi: { what: "पैन (PAN)", why: "KYC, क्रेडिट ब्यूरो जाँच और दोहरे खाते रोकने के लिए। इसे एन्क्रिप्ट करके रखा जाता है।" },
  },
  {
    id: "aadhaar",
    en: { what: "Aadhaar number", why: "Checked when you enter it for KYC. Only its last 4 digits are stored." },
    hi: { what: "आधार नंबर", why: "KYC के लिए डालते समय इसकी जाँच होती है। केवल इसके आखिरी 4 अंक रखे जाते हैं।" },
  },
  {
    id: "address",
    en: { what: "Address and PIN code", why: "For KYC, to reach you and for credit bureau reporting." },
    hi: { what: "पता और पिन कोड", why: "KYC, आपसे संपर्क करने और क्रेडिट ब्यूरो को रिपोर्टिंग के लिए।" },
  },
  {
    id: "employment",
    en: {
      what: "Work, income and existing EMIs",
      why: "To work out how much you can repay and your interest rate.",
    },
    hi: {
      what: "काम, आय और चल रही EMI",
      why: "यह तय करने के लिए कि आप कितना चुका सकते हैं और आपकी ब्याज दर क्या होगी।",
    },
  },
  {
    id: "bank",
    en: {
      what: "Bank account and IFSC",
      why: "To check the account is in your name, pay your loan into it and collect repayments. The account number is stored encrypted.",
    },
    hi: {
      what: "बैंक खाता और IFSC",
      why: "यह जाँचने के लिए कि खाता आपके नाम पर है, लोन की राशि उसमें भेजने और किस्तें लेने के लिए। खाता नंबर एन्क्रिप्ट करके रखा जाता है।",
    },
  },
  {
    id: "documents",
    en: { what: "Documents and a selfie", why: "For KYC and to confirm that the person applying is you." },
    hi: { what: "दस्तावेज़ और सेल्फ़ी", why: "KYC के लिए और यह पक्का करने के लिए कि आवेदन करने वाले आप ही हैं।" },
  },
  {
    id: "references",
    en: {
      what: "Two references (name and mobile number)",
      why: "To reach you through them only if we cannot reach you about your loan.",
    },
    hi: {
      what: "दो रेफ़रेंस (नाम और मोबाइल नंबर)",
      why: "केवल तभी उनसे संपर्क करने के लिए जब लोन के बारे में हम आपसे संपर्क न कर पाएँ।",
    },
  },
  {
    id: "credit_report",
    en: {
      what: "Your credit report from a credit bureau",
      why: "With your consent, to decide on an offer and your application.",
    },
    hi: {
      what: "क्रेडिट ब्यूरो से आपकी क्रेडिट रिपोर्ट",
      why: "आपकी सहमति से, ऑफ़र और आपके आवेदन पर निर्णय लेने के लिए।",
    },
  },
  {
    id: "loans",
    en: {
      what: "Your applications, loans, payments and messages to us",
      why: "To give you the loan, collect it, answer your questions and keep the records the law asks for.",
    },
    hi: {
      what: "आपके आवेदन, लोन, भुगतान और हमें भेजे गए संदेश",
      why: "आपको लोन देने, उसकी वसूली करने, आपके सवालों के जवाब देने और कानून के अनुसार रिकॉर्ड रखने के लिए।",
    },
  },
  {
    id: "device",
    en: {
      what: "A random device identifier, your IP address and browser",
      why: "To keep your account safe (one device signed in at a time) and to record your consents.",
    },
    hi: {
      what: "एक रैंडम डिवाइस पहचान, आपका IP पता और ब्राउज़र",
      why: "आपके खाते को सुरक्षित रखने (एक समय में एक ही डिवाइस पर साइन इन) और आपकी सहमतियाँ दर्ज करने के लिए।",
    },
  },
] as const satisfies readonly DataItem[];
export type DataItemId = (typeof DATA_ITEMS)[number]["id"];

/** The notice's fixed words, whole in each language. `{lender}` and `{brand}` are the only blanks. */
export const NOTICE_TEXT = {
  en: {
    title: "How we use your personal data",
    intro:
      "{lender} (through {brand}) collects only the personal data below, for the reasons given, under the Digital Personal Data Protection Act, 2023. We never read your contacts, call logs, messages, photos, files or location.",
    rights:
      "You can see and withdraw each consent, download all your data, correct it, ask us to erase it, name a nominee and complain, from your profile or by writing to our grievance officer.",
    policyLink: "Read the full privacy policy",
  },
  hi: {
    title: "हम आपके व्यक्तिगत डेटा का उपयोग कैसे करते हैं",
    intro:
      "{lender} ({brand} के माध्यम से) डिजिटल व्यक्तिगत डेटा संरक्षण अधिनियम, 2023 के तहत केवल नीचे दिया गया व्यक्तिगत डेटा, बताए गए कारणों के लिए लेता है। हम आपके कॉन्टैक्ट, कॉल लॉग, मैसेज, फ़ोटो, फ़ाइलें या लोकेशन कभी नहीं पढ़ते।",
    rights:
      "आप अपनी प्रोफ़ाइल से या हमारे शिकायत अधिकारी को लिखकर हर सहमति देख और वापस ले सकते हैं, अपना सारा डेटा डाउनलोड कर सकते हैं, उसे सुधार सकते हैं, उसे मिटाने के लिए कह सकते हैं, नॉमिनी चुन सकते हैं और शिकायत कर सकते हैं।",
    policyLink: "पूरी गोपनीयता नीति पढ़ें",
  },
} as const;

/** Fills the notice's `{lender}` and `{brand}`. */
export const noticeSentence = (text: string, names: { lender: string; brand: string }) =>
  text.replaceAll("{lender}", names.lender).replaceAll("{brand}", names.brand);

/** Those personal data may be shared with, by kind (the download lists which of them had the borrower's). */
export const RECIPIENT_KINDS = {
  credit_bureau: "Credit information companies (credit bureaus)",
  payment_gateway: "The payment gateway that takes your repayments",
  payout_provider: "The bank transfer provider that pays your loan out",
  mandate_provider: "The autopay (e-mandate) provider",
  sms_gateway: "The SMS gateway",
  email_gateway: "The e-mail service",
  ckyc_registry: "The central KYC registry (CERSAI)",
  pan_verifier: "The PAN verification service",
  bank_verifier: "The bank account verification service",
} as const;
export type RecipientKind = keyof typeof RECIPIENT_KINDS;

/**
 * How long records are kept after the relationship ends (docs/product.md "Data rights"): KYC records
 * 5 years (Prevention of Money Laundering Act, 2002, s. 12 and the RBI's KYC Master Direction), loan
 * records 8 years (books of account, Companies Act, 2013, s. 128).
 */
export const RETENTION_YEARS = { kyc: 5, loan: 8 } as const;

/** A data-rights request is answered within this many days of receipt. */
export const ANSWER_WITHIN_DAYS = 30;
/** A breach is reported to the Board, and its borrowers told, within this many hours of becoming aware. */
export const BREACH_REPORT_HOURS = 72;
