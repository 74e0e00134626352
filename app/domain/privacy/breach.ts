// The personal-data breach register (Digital Personal Data Protection Act, 2023, section 8(6); DPDP
// Rules, 2025, rule 7): the form that records a breach (one schema for the browser and the server),
// when its report to the Data Protection Board is due (72 hours from becoming aware), and the words
// of its two drafts (breach-drafts.ts). Pure: the clock is passed in.
import { z } from "zod";
import { fromIstDateTimeInput } from "../india-date.ts";
import { INDIAN_MOBILE_MESSAGE, normalizeIndianMobile } from "../validators/mobile.ts";
import { BREACH_REPORT_HOURS, DATA_ITEMS, type DataItemId } from "./notice.ts";

export const BREACH_SCOPES = ["all", "listed"] as const;
export type BreachScope = (typeof BREACH_SCOPES)[number];

/** Who a breach affected, as the form offers it. */
export const BREACH_SCOPE_LABEL: Record<BreachScope, string> = {
  all: "Every borrower (all borrower accounts)",
  listed: "Only the borrowers whose mobile numbers I list",
};

/** At most this many mobile numbers are listed in the form; a breach that touched more is recorded for every borrower. */
export const MAX_LISTED_BORROWERS = 5000;

const DATA_ITEM_IDS = DATA_ITEMS.map((item) => item.id) as [DataItemId, ...DataItemId[]];

/** The mobile numbers of a list typed one a line or separated by commas: the valid ones once each, and what is not a number. */
export function parseMobiles(text: string | undefined): { mobiles: string[]; invalid: string[] } {
  const mobiles = new Set<string>();
  const invalid: string[] = [];
  for (const entry of (text ?? "").split(/[\n,;]+/)) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const mobile = normalizeIndianMobile(trimmed);
    if (mobile) mobiles.add(mobile);
    else invalid.push(trimmed);
  }
  return { mobiles: [...mobiles], invalid };
}

const words = (what: string, min: number, max: number) =>
  z
    .string({ error: `Write ${what}.` })
    .trim()
    .min(min, `Write ${what}, in at least ${min} characters.`)
    .max(max, `Keep it under ${max.toLocaleString("en-IN")} characters.`);

/** A `datetime-local` value (India time), as the instant it names; not after `now`. */
const moment = (what: string, now: Date) =>
  z
    .string({ error: `Give ${what}.` })
    .trim()
    .transform((value, ctx) => {
      const at = fromIstDateTimeInput(value);
      if (!at) {
        ctx.addIssue({ code: "custom", message: `Give ${what} as a date and a time.` });
        return z.NEVER;
      }
      if (at.getTime() > now.getTime()) {
        ctx.addIssue({ code: "custom", message: `${what[0]?.toUpperCase()}${what.slice(1)} cannot be in the future.` });
        return z.NEVER;
      }
      return at;
    });

/**
 * The form that records a breach, as of `now` (neither time may be in the future). For a breach of
 * listed borrowers, the numbers are checked here for their shape; that each is a borrower's is
 * checked by the server, which names the unknown ones next to the field.
 */
