// The borrower's dashboard (/User/Dashboard): what is overdue, what the credit team asked, the loans,
// the quick start, the applications and whether a new one may start, the KYC profile, the account
// and this device. Staff pages keep app/domain's English words. Hindi in ../hi/dashboard.ts.
export default {
  meta: {
    title: "Dashboard",
  },
  hello: "Hello, {name}",
  heading: "Your dashboard",
  overdue: {
    heading: "{amount} is overdue",
    body: "Penal charges included. Paying it now stops further charges and keeps your credit history clean; a new loan opens once your loans are up to date.",
    pay: "Pay {amount} overdue",
  },
  verify: {
    heading: "Verify your mobile number",
    body: "You signed in with Facebook. Add and verify your mobile number before you apply for a loan.",
    button: "Verify mobile number",
  },
  loans: {
    heading: "Your loans",
    nothingDue: "Nothing more is due on your loans.",
    nextDue: "Next due: {amount} on {date} (loan {loanNumber}).",
    nextCovered: "Your next instalment, {instalment} on {date} (loan {loanNumber}), is already paid by your advance payment.",
    nextPartlyCovered:
      "Next due: {amount} on {date} (loan {loanNumber}); your advance payment pays {covered} of the {instalment} instalment.",
    payNow: "Pay now",
    all: "All your loans",
  },
  quickStart: {
    heading: "Finish your quick start",
    next: "Next: step {step} of {count}, {title}.",
    nextSaved: "Your answers are saved. Next: step {step} of {count}, {title}.",
    continue: "Continue the quick start",
    /** Each step's name within the sentence above (app/domain/quick-start.ts QUICK_STEPS). */
    steps: {
      s1: "loan and amount",
      s2: "about you",
      s3: "where you live",
      s4: "work and income",
      s5: "existing EMIs",
      s6: "your offer",
      s7: "consents",
    },
  },
  applications: {
    heading: "Your applications",
    kind: "{kind, select, emi {EMI loan} other {Salary advance}}",
    kindAmount: "{kind, select, emi {EMI loan} other {Salary advance}} of {amount}",
    kindAmountTenure:
      "{kind, select, emi {EMI loan} other {Salary advance}} of {amount} over {months, plural, one {# month} other {# months}}",
    reference: "application {reference}",
    status: "Status: <strong>{status}</strong>.",
    autopayFirst: "Your loan is approved. We send the money as soon as your autopay is active: set it up on the application's page.",
    continueStep:
      "Continue: {step, select, Step0 {amount and tenure} Step1 {purpose and bank account} Step5 {Key Fact Statement and agreement} Step6 {accept and sign} other {submitted}}",
    setUpAutopay: "Set up autopay",
    seeStatus: "See status",
    agreement: "Signed agreement",
    none: "You have no loan applications yet.",
  },
  apply: {
    emi: {
      open: "Apply for an EMI loan",
      continue: "Continue your EMI loan application",
      closed: "A new EMI loan is not open to you now.",
    },
    salary_advance: {
      open: "Apply for a salary advance",
      continue: "Continue your salary advance application",
      closed: "A new salary advance is not open to you now.",
    },
    closedBoth: "A new loan is not open to you now.",
  },
  kyc: {
    heading: "Your KYC profile",
    progress: "{done} of {total} sections complete",
    progressLabel: "KYC sections complete",
    completeBoth: "Your profile is complete: you can apply for either loan. Keep it up to date if anything changes.",
    completeEmi:
      "Your profile is complete: you can apply for an EMI loan (a salary advance is for salaried people). Keep it up to date if anything changes.",
    stillToDo: "Still to do: {items}.",
    view: "View your profile",
    seeMissing: "See what is missing",
  },
  account: {
    heading: "Your account",
    signedInAs: "Signed in as",
    notAdded: "not added yet",
    memberSince: "Member since",
  },
  device: {
    heading: "This device",
    browser: "Browser",
    browserOn: "{browser} on {os}",
    aBrowser: "a browser",
    signedIn: "Signed in",
    signedInAt: "{when} (India time)",
    oneDevice: "Your account is signed in on one device at a time. Signing in somewhere else signs this device out.",
    signOut: "Sign out",
  },
  requests: {
    heading: "Waiting for you",
    intro: "Our credit team needs one more thing before it can decide your application.",
    asked: "<strong>{kind, select, emi {EMI loan} other {Salary advance}} <mono>{reference}</mono></strong>, asked on {date}:",
    noteLabel: "A note for the officer (optional)",
    answerLabel: "Your answer",
    sendUploaded: "I have uploaded it: send",
    send: "Send answer",
    answered: "Thank you. Your answer is with the credit officer.",
    notOpen: "That request is no longer open.",
    tooLong: "Keep your answer under 1,000 characters.",
    writeAnswer: "Write your answer to the question.",
    uploadFirst:
      "Upload your {document, select, pan_card {PAN card} aadhaar_front {Aadhaar, front (masked)} aadhaar_back {Aadhaar, back (masked)} salary_slip_1 {Salary slip, latest month} salary_slip_2 {Salary slip, month before} salary_slip_3 {Salary slip, two months before} itr_1 {Income-tax return, latest year} itr_2 {Income-tax return, year before} bank_statement {Bank statement} other {Selfie}} again first (Profile, Documents), then send.",
  },
} as const;
