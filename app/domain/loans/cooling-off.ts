/**
 * The cooling-off rule in words (docs/product.md "Loan servicing"): the one sentence the Key Fact
 * Statement, the agreement, the help answer, the loan page and the cancellation letter all print, so
 * that what the borrower is promised and what the replay charges (`coolingOffQuote`) never differ.
 */
export const coolingOffRule = (days: number) =>
  `Within ${days} days of disbursal you may cancel the loan with no penalty by repaying the net amount you received plus its cost at the APR for the days used (net amount × APR × days ÷ 365; nothing for the day of disbursal itself). This is never more than closing the loan the same day would cost: in effect the processing fee and its GST are returned, except their share for the days used.`;