export function breachFormSchema(now: Date) {
  return z
    .object({
      discoveredAt: moment("when you became aware of the breach", now),
      occurredAt: moment("when the breach happened", now).optional(),
      description: words("what happened: its nature, where and how", 20, 4000),
      dataItems: z
        .array(z.enum(DATA_ITEM_IDS, { error: "That is not a kind of personal data we keep." }), {
          error: "Tick each kind of personal data involved.",
        })
        .min(1, "Tick each kind of personal data involved."),
      consequences: words("the consequences likely for the borrowers", 10, 2000),
      mitigation: words("what we have done and are doing to limit the harm", 10, 2000),
      borrowerSteps: words("what a borrower can do to protect themselves", 10, 2000),
      scope: z.enum(BREACH_SCOPES, { error: "Choose who the breach affected." }),
      mobiles: z.string().max(120_000, "That is too long a list: record the breach for every borrower instead.").optional(),
    })
    .superRefine(
      (v, ctx) => {
        if (v.discoveredAt instanceof Date && v.occurredAt instanceof Date && v.occurredAt.getTime() > v.discoveredAt.getTime())
          ctx.addIssue({ code: "custom", path: ["occurredAt"], message: "It cannot have happened after you became aware of it." });
        if (v.scope !== "listed") return;
        const { mobiles, invalid } = parseMobiles(v.mobiles);
        const problem = invalid.length
          ? `Not a mobile number: ${invalid.slice(0, 10).join(", ")}${invalid.length > 10 ? ` and ${invalid.length - 10} more` : ""}. ${INDIAN_MOBILE_MESSAGE}`
          : mobiles.length === 0
            ? "List the mobile number of each affected borrower, one a line or separated by commas."
            : mobiles.length > MAX_LISTED_BORROWERS
              ? `List at most ${MAX_LISTED_BORROWERS.toLocaleString("en-IN")} numbers, or record the breach for every borrower.`
              : null;
        if (problem) ctx.addIssue({ code: "custom", path: ["mobiles"], message: problem });
      },
      // The time's order and the list are said beside their fields even while another field is wrong.
      { when: () => true },
    )
    .transform(({ mobiles, ...v }) => ({
      ...v,
      occurredAt: v.occurredAt ?? null,
      mobiles: v.scope === "listed" ? parseMobiles(mobiles).mobiles : [],
    }));
}
export type BreachForm = z.output<ReturnType<typeof breachFormSchema>>;

/** The field error naming listed numbers that are no borrower's. */
export const unknownMobilesMessage = (mobiles: readonly string[]) =>
  `No borrower has ${mobiles.length === 1 ? "this number" : "these numbers"}: ${mobiles.slice(0, 20).join(", ")}${
    mobiles.length > 20 ? ` and ${mobiles.length - 20} more` : ""
  }. Nothing was recorded.`;

/** The Board's reference for the report made through its portal. */
export const boardReportSchema = z.object({
  boardReference: z
    .string({ error: "Give the reference the Board's portal gave the report." })
    .trim()
    .min(3, "Give the reference the Board's portal gave the report.")
    .max(100, "Keep the reference under 100 characters."),
});

const HOUR_MS = 3600_000;

/** When the detailed report to the Board is due: 72 hours after the lender became aware. */
export const breachDueAt = (discoveredAt: Date) => new Date(discoveredAt.getTime() + BREACH_REPORT_HOURS * HOUR_MS);

export interface BreachDue {
  due: Date;
  late: boolean;
  /** "41 hours left", "less than an hour left", "LATE", or, once reported, "reported" (with "late" when it was). */
  text: string;
}

/** How the Board's report stands at `now`: its due time, and the hours left or that it is late. */
export function breachDue(discoveredAt: Date, now: Date, boardReportedAt: Date | null = null): BreachDue {
  const due = breachDueAt(discoveredAt);
  if (boardReportedAt) {
    const late = boardReportedAt.getTime() > due.getTime();
    return { due, late, text: late ? "reported late" : "reported in time" };
  }
  const left = due.getTime() - now.getTime();
  if (left < 0) return { due, late: true, text: "LATE" };
  const hours = Math.floor(left / HOUR_MS);
  return { due, late: false, text: hours === 0 ? "less than an hour left" : `${hours} ${hours === 1 ? "hour" : "hours"} left` };
}

/** A breach is open until the Board has its report and the borrowers their notices: open ones come first in the register. */
export const breachOpen = (b: { boardReportedAt: Date | null; noticesSentAt: Date | null }) => !b.boardReportedAt || !b.noticesSentAt;

/** Sending the notices: ticked once the notice has been read, since it goes to every affected borrower at once. */
export const sendNoticesSchema = z.object({
  confirm: z.literal("yes", { error: "Tick the box once you have read the notice: it goes to every affected borrower." }),
});

/** A breach's reference as the register gives it ("BR-" and 8 characters of Crockford's base 32), or null. */
export const parseBreachReference = (value: string | undefined) => {
  const reference = (value ?? "").trim().toUpperCase();
  return /^BR-[0-9A-HJKMNP-TV-Z]{8}$/.test(reference) ? reference : null;
};
