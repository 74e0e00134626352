/**
 * Autopay's part of the day (docs/product.md "Autopay"), after the daily servicing run: today's
 * debits presented, the pre-debit notices of the coming days sent, and debits without an answer
 * for 3 working days asked about. The 10-minute sweep presents what a stopped process left.
 */
import type { AppServices } from "../../context.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { askAboutLateDebits } from "./debit-answer.server.ts";
import { noticeDebits } from "./notice.server.ts";
import { presentDebits } from "./present.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates">;

export async function runAutopayDay(services: Services) {
  if (!services.mandates) return null;
  const day = businessToday(services);
  const presented = await presentDebits(services, day);
  const announced = await noticeDebits(services, { day });
  const asked = await askAboutLateDebits(services);
  services.log.info({ day, presented, announced, asked }, "autopay's daily run finished");
  return { day, presented, announced, asked };
}

export async function sweepAutopay(services: Services) {
  if (!services.mandates) return null;
  return presentDebits(services, businessToday(services));
}
