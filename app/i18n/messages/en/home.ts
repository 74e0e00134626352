// The public home page (/ and /homeComponents/{section}): its sections' words. The calculator's own
// words are in the "calculator" namespace; published borrower feedback is shown as written.
export default {
  meta: {
    title: "Personal loans and salary advances",
    description: "EMI loans and salary advances with every charge shown before you sign. Apply with your mobile number.",
  },
  sections: {
    top: "Personal loans and salary advances",
    calculator: "EMI calculator",
    choose: "Why choose us",
    loanProcess: "How a loan works",
    feedback: "What borrowers say",
    apk: "Install the app",
  },
  top: {
    heading: "Personal loans and salary advances, with every rupee shown before you sign",
    intro:
      "Borrow {minAmount} to {maxAmount} over {minMonths} to {maxMonths} months, or get up to {salaryCapPercent}% of your salary ahead of payday. Apply from your phone with your mobile number; no branch visit, no paperwork by post.",
    apply: "Apply now",
    rates: "Rates and charges",
    emiRate: "Interest on EMI loans",
    emiRateNote: "a year, fixed, reducing balance",
    emiAmount: "EMI loan amount",
    upTo: "up to {amount}",
    emiAmountNote: "{min}–{max} monthly instalments",
    salaryAdvance: "Salary advance",
    salaryAdvanceNote: "repaid on your salary date",
    foreclosure: "Foreclosure charge",
    foreclosureNote: "repay early any time",
  },
  calculator: {
    heading: "Work out your EMI",
    intro: "The same method as your Key Fact Statement. Open the full calculator for the repayment schedule and a part-payment plan.",
  },
  choose: {
    heading: "Why borrowers choose {brand}",
    rates: {
      title: "Clear rates",
      text: "EMI loans at {minRate}% to {maxRate}% a year, fixed, on the reducing balance. Salary advances at {dailyRate}% a day, only for the days you use.",
    },
    charges: {
      title: "No hidden charges",
      text: "One processing fee ({emiFee}% on EMI loans, at least {minFee}; {advanceFee}% on salary advances) plus {gst}% GST, shown in your Key Fact Statement with the APR before you sign. No foreclosure charge.",
    },
    fast: {
      title: "Fast decisions",
      text: "You see your offer as soon as you answer a few questions. After you sign, our team verifies your documents and pays out to your bank account.",
    },
    account: {
      title: "Money only to your own account",
      text: "We pay only into the bank account in your own name that you verified with us, never to anyone else.",
    },
    fair: {
      title: "Fair when things go wrong",
      text: "A missed instalment costs a flat {penalCharge} penal charge: it never earns interest and is never added to your loan.",
      // The cooling-off rule, word for word as app/domain/loans/cooling-off.ts prints it in the KFS and the agreement.
      coolingOff:
        "Within {days, plural, one {# day} other {# days}} of disbursal you may cancel the loan with no penalty by repaying the net amount you received plus its cost at the APR for the days used (net amount × APR × days ÷ 365; nothing for the day of disbursal itself). This is never more than closing the loan the same day would cost: in effect the processing fee and its GST are returned, except their share for the days used.",
    },
    data: {
      title: "Your data, minimised",
      text: "{brand} never asks for your contacts, call logs, files or location. Your PAN and bank account number are encrypted.",
    },
  },
  process: {
    heading: "How a loan works, from application to money in your account",
    stepHeading: "<hidden>Step {number}: </hidden>{title}",
    signIn: {
      title: "Sign in with your mobile",
      text: "Enter your mobile number and the one-time code we send by SMS. That creates your account.",
    },
    about: {
      title: "Tell us about yourself",
      text: "Your name, date of birth, PAN, PIN code, work and income. It takes a few minutes.",
    },
    offer: {
      title: "See your offer",
      text: "The amount you can borrow, the EMI or repayment, and the APR, worked out from clear rules.",
    },
    kyc: {
      title: "Complete your KYC",
      text: "Add your address, bank account, references, documents and a selfie taken in the browser.",
    },
    sign: {
      title: "Read and sign",
      text: "Read the Key Fact Statement and loan agreement, then sign with a one-time code. You get a copy by SMS.",
    },
    disbursal: {
      title: "Verification and disbursal",
      text: "Our team verifies your details and pays the loan into your own verified bank account.",
    },
  },
  feedback: {
    heading: "What borrowers say",
    none: "No published feedback yet.",
    rated: "Rated {rating} out of 5",
    sample: "Sample feedback (demo data)",
  },
  apk: {
    heading: "Keep {brand} on your home screen",
    intro: "Install this site as an app: it opens full screen, like any other app, and takes almost no space.",
    steps:
      "On Android in Chrome, open the menu (⋮) and choose “Install app” or “Add to Home screen”. On an iPhone in Safari, tap Share and then “Add to Home Screen”.",
    install: "Install the app",
    installed: "Installed. Find it on your home screen.",
    dismissed: "Not installed. You can install it later from the browser menu.",
    android: "Get the Android app",
  },
} as const;
