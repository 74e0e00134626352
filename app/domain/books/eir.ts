/**
 * Ind AS 109's effective interest rate (docs/product.md "The lender's books"): the processing fee
 * is not income at disbursal but is spread over the loan's life so that the lender's net
 * investment (principal less the fee) earns one constant rate per period on the scheduled
 * instalments. Pure; integer paise out, summing exactly to the fee.
 */
export function feeAmortisation(
  instalments: readonly { seq: number; principalPaise: number; interestPaise: number }[],
  principalPaise: number,
  feePaise: number,
): Map<number, number> {
  const rows = [...instalments].sort((a, b) => a.seq - b.seq);
  const out = new Map<number, number>();
  if (rows.length === 0 || feePaise <= 0) return out;
  const invested = principalPaise - feePaise;
  const pv = (r: number) => rows.reduce((s, row, k) => s + (row.principalPaise + row.interestPaise) / (1 + r) ** (k + 1), 0);
  // The rate per period at which the instalments are worth what was invested: bisection (pv falls as r rises).
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (pv(mid) > invested) lo = mid;
    else hi = mid;
  }
  const rate = (lo + hi) / 2;
  let carrying = invested;
  let given = 0;
  rows.forEach((row, k) => {
    const last = k === rows.length - 1;
    const income = carrying * rate;
    const part = last ? feePaise - given : Math.min(feePaise - given, Math.max(0, Math.round(income - row.interestPaise)));
    out.set(row.seq, part);
    given += part;
    carrying = carrying + income - (row.principalPaise + row.interestPaise);
  });
  return out;
}
