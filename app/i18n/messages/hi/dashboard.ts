import type en from "../en/dashboard.ts";
import type { Translation } from "../../translation.ts";
export default {} satisfies Translation<typeof en>;
