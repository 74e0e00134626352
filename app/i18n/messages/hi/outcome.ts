import type en from "../en/outcome.ts";
import type { Translation } from "../../translation.ts";

export default {
  meta: {
    title: "आवेदन",
  },
  pageNotFound: "पेज नहीं मिला: {path}",
  payment: {
    captured: { title: "भुगतान मिल गया", lead: "धन्यवाद। आपका भुगतान आपके लोन में जोड़ दिया गया है।" },
    held: {
      title: "भुगतान मिल गया, जाँच चल रही है",
      lead: "बैंक ने जो राशि बताई है, वह आपके ऑर्डर से अलग है, इसलिए लोन में जोड़ने से पहले हमारी टीम इसकी जाँच कर रही है। हम आपको SMS से बताएँगे।",
    },
    failed: { title: "भुगतान नहीं हो सका", lead: "आपके खाते से कोई पैसा नहीं कटा। आप अपने लोन के पेज से फिर कोशिश कर सकते हैं।" },
    cancelled: { title: "भुगतान रोका गया", lead: "आपने भुगतान से पहले ही रोक दिया। कोई पैसा नहीं कटा।" },
    waiting: { title: "बैंक के जवाब का इंतज़ार है", lead: "आपके बैंक ने अभी तक भुगतान की पुष्टि नहीं की है। यह पेज अपने आप फिर से जाँचता है।" },
    reversed: { title: "भुगतान वापस हो गया", lead: "यह भुगतान वापस हो गया है। कितना बकाया है, यह अपने लोन के पेज पर देखें।" },
    heading: "लोन <mono>{loanNumber}</mono> के लिए {amount}",
    countedPaid: "{date} को भुगतान किया हुआ माना गया।",
    reference: "भुगतान का रेफ़रेंस नंबर <mono>{reference}</mono>",
    backToLoan: "अपने लोन पर वापस जाएँ",
    checkAgain: "फिर से जाँचें",
  },
  application: {
    status: {
      draft: "आपका आवेदन अभी पूरा नहीं हुआ है",
      signed: "आपने अपने लोन अनुबंध पर हस्ताक्षर कर दिए हैं",
      under_review: "आपके आवेदन की जाँच चल रही है",
      approved: "आपका लोन मंज़ूर हो गया है",
      active: "आपके लोन का पैसा आपके खाते में भेज दिया गया है",
      closed: "आपका लोन बंद हो गया है",
      rejected: "आपका आवेदन मंज़ूर नहीं हुआ",
      cancelled: "आपका आवेदन रद्द कर दिया गया है",
      written_off: "आपका लोन बट्टे खाते में डाल दिया गया है",
    },
    heading: "{amount} का {kind, select, emi {EMI लोन} other {सैलरी एडवांस}} <ref>आवेदन {reference}</ref>",
    headingNoAmount: "{kind, select, emi {EMI लोन} other {सैलरी एडवांस}} <ref>आवेदन {reference}</ref>",
    submitted: "आपका आवेदन जमा हो गया है। हस्ताक्षर किए गए अनुबंध का लिंक हमने SMS से आपके मोबाइल पर भेज दिया है।",
    continue: "अपना आवेदन पूरा करें",
    see: "अपना आवेदन देखें",
    agreement: "हस्ताक्षर किया हुआ आपका अनुबंध",
    dashboard: "डैशबोर्ड",
  },
} satisfies Translation<typeof en>;
