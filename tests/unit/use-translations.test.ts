// The app's useTranslations (app/i18n/use-translations.ts): a plain message, or one whose
// arguments are only put in as text, written here; every other call passed to use-intl.
import { createElement as h, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { IntlProvider, useTranslations as useIntlTranslations } from "use-intl/react";
import { describe, expect, it, vi } from "vitest";
import { compiledMessages } from "../../app/i18n/messages.server.ts";
import { TIME_ZONE } from "../../app/i18n/messages.ts";
import { useTranslations } from "../../app/i18n/use-translations.ts";

type Say = ((key: string, values?: Record<string, unknown>) => string) & { has(key: string): boolean };

function Words({ own, withValues }: { own: boolean; withValues: boolean }) {
  const t = (own ? useTranslations : useIntlTranslations)("dashboard") as unknown as Say;
  return h(
    Fragment,
    null,
    h("p", null, t("heading")),
    h("p", null, t("overdue.body")),
    h("p", null, t("no.such.key")),
    h("p", null, String(t.has("heading"))),
    // A select and a plural: use-intl's.
    h("p", null, t("applications.kindAmountTenure", { kind: "emi", amount: "₹1,00,000", months: 12 })),
    withValues ? h("p", null, t("hello", { name: "Asha" }), "|", t("overdue.heading", { amount: "₹9,668" })) : null,
  );
}

const page = (own: boolean, language: "en" | "hi", withValues = false) =>
  renderToStaticMarkup(
    h(IntlProvider, {
      locale: language,
      messages: compiledMessages(language, ["dashboard"]),
      timeZone: TIME_ZONE,
      onError: () => {},
      children: h(Words, { own, withValues }),
    }),
  );

describe("the app's useTranslations", () => {
  it("gives use-intl's words for plain messages, missing keys and what use-intl formats, in English and in Hindi", () => {
    for (const language of ["en", "hi"] as const) {
      const own = page(true, language);
      expect(own).toBe(page(false, language));
      expect(own).toContain(language === "en" ? "Your dashboard" : "आपका डैशबोर्ड");
    }
  });

  it("puts text arguments in as use-intl does: the texts joined, each value as text", () => {
    expect(page(true, "en", true)).toContain("<p>Hello, Asha|₹9,668 is overdue</p>");
    expect(page(true, "hi", true)).toContain("<p>नमस्ते, Asha|₹9,668 बकाया है</p>");
  });

  it("looks a message up once, then answers it without resolving its key again", () => {
    page(true, "en");
    const spy = vi.spyOn(String.prototype, "split");
    page(false, "en");
    const intl = spy.mock.calls.length;
    spy.mockClear();
    page(true, "en");
    // use-intl resolves each key's path on every call; the second page's plain messages are known.
    expect(spy.mock.calls.length).toBeLessThan(intl);
    spy.mockRestore();
  });
});
