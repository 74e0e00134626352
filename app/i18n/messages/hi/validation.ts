import type en from "../en/validation.ts";
import type { Translation } from "../../translation.ts";

export default {
  mobile: {
    invalid: "6, 7, 8 या 9 से शुरू होने वाला 10 अंकों का सही भारतीय मोबाइल नंबर दर्ज करें।",
    yours: "अपना मोबाइल नंबर दर्ज करें।",
    any: "मोबाइल नंबर दर्ज करें।",
    nominee: "अपने नॉमिनी का मोबाइल नंबर दर्ज करें।",
  },
} satisfies Translation<typeof en>;
