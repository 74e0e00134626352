// The compliance page's forms (docs/product.md "Sanctions screening"): the same schemas in the
// browser and on the server.
import { z } from "zod";
import { fromIstDateTimeInput } from "../india-date.ts";
import { MAX_GROUNDS, MIN_GROUNDS } from "./str.ts";
import { LIST_SOURCES, type ListSource } from "./types.ts";

/** A list file is at most this large (the UN's consolidated list is about 2 MB). */
export const MAX_LIST_BYTES = 20 * 1024 * 1024;
export const LIST_TOO_LARGE = "The file is larger than 20 MB: is it the list?";

export const loadListSchema = z.object({
  source: z.enum(LIST_SOURCES as [ListSource, ...ListSource[]], { message: "Choose which list this is" }),
  file: z
    .file({ message: "Choose the list's file" })
    .max(MAX_LIST_BYTES, LIST_TOO_LARGE)
    .refine((f) => /\.(xml|csv)$/i.test(f.name), "Choose the list as published (.xml for the UN's, .csv for the national lists)"),
});

export const decideMatchSchema = z.object({
  match: z.uuid({ message: "No such match" }),
  decision: z.enum(["cleared", "confirmed"], { message: "Choose: a different person, or the listed person" }),
  note: z
    .string({ message: "Say how you decided" })
    .trim()
    .min(20, "Say how you decided (the documents and facts compared), in at least 20 characters")
    .max(2000, "Keep the note under 2,000 characters"),
});

export const reportMatchSchema = z.object({
  match: z.uuid({ message: "No such match" }),
  reference: z
    .string({ message: "Give the report's reference" })
    .trim()
    .min(3, "Give the report's reference from FIU-IND's portal")
    .max(100, "Keep the reference under 100 characters"),
});

/** A confirmed match is reported to FIU-IND within this many hours of its confirmation. */
export const REPORT_WITHIN_HOURS = 24;

// ─── Suspicious-transaction reports (docs/product.md "Suspicious-transaction reports") ──────────

const isoDay = (label: string) =>
  z
    .string({ message: `Give ${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `Give ${label} as a date`)
    .refine((v) => v >= "2000-01-01" && v <= "2099-12-31" && !Number.isNaN(Date.parse(v)), `Give ${label} as a date`);

/** The report's own fields: when the suspicion arose (India time), the period of transactions, the grounds. */
const strFields = {
  suspectedAt: z
    .string({ message: "Say when the suspicion arose" })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "Say when the suspicion arose: a date and a time")
    .refine((v) => fromIstDateTimeInput(v) !== null && v >= "2000-01-01", "Say when the suspicion arose: a date and a time"),
  periodFrom: isoDay("the first day of the period"),
  periodTo: isoDay("the last day of the period"),
  grounds: z
    .string({ message: "Give the grounds of suspicion" })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(MIN_GROUNDS, `Give the grounds of suspicion in at least ${MIN_GROUNDS} characters: what was seen, and why it is suspicious`)
        .max(MAX_GROUNDS, `Keep the grounds under ${MAX_GROUNDS.toLocaleString("en-IN")} characters (FIU-IND's limit)`),
    ),
};
const periodInOrder = (v: { periodFrom: string; periodTo: string }) => v.periodFrom <= v.periodTo;
const PERIOD_ORDER = { message: "The period ends on or after the day it starts", path: ["periodTo"] };

export const strDraftSchema = z
  .object({ borrower: z.uuid({ message: "Choose the borrower" }), ...strFields })
  .refine(periodInOrder, PERIOD_ORDER);

export const strEditSchema = z
  .object({ version: z.string({ message: "Open the report again" }).min(1, "Open the report again"), ...strFields })
  .refine(periodInOrder, PERIOD_ORDER);

export const strReviewSchema = z
  .object({
    decision: z.enum(["approve", "send_back"], { message: "Choose: approve it, or send it back" }),
    note: z
      .string()
      .trim()
      .max(2000, "Keep the note under 2,000 characters")
      .optional()
      .transform((v) => v || null),
  })
  .refine((v) => v.decision === "approve" || (v.note?.length ?? 0) >= 20, {
    message: "Say what to change, in at least 20 characters",
    path: ["note"],
  });

export const strAcknowledgeSchema = z.object({
  fiuReference: z
    .string({ message: "Give FIU-IND's acknowledgement number" })
    .trim()
    .min(3, "Give FIU-IND's acknowledgement number from the FINnet portal")
    .max(100, "Keep the number under 100 characters"),
});
