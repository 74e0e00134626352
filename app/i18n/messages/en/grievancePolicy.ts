// The grievance redressal policy (/grievance-policy). Hindi in ../hi/grievancePolicy.ts.
export default {
  meta: {
    title: "Grievance redressal policy",
    description: "How to complain, who answers, in how long, and how to escalate to the RBI.",
  },
  heading: "Grievance redressal policy",
  intro:
    '{lender} ("we") wants every complaint about {brand} handled quickly, fairly and in writing. This policy follows the Reserve Bank of India\'s directions on fair practices and digital lending.',
  officer: {
    heading: "Grievance officer",
    title: "Grievance Redressal Officer, {lender}",
    phone: "Phone: <phone>{phoneNumber}</phone>",
    email: "E-mail: <email>{emailAddress}</email>",
  },
  raise: {
    heading: "How to raise a complaint",
    how: "E-mail or call the grievance officer, or use our <link>contact form</link> and say that it is a complaint.",
    details:
      "Tell us your name, the mobile number on your account, the loan or application reference if you have one, what went wrong and what you would like us to do. Attach copies of anything that helps.",
    never: "Never send us your one-time codes, passwords or full card details. We will never ask for them.",
  },
  next: {
    heading: "What happens next",
    acknowledge: "We acknowledge your complaint with a reference number.",
    review: "The grievance officer, or someone reporting to them who was not involved, looks into it.",
    answer: "We give you a written answer within 30 days of receiving the complaint, with our reasons.",
    noPress: "While a complaint about a charge is being looked into, we do not press you for that charge.",
  },
  escalate: {
    heading: "If you are not satisfied",
    body: "If we do not answer within 30 days, or you are not satisfied with our answer, you may complain to the Reserve Bank of India under the Reserve Bank – Integrated Ombudsman Scheme, 2021, through its Complaint Management System at <link>cms.rbi.org.in</link>, or by calling the RBI's contact centre on 14448.",
  },
  fair: {
    heading: "Fair practices we hold ourselves to",
    penal: "Penal charges are flat charges, disclosed in advance, never compounded and never added to the principal.",
    polite: "Every reminder and recovery contact is polite, between 8 am and 7 pm, and never with threats or abuse.",
    names: "We tell you the name of anyone who contacts you on our behalf about a loan.",
  },
} as const;
