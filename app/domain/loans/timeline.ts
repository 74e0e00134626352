/**
 * An application's steps as the borrower follows them (docs/product.md "Loan applications"): what
 * is done and when, who acts next, and by when (a decision within one working day of signing; the
 * money within one working day of approval). Its words are keys of the catalogue (applyFlow.timeline,
 * app/i18n/form-message.ts) with their dates written in `language`. Pure.
 */
import { addWorkingDays, type IsoDate } from "../loan-math.ts";
import { longDate } from "../india-date.ts";
import type { LoanStatus } from "./lifecycle.ts";
import type { Language } from "../../i18n/languages.ts";
import { msg } from "../../i18n/form-message.ts";

export type StepState = "done" | "now" | "waiting_for_you" | "todo" | "stopped";

export interface TimelineStep {
  key: "signed" | "review" | "decision" | "money";
  /** A message key (app/i18n/form-message.ts). */
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
  /** The language the dates in the words are written in. */
  language?: Language;
}

/** The steps up to an approval, all done. */
const approved = (signed: TimelineStep, f: TimelineFacts): TimelineStep[] => [
  signed,
  { key: "review", label: msg("applyFlow.timeline.reviewed"), state: "done" },
  {
    key: "decision",
    label: f.decidedOn
      ? msg("applyFlow.timeline.approvedOn", { date: longDate(f.decidedOn, f.language) })
      : msg("applyFlow.timeline.approved"),
    state: "done",
  },
];

export function applicationTimeline(f: TimelineFacts): Timeline {
  const signed: TimelineStep = {
    key: "signed",
    label: f.signedOn ? msg("applyFlow.timeline.signedOn", { date: longDate(f.signedOn, f.language) }) : msg("applyFlow.timeline.sign"),
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
            ? { key: "review", label: msg("applyFlow.timeline.askedYou"), state: "waiting_for_you" }
            : {
                key: "review",
                label: f.status === "signed" ? msg("applyFlow.timeline.waitingReview") : msg("applyFlow.timeline.reviewing"),
                state: "now",
              },
          { key: "decision", label: msg("applyFlow.timeline.decision"), state: "todo" },
          { key: "money", label: msg("applyFlow.timeline.moneySent"), state: "todo" },
        ],
        next: f.waitingForYou
          ? msg("applyFlow.timeline.next.yourTurn")
          : decideBy
            ? msg("applyFlow.timeline.next.decideBy", { date: longDate(decideBy, f.language) })
            : msg("applyFlow.timeline.next.decide"),
      };
    case "approved":
      if (f.autopayFirst && !f.payoutInFlight)
        return {
          steps: [...approved(signed, f), { key: "money", label: msg("applyFlow.timeline.autopayFirst"), state: "waiting_for_you" }],
          next: msg("applyFlow.timeline.next.autopay"),
        };
      return {
        steps: [
          ...approved(signed, f),
          {
            key: "money",
            label: f.payoutInFlight ? msg("applyFlow.timeline.moneyOnWay") : msg("applyFlow.timeline.moneySent"),
            state: "now",
          },
        ],
        next: payBy
          ? f.payoutInFlight
            ? msg("applyFlow.timeline.next.onWayBy", { date: longDate(payBy, f.language) })
            : msg("applyFlow.timeline.next.payBy", { date: longDate(payBy, f.language) })
          : msg("applyFlow.timeline.next.pay"),
      };
    case "active":
    case "closed":
    case "written_off":
      return {
        steps: [
          ...approved(signed, f),
          {
            key: "money",
            label: f.disbursedOn
              ? msg("applyFlow.timeline.moneySentOn", { date: longDate(f.disbursedOn, f.language) })
              : msg("applyFlow.timeline.moneySent"),
            state: "done",
          },
        ],
        next: null,
      };
    case "rejected":
      return {
        steps: [
          signed,
          { key: "review", label: msg("applyFlow.timeline.reviewed"), state: "done" },
          {
            key: "decision",
            label: f.decidedOn
              ? msg("applyFlow.timeline.notApprovedOn", { date: longDate(f.decidedOn, f.language) })
              : msg("applyFlow.timeline.notApproved"),
            state: "stopped",
          },
        ],
        next: null,
      };
    case "cancelled":
      return { steps: [signed, { key: "decision", label: msg("applyFlow.timeline.cancelled"), state: "stopped" }], next: null };
    default:
      return { steps: [signed], next: null };
  }
}
