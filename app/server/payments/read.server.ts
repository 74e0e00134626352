/**
 * A borrower's own payment as the outcome page reads it (scoped to the owner in the query), asked
 * about again at the gateway while it waits for an answer.
 */
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { PAYMENT_REFERENCE } from "../../domain/loans/pay-now.ts";

import { loanApplications, payments } from "../db/schema.ts";
import { checkPayment } from "./gateway-answer.server.ts";
type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** One of the borrower's own payments by its reference (scoped in the query), with its loan; asked about again while waiting. */
export async function ownPayment(services: Services, { userId, reference }: { userId: string; reference: string }) {
  if (!PAYMENT_REFERENCE.test(reference)) return null;
  const read = () =>
    services.db
      .select({
        payment: payments,
        loanNumber: loanApplications.loanNumber,
        kind: loanApplications.product,
        loanStatus: loanApplications.status,
      })
      .from(payments)
      .innerJoin(loanApplications, eq(loanApplications.id, payments.applicationId))
      .where(and(eq(payments.reference, reference), eq(payments.userId, userId)));
  let [row] = await read();
  if (!row) return null;
  if (
    (row.payment.status === "created" || row.payment.status === "pending") &&
    services.now().getTime() - row.payment.createdAt.getTime() > 5_000
  ) {
    try {
      await checkPayment(services, row.payment);
      [row] = await read();
    } catch (error) {
      services.log.warn({ err: error, reference }, "the payment gateway did not answer a status question");
    }
  }
  return row ?? null;
}
