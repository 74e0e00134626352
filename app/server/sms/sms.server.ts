import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { smsParts } from "../../domain/sms.ts";

export interface SmsMessage {
  to: string;
  text: string;
  /** DLT template id registered for this message's template (TRAI rules). */
  templateId?: string;
}

/** Sends text messages. One implementation per environment. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * Development and `local`: every message is appended as one JSON line
 * {"to","text","templateId","encoding","parts","at"} to <dataDir>/outbox/sms.jsonl and logged, so
 * people and tests can read the codes and see what a gateway would have been sent: the words, the
 * DLT template id, and the parts it goes in (Hindi goes as Unicode, 70 characters a part).
 */
export function createOutboxSms(dataDir: string, log: Logger, now: () => Date = () => new Date()): SmsSender {
  const dir = path.join(dataDir, "outbox");
  const file = path.join(dir, "sms.jsonl");
  return {
    async send({ to, text, templateId }) {
      const { encoding, parts } = smsParts(text);
      const line = { to, text, templateId: templateId ?? null, encoding, parts, at: now().toISOString() };
      await mkdir(dir, { recursive: true });
      await appendFile(file, `${JSON.stringify(line)}\n`);
      log.info({ sms: line }, "SMS written to the outbox");
    },
  };
}

/**
 * Production: POST {to, text, templateId, unicode} as JSON to the configured gateway with the key as
 * a bearer token (`unicode`: the text needs UCS-2, as Hindi does). A non-2xx answer is an error.
 */
export function createHttpSms({ url, key }: { url: string; key: string }, log: Logger, fetchImpl: typeof fetch = fetch): SmsSender {
  return {
    async send({ to, text, templateId }) {
      const res = await fetchImpl(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: JSON.stringify({ to: `+91${to}`, text, templateId, unicode: smsParts(text).encoding === "ucs2" }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) {
        log.error({ status: res.status, to }, "SMS gateway refused a message");
        throw new Error(`SMS gateway answered ${res.status}`);
      }
      log.info({ to }, "SMS sent through the gateway");
    },
  };
}
