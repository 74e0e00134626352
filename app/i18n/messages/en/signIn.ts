// The quick start's front page (/quickStart) and the borrower's sign-in (/quickStart/Otp): the mobile
// number, then the one-time code. ICU messages; Hindi in ../hi/signIn.ts.
export default {
  front: {
    meta: {
      title: "Quick start",
      description: "Apply for an EMI loan or a salary advance: seven short steps to your offer, saved as you go.",
    },
    heading: "Quick start: see your offer in a few minutes",
    intro:
      "First we send a one-time code to your mobile number (this also creates your account). Then {count} short steps. Each answer is saved as you go: stop at any time and carry on later, on any device, after signing in again.",
    /** A step in the list: "Step n: " is read out, not shown (the number is shown beside it). */
    stepTitle: "<hidden>Step {number}: </hidden>{title}",
    done: "done",
    steps: {
      loan: { title: "Loan and amount", what: "The kind of loan and the amount you need." },
      you: { title: "About you", what: "Your name, date of birth and PAN, as on your PAN card." },
      pin: { title: "Where you live", what: "The PIN code where you live." },
      income: { title: "Work and income", what: "Whether you are salaried or self-employed, your net monthly income and salary day." },
      emis: { title: "Existing EMIs", what: "The EMIs you pay now, if any." },
      offer: { title: "Your offer", what: "Your offer: how much you can borrow, the EMI or repayment, and the APR with all charges." },
      consent: { title: "Consents", what: "Your consent to the KYC checks, then on to your loan application." },
    },
    handy: "Keep your PAN card handy. We never ask for your contacts, call logs, files or location.",
    afterOffer:
      "After the offer, your loan application needs your full KYC profile: address, bank account, documents and a selfie (and two references for an EMI loan). The application shows what is left as one checklist, and your answers here are already in it.",
    finished: "You have finished the quick start: your loan application is on your dashboard.",
    dashboard: "Go to your dashboard",
    continueAt: "Continue at step {number}: {title}",
    start: "Start the quick start",
  },
  otp: {
    meta: {
      title: "Sign in",
      description: "Sign in with your mobile number and a one-time code.",
    },
    heading: {
      link: "Verify your mobile number",
      quickStart: "Quick start: your mobile number",
      signIn: "Sign in to {brand}",
    },
    lead: {
      link: "Add your mobile number to continue. We send a one-time code to check that it is yours.",
      quickStart:
        "We send a one-time code to check the number is yours; this creates your account. Been here before? You carry on where you left off.",
      signIn: "Enter your mobile number and we will send you a one-time code. New here? The same steps create your account.",
    },
    agreementLinkEnded:
      "A signed agreement opens from its link for {days, plural, one {# day} other {# days}} after signing. After that, sign in with the mobile number it was signed with to see it. It is also kept with your loan's documents.",
    mobileLabel: "Mobile number",
    mobileHint: "10 digits. We send a code by SMS.",
    send: "Send code",
    codeSent: "We sent a 6-digit code to {mobile}.",
    codeLabel: "One-time code",
    codeHint: "The code is valid for 5 minutes.",
    verify: "Verify and continue",
    resendIn: "Resend code in {seconds} s",
    resend: "Resend code",
    change: "Use a different number",
    facebook: "Continue with Facebook",
    facebookHint: "You will still verify a mobile number before you apply.",
    accept: "By continuing you accept our <terms>terms</terms> and <privacy>privacy policy</privacy>.",
    welcome: "Welcome! Your account is ready.",
    signedIn: "You are signed in.",
  },
  errors: {
    codeMissing: "Enter the 6-digit code from the SMS.",
    codeFormat: "The code is 6 digits, for example 123456.",
    timedOut: "Your sign-in timed out. Enter your mobile number again.",
    resendTooSoon: "A code was sent moments ago. You can ask for a new one in {seconds, plural, one {# second} other {# seconds}}.",
    numberLimit: "Too many codes were sent to this number in the last hour. Please try again after {time}.",
    ipLimit: "Too many codes were requested from your network in the last hour. Please try again after {time}.",
    smsFailed: "We could not send the SMS just now. Please try again in a minute.",
    noCode: "There is no code waiting for this number. Ask for a new code.",
    locked: "This code has had too many wrong tries and no longer works. Ask for a new code.",
    expired: "This code has expired (codes last {minutes} minutes). Ask for a new code.",
    wrong: "That code is not right. You have {left, plural, one {# try} other {# tries}} left.",
    lockedNow: "That code is not right, and it no longer works after {max} wrong tries. Ask for a new code.",
    otherAccount: "This mobile number belongs to another account. Sign in with it instead.",
    staffAccount: "Staff accounts sign in at the staff sign-in page.",
    staffSignedIn:
      "You are signed in with a staff account. Staff accounts cannot use the borrower area, link a mobile number or apply: sign out first.",
    closed: "This account is closed. Please contact us.",
    tryAgain: "Please try again.",
  },
} as const;
