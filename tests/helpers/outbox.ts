import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface OutboxSms {
  to: string;
  text: string;
  /** The DLT template id it was sent with (null: none). */
  templateId: string | null;
  encoding: "gsm7" | "ucs2";
  parts: number;
  at: string;
}

/** Every SMS the server has written whole to <dataDir>/outbox/sms.jsonl. */
export function readOutbox(dataDir: string): OutboxSms[] {
  const file = path.join(dataDir, "outbox", "sms.jsonl");
  if (!existsSync(file)) return [];
  // Only whole lines: one being appended right now has no newline yet (the last piece).
  const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
  return lines.filter(Boolean).map((line) => JSON.parse(line) as OutboxSms);
}

/** The code in the latest SMS to `mobile`. */
export function latestCode(dataDir: string, mobile: string): string {
  const sms = readOutbox(dataDir)
    .filter((m) => m.to === mobile)
    .at(-1);
  const code = sms && /\b(\d{6})\b/.exec(sms.text)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${mobile}`);
  return code;
}
