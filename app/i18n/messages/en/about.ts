export default {
  meta: {
    title: "About us",
    description: "Who we are, how we lend and how we look after borrowers.",
  },
  heading: "About {brand}",
  intro:
    "{brand} is the digital lending platform of {lender}, a non-banking financial company (NBFC) registered with the Reserve Bank of India. The loans you take through {brand} are given by {lender}, on its own books, under the RBI's rules for digital lending.",
  facts: {
    lender: "Lender",
    rbiRegistration: "RBI registration",
    cin: "Corporate identity (CIN)",
    office: "Registered office",
  },
  offer: {
    heading: "What we offer",
    emi: "<strong>EMI loans</strong> for salaried and self-employed people: a fixed interest rate on the reducing balance, repaid in equal monthly instalments.",
    salaryAdvance:
      "<strong>Salary advances</strong> for salaried people: a short loan repaid in one payment on your next salary date, with interest only for the days you use it.",
    published: "The current amounts, tenures, rates and every charge are published with the product details on this site.",
  },
  how: {
    heading: "How we lend",
    apply: "You apply from your phone with your mobile number and a one-time code; no agent visits, no paperwork by post.",
    rules: "Your offer comes from clear, written rules about age, income and existing EMIs, and we tell you why if you are not eligible.",
    kfs: "Before you sign you receive the Key Fact Statement: the amount, every fee, the annual percentage rate (APR) and the full repayment schedule.",
    sign: "You sign the agreement with a one-time code, and a copy is sent to you.",
    verify: "Our staff verify your details before any money moves, and we pay only into your own verified bank account.",
  },
  commitments: {
    heading: "Our commitments",
    hidden: "No hidden charges: a charge that is not in your Key Fact Statement is not charged.",
    penal: "Penal charges are flat charges, never added to your loan and never earning interest.",
    early: "You may repay early at any time, and you may exit a new loan within the cooling-off period.",
    access: "We never ask for access to your contacts, call logs, files or location.",
    grievance:
      "A named grievance officer answers complaints within 30 days; you can then go to the RBI Integrated Ombudsman. See our <link>grievance redressal policy</link>.",
  },
  more: "Read how we handle your data in our <privacy>privacy policy</privacy>, or <contact>write to us</contact>.",
} as const;
