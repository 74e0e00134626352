import type { AccountPurpose } from "../../domain/books/chart.ts";

/** Where a payment's money lands: the gateway's clearing account until it settles, the bank for money staff recorded. */
export const cashAccountOf = (provider: string): AccountPurpose => (provider === "offline" ? "bank" : "gateway_clearing");
