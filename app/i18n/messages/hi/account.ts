import type en from "../en/account.ts";
import type { Translation } from "../../translation.ts";

export default {
  nav: {
    label: "खाता",
    dashboard: "डैशबोर्ड",
    loans: "लोन",
    profile: "प्रोफ़ाइल",
    help: "मदद",
  },
  signOut: "साइन आउट",
  bell: {
    label: "{unread, plural, =0 {सूचनाएँ} one {सूचनाएँ, # बिना पढ़ी} other {सूचनाएँ, # बिना पढ़ी}}",
  },
  footer: {
    about: "{brand}, {lender} का डिजिटल लोन प्लैटफ़ॉर्म है। {lender} भारतीय रिज़र्व बैंक में पंजीकृत एक गैर-बैंकिंग वित्तीय कंपनी है ({registration})।",
    complaint: "कोई शिकायत है? <link>टिकट दर्ज करें</link> या शिकायत अधिकारी से संपर्क करें। हम 30 दिनों के अंदर जवाब देते हैं।",
  },
  displaced: {
    why: "आपके खाते में किसी दूसरे डिवाइस से साइन इन किया गया, इसलिए इस डिवाइस से साइन आउट कर दिया गया है।",
    ifNotYou: "अगर यह आपने नहीं किया, तो यहाँ फिर से साइन इन करें और मदद में जाकर टिकट दर्ज करें।",
    ok: "ठीक है",
  },
} satisfies Translation<typeof en>;
