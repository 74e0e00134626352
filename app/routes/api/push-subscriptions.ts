import { requestContext, servicesContext } from "../../context.ts";
import { readSession } from "../../server/auth/session.server.ts";
import { removeSubscription, saveSubscription, subscriptionSchema, unsubscribeSchema } from "../../server/push/subscriptions.server.ts";
import type { Route } from "./+types/push-subscriptions";

const MAX_BODY = 4096;

/** The body as JSON, at most 4 kB however it is sent (a declared length is checked earlier; a chunked one here). */
async function readJson(request: Request): Promise<unknown> {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) return undefined;
  const reader = request.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      // Not cancelled: that would close the connection under the answer. The rest (its declared
      // length is within the route's limit: server/request-guards.ts) is drained once it is sent.
      reader.releaseLock();
      return undefined;
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * POST /api/push/subscriptions: this device's push subscription (PushSubscription.toJSON()) for the
 * signed-in borrower; DELETE with {"endpoint"} forgets it. Same-origin only (server/request-guards.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (!signedIn || signedIn.user.role !== "borrower") return Response.json({ error: "Sign in first." }, { status: 401 });
  if (!services.push) return Response.json({ error: "Push notices are not set up on this server." }, { status: 404 });
  const body = await readJson(request);
  if (request.method === "DELETE") {
    const parsed = unsubscribeSchema.safeParse(body);
    if (!parsed.success) return Response.json({ error: "Send the subscription's endpoint as JSON." }, { status: 400 });
    await removeSubscription(services, signedIn.user.id, parsed.data.endpoint);
    return new Response(null, { status: 204 });
  }
  if (request.method !== "POST")
    return Response.json({ error: "Use POST or DELETE." }, { status: 405, headers: { Allow: "POST, DELETE" } });
  const parsed = subscriptionSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: "Send the browser's push subscription as JSON (at most 4 kB)." }, { status: 400 });
  const saved = await saveSubscription(services, signedIn.user.id, parsed.data, {
    deviceId: signedIn.session.deviceId,
    userAgent: context.get(requestContext).userAgent,
  });
  if (!saved.ok) return Response.json({ error: saved.message }, { status: 400 });
  return Response.json({ ok: true }, { status: 201 });
}

export function loader() {
  return Response.json({ error: "Use POST or DELETE." }, { status: 405, headers: { Allow: "POST, DELETE" } });
}
