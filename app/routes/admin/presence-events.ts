import { servicesContext } from "../../context.ts";
import { can } from "../../domain/roles.ts";
import { readSession } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/presence-events";

/** GET /admin/presence/events: presence changes for the staff page (Server-Sent Events); the roles that see presence. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  if (!signedIn || !can(signedIn.user.role, "borrowers.manage")) {
    return Response.json({ error: "staff only" }, { status: signedIn ? 403 : 401 });
  }
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  let ping: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          unsubscribe();
        }
      };
      const stop = () => {
        unsubscribe();
        clearInterval(ping);
        try {
          controller.close();
        } catch {
          /* closed */
        }
      };
      unsubscribe = services.realtime.subscribe((event) => {
        // After a lost database connection ("resync"), the page reads the list again too.
        if (event.type === "presence" || event.type === "resync") write(`event: presence\ndata: ${JSON.stringify(event)}\n\n`);
      });
      request.signal.addEventListener("abort", stop);
      write("retry: 3000\n\n");
      ping = setInterval(() => write(": ping\n\n"), 15_000);
    },
    cancel() {
      unsubscribe();
      clearInterval(ping);
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" } });
}
