import type { AppServices } from "../../context.ts";
import { runCreditChecks } from "../review/credit-checks.server.ts";
import { housekeeping } from "./housekeeping.server.ts";

/** Registers this process's job handlers and the schedules (docs/ARCHITECTURE.md "Jobs"). */
export async function startWorkers(services: AppServices) {
  const { jobs, log } = services;
  await jobs.work("housekeeping", async () => {
    const removed = await housekeeping(services);
    log.info({ removed }, "housekeeping done");
  });
  await jobs.work("sms", (message) => services.sms.send(message));
  await jobs.work("credit-checks", async ({ applicationId }) => {
    const ran = await runCreditChecks(services, { applicationId });
    // Thrown, the job is tried again later (3 times, backing off); the page offers to fetch again after that.
    if (!ran.pan || !ran.bureau) throw new Error("a credit-check provider did not answer");
  });
  await jobs.schedule("housekeeping", "17 * * * *", {});
}
