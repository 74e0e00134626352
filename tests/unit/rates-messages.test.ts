import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { coolingOffRule } from "../../app/domain/loans/cooling-off.ts";
import rates from "../../app/i18n/messages/en/rates.ts";

// The rates page says the cooling-off rule from its own messages (in English and Hindi); in English
// it must stay the very sentence the Key Fact Statement and the agreement print.
describe("the rates page's cooling-off rule", () => {
  it("is coolingOffRule's sentence, word for word, in English", () => {
    const t = createTranslator({ locale: "en", messages: { rates }, namespace: "rates" });
    for (const days of [3, 7]) expect(t("coolingOff", { days })).toBe(coolingOffRule(days));
  });
});
