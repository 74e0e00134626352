import { desc, eq } from "drizzle-orm";
import type { AppServices } from "../context.ts";
import type { HomeData } from "../domain/home.ts";
import { feedback } from "./db/schema.ts";
import { calculatorState } from "./calculator.server.ts";
import { policyInForce } from "./credit/policy.server.ts";
import { homeFacts, loadProducts } from "./products.server.ts";

/** Everything the home page's sections show. */
export async function loadHomeData({ db, config }: AppServices): Promise<HomeData> {
  const [productData, policy, calculator, feedbackRows] = await Promise.all([
    loadProducts({ db }),
    policyInForce({ db }),
    calculatorState({ db }, new URLSearchParams()),
    db
      .select({
        id: feedback.id,
        authorName: feedback.authorName,
        city: feedback.city,
        rating: feedback.rating,
        body: feedback.body,
        isSample: feedback.isSample,
      })
      .from(feedback)
      .where(eq(feedback.published, true))
      .orderBy(desc(feedback.createdAt))
      .limit(6),
  ]);
  return {
    facts: homeFacts(productData, policy.rules),
    calculator,
    feedback: feedbackRows,
    brandName: config.public.brandName,
    androidAppUrl: config.public.androidAppUrl,
  };
}
