import { and, asc, eq, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "../../context.ts";
import { pushSubscriptions } from "../db/schema.ts";
import { pushEndpointAllowed } from "./push.server.ts";

/** A borrower keeps at most this many devices with push; a new one beyond replaces the oldest. */
export const DEVICES_PER_BORROWER = 10;

const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/** What a browser's PushSubscription.toJSON() gives. */
export const subscriptionSchema = z.object({
  endpoint: z.url().max(1000),
  expirationTime: z.number().nullable().optional(),
  // p256dh: an uncompressed P-256 point (65 bytes, 87 characters); auth: 16 bytes (22 characters).
  keys: z.object({ p256dh: base64url(80, 100), auth: base64url(16, 30) }),
});
export const unsubscribeSchema = z.object({ endpoint: z.url().max(1000) });

/**
 * Keeps this device's subscription for the borrower. An endpoint is one browser: subscribed again
 * (new keys, or another borrower signed in on that browser) it moves to the latest owner.
 */
export async function saveSubscription(
  services: Pick<AppServices, "db" | "now" | "config">,
  userId: string,
  input: z.infer<typeof subscriptionSchema>,
  device: { deviceId: string; userAgent: string },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!pushEndpointAllowed(input.endpoint, services.config.isProduction))
    return { ok: false, message: "This browser's push service is not one we can send to." };
  const at = services.now();
  await services.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        deviceId: device.deviceId,
        userAgent: device.userAgent.slice(0, 300),
        createdAt: at,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          deviceId: device.deviceId,
          userAgent: device.userAgent.slice(0, 300),
          createdAt: at,
        },
      });
    const newest = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt))
      .then((rows) => rows.slice(-DEVICES_PER_BORROWER).map((r) => r.id));
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, newest)));
  });
  return { ok: true };
}

/** Forgets this device's subscription (only the borrower's own). */
export async function removeSubscription(services: Pick<AppServices, "db">, userId: string, endpoint: string) {
  await services.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Signed out on a device: its pushes stop (a shared phone shows no more of this borrower's notices). */
export async function forgetDevice(services: Pick<AppServices, "db">, userId: string, deviceId: string) {
  await services.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.deviceId, deviceId)));
}
