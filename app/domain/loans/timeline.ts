/**
 * An application's steps as the borrower follows them (docs/product.md "Loan applications"): what
 * is done and when, who acts next, and by when (a decision within one working day of signing; the
 * money within one working day of approval). Every wording whole, in this one place. Pure.
 */
import { addWorkingDays, type IsoDate } from "../loan-math.ts";
import { longDate } from "../india-date.ts";
import type { LoanStatus } from "./lifecycle.ts";

export type StepState = "done" | "now" | "waiting_for_you" | "todo" | "stopped";

export interface TimelineStep {
  key: "signed" | "review" | "decision" | "money";
  label: string;
  state: StepState;
}

export interface Timeline {
  steps: TimelineStep[];
  /** Who acts next and by when; null when nothing more happens. */
  next: string | null;
}

export interface TimelineFacts {
  status: LoanStatus;
  /** India dates of the events so far. */
  signedOn: IsoDate | null;
  decidedOn: IsoDate | null;
  disbursedOn: IsoDate | null;
  /** An officer's question or document request not yet answered. */
  waitingForYou: boolean;
  /** A payout to the borrower is on its way. */
  payoutInFlight: boolean;
  /** Approved, but the product pays out only once autopay is active, and it is not yet. */
  autopayFirst?: boolean;
  holidays: readonly IsoDate[];
}

/** The steps up to an approval, all done. */
const approved = (signed: TimelineStep, f: TimelineFacts): TimelineStep[] => [
  signed,
  { key: "review", label: "Reviewed by a credit officer", state: "done" },
  { key: "decision", label: f.decidedOn ? `Approved on ${longDate(f.decidedOn)}` : "Approved", state: "done" },
];

export function applicationTimeline(f: TimelineFacts): Timeline {
  const signed: TimelineStep = {
    key: "signed",
    label: f.signedOn ? `You signed on ${longDate(f.signedOn)}` : "You sign the Key Fact Statement and agreement",
    state: f.signedOn ? "done" : "todo",
  };
  const decideBy = f.signedOn ? addWorkingDays(f.signedOn, 1, f.holidays) : null;
  const payBy = f.decidedOn ? addWorkingDays(f.decidedOn, 1, f.holidays) : null;
  switch (f.status) {
    case "signed":
    case "under_review":
      return {
        steps: [
          signed,
          f.waitingForYou
            ? { key: "review", label: "A credit officer has asked you for something (see below)", state: "waiting_for_you" }
            : {
                key: "review",
                label: f.status === "signed" ? "Waiting for a credit officer to review it" : "A credit officer is reviewing it",
                state: "now",
              },
          { key: "decision", label: "Decision", state: "todo" },
          { key: "money", label: "Money sent to your bank account", state: "todo" },
        ],
        next: f.waitingForYou
          ? "Next it is your turn: answer the credit officer's request. The review goes on as soon as you have."
          : decideBy
            ? `Next a credit officer decides, by the end of ${longDate(decideBy)}. We send you an SMS either way.`
            : "Next a credit officer decides. We send you an SMS either way.",
      };
    case "approved":
      if (f.autopayFirst && !f.payoutInFlight)
        return {
          steps: [
            ...approved(signed, f),
            { key: "money", label: "Set up autopay (see below): the money is sent once it is active", state: "waiting_for_you" },
          ],
          next: "Next it is your turn: set up autopay below. We send the money as soon as your bank confirms it.",
        };
      return {
        steps: [
          ...approved(signed, f),
          {
            key: "money",
            label: f.payoutInFlight ? "The money is on its way to your bank account" : "Money sent to your bank account",
            state: "now",
          },
        ],
        next: payBy
          ? f.payoutInFlight
            ? `The money is on its way to your bank account and arrives by the end of ${longDate(payBy)}. We send you an SMS with the bank's reference.`
            : `Next we send the money to your bank account, by the end of ${longDate(payBy)}. We send you an SMS with the bank's reference.`
          : "Next we send the money to your bank account. We send you an SMS with the bank's reference.",
      };
    case "active":
    case "closed":
    case "written_off":
      return {
        steps: [
          ...approved(signed, f),
          {
            key: "money",
            label: f.disbursedOn ? `Money sent to your bank account on ${longDate(f.disbursedOn)}` : "Money sent to your bank account",
            state: "done",
          },
        ],
        next: null,
      };
    case "rejected":
      return {
        steps: [
          signed,
          { key: "review", label: "Reviewed by a credit officer", state: "done" },
          { key: "decision", label: f.decidedOn ? `Not approved on ${longDate(f.decidedOn)}` : "Not approved", state: "stopped" },
        ],
        next: null,
      };
    case "cancelled":
      return { steps: [signed, { key: "decision", label: "Cancelled", state: "stopped" }], next: null };
    default:
      return { steps: [signed], next: null };
  }
}
