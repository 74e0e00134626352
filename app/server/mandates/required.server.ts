// Autopay before disbursal (docs/product.md "Autopay"): whether an application waits for its autopay.
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { mandates, products } from "../db/schema.ts";

/**
 * Whether the product pays out only once autopay is active (docs/product.md "Autopay") and the
 * application has none active. Where no mandate provider is configured, autopay cannot be set up,
 * and the product's rule does not hold a loan back.
 */
export async function autopayMissing(services: Pick<AppServices, "db" | "mandates">, a: { id: string; product: string }) {
  if (!services.mandates) return false;
  const [product] = await services.db
    .select({ required: products.autopayBeforeDisbursal })
    .from(products)
    .where(eq(products.code, a.product));
  if (!product?.required) return false;
  const [active] = await services.db
    .select({ id: mandates.id })
    .from(mandates)
    .where(and(eq(mandates.applicationId, a.id), eq(mandates.status, "active")));
  return !active;
}
