// The terms and conditions (/terms-and-conditions). Hindi in ../hi/terms.ts.
export default {
  meta: {
    title: "Terms and conditions",
    description: "The terms of using this website and applying for a loan.",
  },
  heading: "Terms and conditions",
  intro:
    "These terms apply to your use of {brand}, the digital lending platform of {lender}. Each loan is also governed by its own Key Fact Statement and loan agreement, which you read and sign before the loan is made; where they differ from these terms, the signed documents prevail.",
  who: {
    heading: "Who can apply",
    residents: "Indian residents aged 21 to 60 years on the date of application.",
    income: "With a net monthly income of at least ₹15,000.",
    salaryAdvance: "Salary advances are only for salaried people, as they are repaid from the salary.",
  },
  account: {
    heading: "Your account",
    signIn: "You sign in with your mobile number and a one-time code sent by SMS. Never share a code with anyone.",
    oneDevice: "Your account is signed in on one device at a time: signing in on a new device signs the old one out.",
    trueInformation: "You must give true and complete information and keep it up to date.",
  },
  loans: {
    heading: "Loans, fees and charges",
    disclosure:
      "Every loan states, before you sign: the amount, the interest rate, each fee (a processing fee plus 18% GST, deducted from the amount paid out), the annual percentage rate (APR) and the full repayment schedule.",
    penal: "A missed instalment or repayment attracts a flat penal charge of ₹500. It is never compounded and never earns interest.",
    early:
      "You may repay an EMI loan in full at any time with no foreclosure charge; a salary advance repaid early costs interest only for the days used.",
    /** The cooling-off rule of app/domain/loans/cooling-off.ts (coolingOffRule), whole. */
    coolingOff:
      "Cooling-off: Within {days, plural, one {# day} other {# days}} of disbursal you may cancel the loan with no penalty by repaying the net amount you received plus its cost at the APR for the days used (net amount × APR × days ÷ 365; nothing for the day of disbursal itself). This is never more than closing the loan the same day would cost: in effect the processing fee and its GST are returned, except their share for the days used.",
    ownAccount: "Money is paid only into the bank account in your own name that you verified with us.",
  },
  repayment: {
    heading: "Repayment and default",
    body: "Instalments are due on the dates in your schedule. If a payment is late, the loan becomes overdue and is counted in days past due; we report repayment history to credit information companies as the law requires. Reminders and recovery follow the RBI's fair practices code: politely, at reasonable hours, and never with threats.",
  },
  website: {
    heading: "Using this website",
    access: "Do not try to access another person's account or data, or to disrupt the service.",
    suspend: "We may suspend an account used for fraud or in breach of these terms.",
    general: "The information on this site is general; your signed documents set out your own loan.",
  },
  changes: {
    heading: "Complaints, law and changes",
    body: "Complaints are handled under our <link>grievance redressal policy</link>. These terms are governed by the laws of India. We may change these terms; a change never alters a loan you have already signed, and we tell you of changes that affect you before they apply.",
  },
  privacy: "How we use your data is explained in our <link>privacy policy</link>.",
} as const;
