// Messages of the rules many forms share (a mobile number, a one-time code, a name, a PAN, a PIN
// code, income, the consents…), in every page's messages (the root's loader sends them): schemas
// give them as keys (app/i18n/form-message.ts). The words of the form parts several page groups
// show (the consent boxes, the PIN code's hint) are here too, so that any page showing them has them.
export default {
  mobile: {
    invalid: "Enter a valid 10-digit Indian mobile number, starting with 6, 7, 8 or 9.",
    yours: "Enter your mobile number.",
    any: "Enter a mobile number.",
    nominee: "Enter your nominee's mobile number.",
  },
  /** A select's first, empty choice. */
  choose: "Choose…",
  chooseOne: "Choose one.",
  tooLong: "Keep it under {max} characters.",
  name: {
    asOnPan: "Enter your full name as on your PAN.",
    tooShort: "Enter the full name (at least 2 letters).",
    tooLong: "Keep the name under 100 characters.",
    letters: "Use letters and spaces only.",
  },
  dateOfBirth: {
    missing: "Enter your date of birth.",
    noSuchDate: "This date does not exist.",
    tooYoung: "You must be at least {min} years old.",
    tooOld: "You must be {max} or younger.",
  },
  pan: {
    missing: "Enter your PAN.",
    format: "Enter your 10-character PAN, like ABCPE1234F (5 letters, 4 digits, 1 letter).",
    notPersonal: "This is not a personal PAN: its 4th letter must be P.",
    zeros: "This PAN is not valid: its digits cannot be 0000.",
    taken: "This PAN is already registered with another account. Sign in with that account, or contact us.",
  },
  aadhaar: {
    missing: "Enter your 12-digit Aadhaar number.",
    digits: "Enter the 12 digits of your Aadhaar number.",
    firstDigit: "An Aadhaar number cannot start with 0 or 1.",
    checksum: "This Aadhaar number is not valid. Check the digits.",
  },
  ifsc: {
    format: "Enter the 11-character IFSC, like SBIN0001234 (4 letters, 0, then 6 letters or digits).",
    unknown: "We do not know this IFSC. Check it on your cheque book or passbook.",
  },
  pinCode: {
    label: "PIN code",
    missing: "Enter the 6-digit PIN code.",
    format: "Enter the 6-digit PIN code; it cannot start with 0.",
    unknown: "We do not know this PIN code. Check the 6 digits.",
    hint: "We fill in the city, district and state from it.",
  },
  employment: {
    types: {
      salaried: "Salaried",
      self_employed: "Self-employed",
    },
    salaryDay: "Enter the day of the month your salary arrives, from 1 to 31.",
  },
  income: {
    missing: "Enter your net monthly income in rupees.",
    format: "Enter your net monthly income in rupees, like 45000.",
    range: "Enter your net monthly income between {min} and {max}.",
  },
  existingEmis: {
    missing: "Enter your existing monthly EMIs (0 if none) in rupees.",
    format: "Enter your existing monthly EMIs (0 if none) in rupees, like 45000.",
    range: "Enter your existing monthly EMIs (0 if none) between {min} and {max}.",
  },
  consent: {
    legend: "Consent",
    kycNeeded: "We need your consent to check your KYC details.",
    kyc: "I consent to {lender} checking my identity and KYC details with the documents I give, for my loan application.",
    communications:
      "Send me reminders before and on a due date, and updates such as a credit check's answer, by SMS, e-mail and push (optional). Messages my loan needs come anyway.",
    bureauNeeded: "We need your consent to check your credit history before we can make you an offer.",
    bureau:
      "I agree that {lender} may check my PAN and my credit history with a credit bureau to make me an offer. This is a soft enquiry: it does not lower my credit score.",
  },
} as const;
