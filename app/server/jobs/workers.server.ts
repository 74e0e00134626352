import type { AppServices } from "../../context.ts";
import { housekeeping } from "./housekeeping.server.ts";

/** Registers this process's job handlers and the schedules (docs/ARCHITECTURE.md "Jobs"). */
export async function startWorkers(services: AppServices) {
  const { jobs, log } = services;
  await jobs.work("housekeeping", async () => {
    const removed = await housekeeping(services);
    log.info({ removed }, "housekeeping done");
  });
  await jobs.work("sms", (message) => services.sms.send(message));
  await jobs.schedule("housekeeping", "17 * * * *", {});
}
