// The compliance page's forms (docs/product.md "Sanctions screening"): the same schemas in the
// browser and on the server.
import { z } from "zod";
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
