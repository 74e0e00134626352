import type en from "../en/loan-payment.ts";
import type { Translation } from "../../translation.ts";

export default {
  unchecked: "पेमेंट सर्विस से यह वापसी जाँची नहीं जा सकी।",
} satisfies Translation<typeof en>;
