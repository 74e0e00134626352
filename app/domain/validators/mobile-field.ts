// The form field of an Indian mobile number (Zod): what is typed, as its 10 digits, or the reason
// it is not one, as a message key. Apart from mobile.ts, which pages read without loading Zod.
import { z } from "zod";
import { msg } from "../../i18n/form-message.ts";
import { normalizeIndianMobile } from "./mobile.ts";

/** `missing`: the message (a key, app/i18n/form-message.ts) when nothing is typed. */
export const indianMobileField = (missing: string) =>
  z.string({ error: missing }).transform((v, ctx) => {
    const mobile = normalizeIndianMobile(v);
    if (!mobile) {
      ctx.addIssue({ code: "custom", message: msg("validation.mobile.invalid") });
      return z.NEVER;
    }
    return mobile;
  });
