// The sign-in forms' schemas, one for the browser and the server each: the borrower's mobile number
// and one-time code (/quickStart/Otp), the staff member's password and authenticator code (/admin/login).
import { z } from "zod";
import { msg } from "../i18n/form-message.ts";
import { indianMobileField } from "./validators/mobile-field.ts";

export const mobileSchema = z.object({
  mobile: indianMobileField(msg("validation.mobile.yours")),
  redirectTo: z.string().optional(),
});

export const codeSchema = z.object({
  code: z
    .string({ error: msg("signIn.errors.codeMissing") })
    .trim()
    .regex(/^\d{6}$/, msg("signIn.errors.codeFormat")),
  deviceId: z.string().max(100).optional(),
});

export const passwordSchema = z.object({
  email: z.email({ error: "Enter your work e-mail address." }),
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
  redirectTo: z.string().optional(),
});
export const totpSchema = z.object({
  otp: z
    .string({ error: "Enter the 6-digit code from your authenticator app." })
    .trim()
    .regex(/^\d{6}$/, "The code is 6 digits."),
});
