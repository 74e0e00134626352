import { describe, expect, it } from "vitest";
import { compiledMessages, serializedMessages } from "../../app/i18n/messages.server.ts";
import { readMessages } from "../../app/i18n/read-messages.ts";

describe("a page's messages as its loader data carries them", () => {
  it("sends each namespace as one JSON string, made once per language and namespace", () => {
    const first = serializedMessages("hi", ["common", "dashboard"]);
    const again = serializedMessages("hi", ["dashboard"]);
    expect(Object.keys(first)).toEqual(["common", "dashboard"]);
    expect(typeof first.dashboard).toBe("string");
    // The very string: the process does not encode a namespace twice.
    expect(again.dashboard).toBe(first.dashboard);
    expect(serializedMessages("en", ["dashboard"]).dashboard).not.toBe(first.dashboard);
  });

  it("reads back the compiled messages the provider formats", () => {
    const sent = serializedMessages("hi", ["common", "account"]);
    expect(readMessages([sent])).toEqual(compiledMessages("hi", ["common", "account"]));
  });

  it("parses a namespace's text once and joins the parts, a later part's namespace winning", () => {
    const root = serializedMessages("en", ["common", "validation"]);
    const page = serializedMessages("en", ["loans"]);
    const a = readMessages([root, page]);
    const b = readMessages([root, page]);
    expect(a.loans).toBe(b.loans);
    expect(Object.keys(a)).toEqual(["common", "validation", "loans"]);
    const tree = { common: { only: "here" } };
    expect(readMessages([root, undefined, tree]).common).toBe(tree.common);
  });
});
