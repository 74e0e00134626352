import type { z } from "zod";
import type { AppServices, Client } from "../../context.ts";
import type { contactSchema } from "../../domain/contact.ts";
import { contactMessages } from "../db/schema.ts";
import { hitRateLimit, rateLimits } from "../rate-limit.server.ts";

export type ContactResult = { ok: true } | { ok: false; reason: "too_many"; resetAt: Date };

/**
 * A message from the public contact form: stored for staff, at most
 * CONTACT_LIMIT_PER_HOUR per client address. A filled honeypot field is a
 * bot: it is told the message arrived, and nothing is stored.
 */
export async function saveContactMessage(
  services: Pick<AppServices, "db" | "config" | "log" | "now">,
  { input, client }: { input: z.output<typeof contactSchema>; client: Client },
): Promise<ContactResult> {
  const { website, ...message } = input;
  if (website) {
    services.log.info({ ip: client.ip }, "contact form honeypot filled; message dropped");
    return { ok: true };
  }
  const limit = await hitRateLimit(services, { action: "contact", key: client.ip, limit: rateLimits(services.config).contact });
  if (!limit.allowed) return { ok: false, reason: "too_many", resetAt: limit.resetAt };
  await services.db.insert(contactMessages).values({ ...message, ip: client.ip, userAgent: client.userAgent });
  return { ok: true };
}
