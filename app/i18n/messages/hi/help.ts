import type en from "../en/help.ts";
import type { Translation } from "../../translation.ts";
export default {} satisfies Translation<typeof en>;
