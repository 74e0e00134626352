import type en from "../en/common.ts";
import type { Translation } from "../../translation.ts";

export default {
  skipToContent: "सीधे मुख्य भाग पर जाएँ",
  homeLink: "{brand} होम पेज",
  nav: {
    label: "मुख्य",
    home: "होम",
    calculator: "EMI कैलकुलेटर",
    rates: "दरें",
    about: "हमारे बारे में",
    contact: "संपर्क",
    menu: "मेन्यू",
  },
  account: {
    short: "खाता",
    long: "आपका खाता",
    backOffice: "बैक ऑफ़िस",
    signIn: "साइन इन",
  },
  language: {
    switchLabel: "भाषा",
  },
  displaced: {
    title: "किसी और ने लॉग इन किया है!",
    body: "आपके खाते में किसी दूसरे डिवाइस से साइन इन किया गया, इसलिए इस डिवाइस से साइन आउट करके इसका डेटा मिटा दिया गया। अगर यह आपने नहीं किया, तो <link>फिर से साइन इन करें</link> और मदद में जाकर टिकट दर्ज करें, या हमारे शिकायत अधिकारी को फ़ोन करें।",
  },
  footer: {
    about: "{brand}, {lender} का डिजिटल लोन प्लैटफ़ॉर्म है। {lender} भारतीय रिज़र्व बैंक में पंजीकृत एक गैर-बैंकिंग वित्तीय कंपनी (NBFC) है।",
    rbiRegistration: "RBI पंजीकरण: {number}",
    cin: "CIN: {cin}",
    answerWithin: "हम हर शिकायत का जवाब 30 दिनों के अंदर देते हैं।",
    policies: "नीतियाँ",
    grievancePolicy: "शिकायत निवारण नीति",
    privacyPolicy: "गोपनीयता नीति",
    terms: "नियम और शर्तें",
    clearData: "अपने डिवाइस से इस साइट का डेटा मिटाएँ",
  },
  toasts: {
    region: "सूचनाएँ",
    close: "बंद करें",
  },
  grievanceOfficer: "शिकायत अधिकारी",
  lenderNote:
    "{brand}, {lender} का प्लैटफ़ॉर्म है, जो RBI में पंजीकृत है ({registration})। शिकायत के लिए: शिकायत अधिकारी {officer}, <phone>{phoneNumber}</phone>, <email>{emailAddress}</email>।",
  notFound: {
    title: "पेज नहीं मिला",
    heading: "पेज नहीं मिला: {path}",
    body: "आपने जो पेज माँगा है, वह मौजूद नहीं है या कहीं और चला गया है। पता जाँच लें, या होम पेज से फिर शुरू करें।",
    home: "होम",
    contact: "हमसे संपर्क करें",
  },
  error: {
    forbiddenTitle: "अनुमति नहीं है",
    forbiddenHeading: "आप यह पेज नहीं खोल सकते",
    forbiddenBody: "आपके खाते को इस पेज की अनुमति नहीं है।",
    updatingTitle: "नया संस्करण आ रहा है…",
    updatingHeading: "इस साइट का नया संस्करण आ गया है",
    updatingBody: "नया संस्करण लाने के लिए यह पेज फिर से खुल रहा है।",
    refusedTitle: "स्वीकार नहीं हुआ",
    refusedHeading: "यह स्वीकार नहीं किया जा सका",
    refusedBody: "अनुरोध पूरा नहीं हो सका (स्थिति {status})।",
    failedTitle: "कुछ गड़बड़ हो गई",
    failedBody: "हम आपका अनुरोध पूरा नहीं कर सके। कृपया थोड़ी देर बाद फिर कोशिश करें; अगर ऐसा बार-बार हो, तो हमसे संपर्क करें।",
    backToPage: "पेज पर वापस जाएँ",
    goHome: "होम पेज पर जाएँ",
  },
} satisfies Translation<typeof en>;
