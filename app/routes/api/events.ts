import { servicesContext } from "../../context.ts";
import { readSession } from "../../server/auth/session.server.ts";
import type { AppEvent } from "../../server/realtime/hub.server.ts";
import type { Route } from "./+types/events";

const PING_MS = 15_000;

/**
 * GET /api/events: the signed-in page's realtime channel (Server-Sent Events).
 * While it is open the borrower is online. Events: `displaced` (another
 * device signed in), `reload` (staff asked for a device reload), `notifications` (the unread count).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (!signedIn) return Response.json({ error: "not signed in" }, { status: 401 });
  const url = new URL(request.url);
  const deviceId = (url.searchParams.get("device") ?? "").slice(0, 100) || signedIn.session.deviceId;
  const encoder = new TextEncoder();
  let release: (() => Promise<void>) | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  let done = false;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (chunk: string) => {
        if (done) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          done = true;
        }
      };
      const finish = () => {
        if (done) return;
        done = true;
        clearInterval(ping);
        void release?.();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      request.signal.addEventListener("abort", finish);
      write("retry: 3000\n\n");
      release = await services.realtime.connect({
        userId: signedIn.user.id,
        sessionId: signedIn.session.id,
        deviceId,
        deliver(event: AppEvent) {
          if (event.type === "session_ended") send("displaced", { reason: event.reason });
          else if (event.type === "reload") send("reload", {});
          else if (event.type === "notifications") send("notifications", { unread: event.unread });
          else if (event.type === "application_changed") send("application", { reference: event.reference });
        },
        close: finish,
      });
      if (request.signal.aborted) finish();
      send("ready", { sessionId: signedIn.session.id });
      ping = setInterval(() => write(": ping\n\n"), PING_MS);
    },
    cancel() {
      done = true;
      clearInterval(ping);
      void release?.();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
