/** Facts of the live products that the home page quotes (computed on the server from the product data). */
export interface HomeFacts {
  emi: {
    minAmountPaise: number;
    maxAmountPaise: number;
    minTenureMonths: number;
    maxTenureMonths: number;
    minRatePercent: number;
    maxRatePercent: number;
    feePercent: number;
    minFeePaise: number;
  };
  salaryAdvance: {
    minAmountPaise: number;
    maxAmountPaise: number;
    dailyRatePercent: number;
    feePercent: number;
    salaryCapPercent: number;
  };
  gstPercent: number;
  penalChargePaise: number;
  coolingOffDays: number;
}

export interface FeedbackItem {
  id: number;
  authorName: string;
  city: string;
  rating: number;
  body: string;
  isSample: boolean;
}

import type { CalculatorFeeRule, CalculatorLimits, CalculatorValues } from "./calculator.ts";
import type { CalculatorCheck } from "./calculator-input.ts";

export interface HomeData {
  calculator: {
    initial: CalculatorValues;
    check: CalculatorCheck;
    limits: CalculatorLimits;
    feeRule: CalculatorFeeRule;
  };
  facts: HomeFacts;
  feedback: FeedbackItem[];
  brandName: string;
  androidAppUrl: string | null;
}
