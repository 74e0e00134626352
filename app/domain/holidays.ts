/** The holiday calendar's form (docs/product.md "Holidays"). */
import { z } from "zod";

export const holidaySchema = z.object({
  date: z
    .string({ error: "Choose the date." })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose the date.")
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      "That is not a date.",
    )
    .refine((d) => d >= "2000-01-01" && d <= "2099-12-31", "Choose a date between 2000 and 2099."),
  name: z.string({ error: "Name the holiday." }).trim().min(2, "Name the holiday.").max(80, "At most 80 characters."),
});
