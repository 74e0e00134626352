// The form field of an Indian mobile number (Zod): what is typed, as its 10 digits, or the reason
// it is not one. Apart from mobile.ts, which pages read without loading Zod.
import { z } from "zod";
import { INDIAN_MOBILE_MESSAGE, normalizeIndianMobile } from "./mobile.ts";

export const indianMobileField = (missing: string) =>
  z.string({ error: missing }).transform((v, ctx) => {
    const mobile = normalizeIndianMobile(v);
    if (!mobile) {
      ctx.addIssue({ code: "custom", message: INDIAN_MOBILE_MESSAGE });
      return z.NEVER;
    }
    return mobile;
  });
