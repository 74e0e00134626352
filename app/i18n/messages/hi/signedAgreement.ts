import type en from "../en/signedAgreement.ts";
import type { Translation } from "../../translation.ts";

export default {
  meta: { title: "हस्ताक्षर किया लोन अनुबंध" },
  heading: "हस्ताक्षर किया लोन अनुबंध",
  linkUntil:
    "{date} तक जिसके पास भी यह लिंक है, वह यह अनुबंध खोल सकता है। उसके बाद सिर्फ़ हस्ताक्षर करने वाले उधारकर्ता ही साइन इन करके इसे खोल सकते हैं; यह लोन के दस्तावेज़ों में भी रहता है।",
  withdrawn:
    "यह अनुबंध कोई पैसा भेजे जाने से पहले वापस ले लिया गया था: हमारी लोन नीति के तहत आवेदन उधारकर्ता को वापस भेजा गया, ताकि वे राशि फिर से चुनें और नए KFS पर हस्ताक्षर करें। यह यहाँ वैसे ही रखा है जैसे इस पर हस्ताक्षर हुए थे।",
  signature: "हस्ताक्षर",
  loan: "लोन",
  loanOf: "{amount} का {kind, select, emi {EMI लोन} other {सैलरी एडवांस}}",
  signedBy: "हस्ताक्षर करने वाले",
  signedAt: "हस्ताक्षर का समय",
  signedAtValue: "{date}, {time} (भारतीय समय)",
  codeTo: "OTP इस नंबर पर भेजा गया",
  shownHash: "दिखाए गए दस्तावेज़ का SHA-256",
  signedHash: "हस्ताक्षर की गई इस कॉपी का SHA-256",
  document: "दस्तावेज़",
  pdfTitle: "हस्ताक्षर किया KFS और लोन अनुबंध (PDF)",
  open: "PDF खोलें",
  download: "हस्ताक्षर की गई PDF डाउनलोड करें",
} satisfies Translation<typeof en>;
