/** Staff accounts (docs/product.md "Staff accounts"): what an administrator's forms accept. */
import { z } from "zod";
import { STAFF_ROLES } from "./roles.ts";

const role = z.enum(STAFF_ROLES, { error: "Choose a role." });

export const inviteSchema = z.object({
  name: z.string({ error: "Enter the person's name." }).trim().min(2, "Enter the person's name.").max(80, "At most 80 characters."),
  email: z
    .string({ error: "Enter their work e-mail address." })
    .trim()
    .max(254, "At most 254 characters.")
    .pipe(z.email({ error: "Enter a valid e-mail address, like name@lender.example." })),
  role,
});

export const roleSchema = z.object({ role });

/** Where an account stands, as the list shows it. */
export function accountState(a: { disabledAt: Date | string | null; passwordSet: boolean; totpEnrolled: boolean }) {
  if (a.disabledAt) return "Disabled";
  if (!a.passwordSet) return "Invited, not enrolled yet";
  if (!a.totpEnrolled) return "Authenticator not set up yet";
  return "Active";
}
