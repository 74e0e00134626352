// The rates page (/Rate-terms): each product's terms from the live product data, how the rate is
// set and a worked example of each. ICU messages; Hindi in ../hi/rates.ts.
export default {
  meta: {
    title: "Rates, fees and terms",
    description: "Interest rates, every fee with GST, penal charges, foreclosure and worked examples with the APR.",
  },
  heading: "Rates, fees and terms",
  intro:
    "These are the current terms of our loans. Your own Key Fact Statement, given before you sign, shows your exact rate, every charge, the APR and the full repayment schedule.",
  terms: {
    amount: "Amount",
    tenure: "Tenure",
    repayment: "Repayment",
    interest: "Interest",
    processingFee: "Processing fee",
    penalCharge: "Penal charge",
    foreclosure: "Foreclosure",
    coolingOff: "Cooling-off period",
    whoCanApply: "Who can apply",
  },
  /** The same words as coolingOffRule (app/domain/loans/cooling-off.ts), which the KFS and the agreement print. */
  coolingOff:
    "Within {days, plural, one {# day} other {# days}} of disbursal you may cancel the loan with no penalty by repaying the net amount you received plus its cost at the APR for the days used (net amount × APR × days ÷ 365; nothing for the day of disbursal itself). This is never more than closing the loan the same day would cost: in effect the processing fee and its GST are returned, except their share for the days used.",
  workedExample: "Worked example",
  emi: {
    name: "EMI loan",
    amount: "{min} to {max}, in steps of {step}",
    tenure: "{min} to {max} monthly instalments",
    interest: "{min} to {max} a year, fixed, on the reducing balance",
    processingFee: "{fee} of the amount, at least {minFee}, plus {gst} GST; one-time, payable to us, deducted from the amount paid out",
    penalCharge:
      "{amount} for each missed instalment, a flat charge: never compounded, never earning interest, never added to the loan, shown as its own line",
    foreclosure: "Repay in full at any time, no charge: the outstanding principal and interest up to that day",
    whoCanApply: "Salaried or self-employed, age 21 to 60, net monthly income at least ₹15,000",
    bands: {
      label: "How your rate is set (scrolls sideways)",
      caption: "How your rate is set",
      income: "Net monthly income",
      existingEmis: "Existing EMIs",
      rate: "Rate a year",
      incomeAtLeast: "{amount} or more",
      emisAtMost: "at most {percent} of income",
      any: "Any",
    },
    example:
      "{amount} at {rate} for {months, plural, one {# month} other {# months}}. Processing fee {fee} + GST {gst}, so you receive <money>{net}</money>. EMI <emiFigure>{emi}</emiFigure>; total interest {interest}; total cost of the loan (interest and fees) {cost}; APR <aprFigure>{apr}%</aprFigure>.",
    exampleWithLast:
      "{amount} at {rate} for {months, plural, one {# month} other {# months}}. Processing fee {fee} + GST {gst}, so you receive <money>{net}</money>. EMI <emiFigure>{emi}</emiFigure> (last instalment {last}); total interest {interest}; total cost of the loan (interest and fees) {cost}; APR <aprFigure>{apr}%</aprFigure>.",
    openInCalculator: "Open this example in the EMI calculator",
  },
  salaryAdvance: {
    name: "Salary advance",
    amount: "{min} to {max}, in steps of {step}, and at most {cap} of your net monthly salary",
    repayment:
      "One repayment on your next salary date, {min} to {max} days after disbursal (if your next salary is less than {min} days away, the one after)",
    interest: "{rate} a day on the principal, simple interest, only for the days you use",
    processingFee: "{fee} of the amount plus {gst} GST; one-time, payable to us, deducted from the amount paid out",
    penalCharge: "{amount} once if the repayment is missed; never compounded, never earning interest",
    foreclosure: "Repay early at any time; interest only for the days used",
    whoCanApply: "Salaried people only, age 21 to 60, net monthly income at least ₹15,000",
    example:
      "{amount} for {days, plural, one {# day} other {# days}}. Processing fee {fee} + GST {gst}, so you receive <money>{net}</money>. Interest {interest}; you repay <money>{repayment}</money> on your salary date; total cost {cost}; APR <money>{apr}%</money>.",
  },
  aprNote:
    "APR (annual percentage rate) is the yearly cost of the loan including the fees, worked out as the Reserve Bank of India's Key Fact Statement requires. Complaints: see our <link>grievance redressal policy</link>.",
} as const;
