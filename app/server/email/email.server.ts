import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface EmailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  attachments: readonly EmailAttachment[];
  /** Extra headers (the notice's id, for tracing a message back). */
  headers?: Record<string, string>;
}

/** Sends e-mail to borrowers. One implementation per configuration (EMAIL_PROVIDER). */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

const mail = (from: string, m: EmailMessage) => ({
  from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  headers: m.headers ?? {},
  attachments: m.attachments.map((a) => ({ filename: a.filename, content: Buffer.from(a.content), contentType: a.contentType })),
});

/** The folder of the local outbox's e-mail files. */
export const emailOutboxDir = (dataDir: string) => path.join(dataDir, "outbox", "email");

/**
 * `local`: each message, composed exactly as SMTP would carry it, is written to
 * <dataDir>/outbox/email/<time>-<random>.eml: a file any mail program opens, attachments included.
 * Written under a temporary name and renamed, so a reader never sees half a message.
 */
export function createOutboxEmail(dataDir: string, from: string, log: Logger, now: () => Date = () => new Date()): EmailSender {
  const dir = emailOutboxDir(dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(message) {
      const info = await transport.sendMail(mail(from, message));
      const name = `${now().toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}.eml`;
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, name);
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log.info({ to: message.to, subject: message.subject, file: name }, "e-mail written to the outbox");
    },
  };
}

/** Production: SMTP (SMTP_URL), with time limits so a stuck server fails the job (retried) instead of holding it. */
export function createSmtpEmail({ url, from }: { url: string; from: string }, log: Logger): EmailSender {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    async send(message) {
      const info = await transport.sendMail(mail(from, message));
      log.info({ to: message.to, messageId: info.messageId }, "e-mail sent by SMTP");
    },
  };
}
