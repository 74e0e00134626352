import { and, desc, eq, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { audit } from "../audit.server.ts";
import { notificationDeliveries, notifications, users } from "../db/schema.ts";
import { notify } from "./notify.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

/**
 * A notice from staff to one borrower (docs/product.md "Notifications"): in-app, by push and e-mail;
 * an urgent one also sends the fixed registered SMS. Audited; the same form sent twice is one notice.
 */
export async function sendStaffNotice(
  services: Services,
  input: {
    staff: { id: string; role: string };
    borrowerId: string;
    once: string;
    title: string;
    message: string;
    urgent: boolean;
    client: Client;
  },
): Promise<{ ok: true; sent: boolean } | { ok: false; reason: "not_found" }> {
  if (!isUuid(input.borrowerId)) return { ok: false, reason: "not_found" };
  return services.db.transaction(async (tx) => {
    const [borrower] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.borrowerId), eq(users.role, "borrower")));
    if (!borrower) return { ok: false, reason: "not_found" } as const;
    const id = await notify(
      { ...services, db: tx },
      {
        userId: borrower.id,
        event: "staff_notice",
        key: input.once,
        sentBy: input.staff.id,
        data: { title: input.title, message: input.message, urgent: input.urgent },
      },
    );
    if (id)
      await audit(
        { db: tx },
        {
          by: input.staff,
          client: input.client,
          at: services.now(),
          action: "notice.sent",
          subject: { type: "user", id: borrower.id },
          details: { notificationId: id, title: input.title, urgent: input.urgent },
        },
      );
    return { ok: true, sent: Boolean(id) } as const;
  });
}

/** A borrower's latest notices with how each channel went, for the staff borrower page. */
export async function noticesOf(services: Pick<AppServices, "db">, userId: string) {
  const rows = await services.db
    .select({
      id: notifications.id,
      event: notifications.event,
      title: notifications.title,
      availableAt: notifications.availableAt,
      readAt: notifications.readAt,
      sentBy: users.name,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.sentBy))
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(20);
  const deliveries = rows.length
    ? await services.db
        .select()
        .from(notificationDeliveries)
        .where(
          inArray(
            notificationDeliveries.notificationId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  return rows.map((r) => ({
    ...r,
    channels: deliveries.filter((d) => d.notificationId === r.id).map((d) => ({ channel: d.channel, status: d.status, error: d.error })),
  }));
}
