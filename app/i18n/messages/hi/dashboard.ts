import type en from "../en/dashboard.ts";
import type { Translation } from "../../translation.ts";

export default {
  meta: {
    title: "डैशबोर्ड",
  },
  hello: "नमस्ते, {name}",
  heading: "आपका डैशबोर्ड",
  overdue: {
    heading: "{amount} बकाया है",
    body: "इसमें देर से भुगतान का शुल्क शामिल है। अभी चुकाने से आगे कोई शुल्क नहीं लगेगा और आपकी क्रेडिट हिस्ट्री साफ़ रहेगी। आपके लोन का भुगतान पूरा होने पर ही नया लोन मिल सकता है।",
    pay: "{amount} बकाया चुकाएँ",
  },
  verify: {
    heading: "अपना मोबाइल नंबर वेरिफ़ाई करें",
    body: "आपने Facebook से साइन इन किया है। लोन के लिए आवेदन करने से पहले अपना मोबाइल नंबर जोड़ें और वेरिफ़ाई करें।",
    button: "मोबाइल नंबर वेरिफ़ाई करें",
  },
  loans: {
    heading: "आपके लोन",
    nothingDue: "आपके लोन पर अब कुछ भी चुकाना बाकी नहीं है।",
    nextDue: "अगला भुगतान: {date} को {amount} (लोन {loanNumber})।",
    nextCovered: "आपकी अगली किस्त, {date} को {instalment} (लोन {loanNumber}), आपके अग्रिम भुगतान से पहले ही चुका दी गई है।",
    nextPartlyCovered:
      "अगला भुगतान: {date} को {amount} (लोन {loanNumber})। {instalment} की किस्त में से {covered} आपके अग्रिम भुगतान से चुकाए जाते हैं।",
    payNow: "अभी चुकाएँ",
    all: "आपके सभी लोन",
  },
  quickStart: {
    heading: "अपनी क्विक स्टार्ट पूरी करें",
    next: "अगला: {count} में से चरण {step}, {title}।",
    nextSaved: "आपके जवाब सेव हो गए हैं। अगला: {count} में से चरण {step}, {title}।",
    continue: "क्विक स्टार्ट जारी रखें",
    steps: {
      s1: "लोन और राशि",
      s2: "आपके बारे में",
      s3: "आप कहाँ रहते हैं",
      s4: "काम और आमदनी",
      s5: "मौजूदा EMIs",
      s6: "आपका ऑफ़र",
      s7: "सहमतियाँ",
    },
  },
  applications: {
    heading: "आपके आवेदन",
    kind: "{kind, select, emi {EMI लोन} other {सैलरी एडवांस}}",
    kindAmount: "{amount} का {kind, select, emi {EMI लोन} other {सैलरी एडवांस}}",
    kindAmountTenure: "{months, plural, one {# महीने} other {# महीनों}} के लिए {amount} का {kind, select, emi {EMI लोन} other {सैलरी एडवांस}}",
    reference: "आवेदन {reference}",
    status: "स्थिति: <strong>{status}</strong>।",
    autopayFirst: "आपका लोन मंज़ूर हो गया है। आपका ऑटोपे चालू होते ही हम पैसा भेज देंगे: इसे आवेदन के पेज पर सेट करें।",
    continueStep:
      "जारी रखें: {step, select, Step0 {राशि और अवधि} Step1 {मकसद और बैंक खाता} Step5 {KFS और अनुबंध} Step6 {स्वीकार करें और हस्ताक्षर करें} other {जमा हो गया}}",
    setUpAutopay: "ऑटोपे सेट करें",
    seeStatus: "स्थिति देखें",
    agreement: "हस्ताक्षर किया हुआ अनुबंध",
    none: "अभी आपका कोई लोन आवेदन नहीं है।",
  },
  apply: {
    emi: {
      open: "EMI लोन के लिए आवेदन करें",
      continue: "अपना EMI लोन आवेदन जारी रखें",
      closed: "अभी आप नए EMI लोन के लिए आवेदन नहीं कर सकते।",
    },
    salary_advance: {
      open: "सैलरी एडवांस के लिए आवेदन करें",
      continue: "अपना सैलरी एडवांस आवेदन जारी रखें",
      closed: "अभी आप नए सैलरी एडवांस के लिए आवेदन नहीं कर सकते।",
    },
    closedBoth: "अभी आप नए लोन के लिए आवेदन नहीं कर सकते।",
  },
  kyc: {
    heading: "आपकी KYC प्रोफ़ाइल",
    progress: "{total} में से {done} हिस्से पूरे",
    progressLabel: "KYC के पूरे हुए हिस्से",
    completeBoth: "आपकी प्रोफ़ाइल पूरी है: आप दोनों में से किसी भी लोन के लिए आवेदन कर सकते हैं। कुछ भी बदले तो इसे अपडेट रखें।",
    completeEmi: "आपकी प्रोफ़ाइल पूरी है: आप EMI लोन के लिए आवेदन कर सकते हैं (सैलरी एडवांस नौकरी करने वालों के लिए है)। कुछ भी बदले तो इसे अपडेट रखें।",
    stillToDo: "अभी बाकी है: {items}।",
    view: "अपनी प्रोफ़ाइल देखें",
    seeMissing: "देखें कि क्या बाकी है",
  },
  account: {
    heading: "आपका खाता",
    signedInAs: "साइन इन किया हुआ नंबर",
    notAdded: "अभी जोड़ा नहीं गया",
    memberSince: "सदस्य कब से",
  },
  device: {
    heading: "यह डिवाइस",
    browser: "ब्राउज़र",
    browserOn: "{os} पर {browser}",
    aBrowser: "एक ब्राउज़र",
    signedIn: "साइन इन किया",
    signedInAt: "{when} (भारतीय समय)",
    oneDevice: "आपका खाता एक समय में एक ही डिवाइस पर साइन इन रहता है। कहीं और साइन इन करने पर इस डिवाइस से साइन आउट हो जाएगा।",
    signOut: "साइन आउट करें",
  },
  requests: {
    heading: "आपके जवाब का इंतज़ार है",
    intro: "आपके आवेदन पर फ़ैसला करने से पहले हमारी क्रेडिट टीम को एक और चीज़ चाहिए।",
    asked: "<strong>{kind, select, emi {EMI लोन} other {सैलरी एडवांस}} <mono>{reference}</mono></strong>, {date} को पूछा गया:",
    noteLabel: "अधिकारी के लिए एक नोट (ज़रूरी नहीं)",
    answerLabel: "आपका जवाब",
    sendUploaded: "मैंने अपलोड कर दिया है: भेजें",
    send: "जवाब भेजें",
    answered: "धन्यवाद। आपका जवाब क्रेडिट अधिकारी के पास पहुँच गया है।",
    notOpen: "यह अनुरोध अब खुला नहीं है।",
    tooLong: "अपना जवाब 1,000 अक्षरों से कम रखें।",
    writeAnswer: "सवाल का अपना जवाब लिखें।",
    uploadFirst:
      "पहले अपना {document, select, pan_card {PAN कार्ड} aadhaar_front {आधार, आगे का हिस्सा (मास्क्ड)} aadhaar_back {आधार, पीछे का हिस्सा (मास्क्ड)} salary_slip_1 {सैलरी स्लिप, सबसे नया महीना} salary_slip_2 {सैलरी स्लिप, उससे पिछला महीना} salary_slip_3 {सैलरी स्लिप, दो महीने पहले की} itr_1 {इनकम टैक्स रिटर्न, सबसे नया साल} itr_2 {इनकम टैक्स रिटर्न, उससे पिछला साल} bank_statement {बैंक स्टेटमेंट} other {सेल्फ़ी}} फिर से अपलोड करें (प्रोफ़ाइल, दस्तावेज़), फिर भेजें।",
  },
} satisfies Translation<typeof en>;
