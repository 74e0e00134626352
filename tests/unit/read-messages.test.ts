import { describe, expect, it } from "vitest";
import {
  compiledMessages,
  messagesElements,
  messagesRefs,
  serializedMessages,
  withMessagesElements,
} from "../../app/i18n/messages.server.ts";
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

describe("a document's messages, named in its loader data and carried once in the page", () => {
  it("names each namespace in its language, and the server's render reads the name as the messages", () => {
    const named = messagesRefs("hi", ["common", "dashboard"]);
    expect(named).toEqual({ common: "hi:common", dashboard: "hi:dashboard" });
    expect(readMessages([named])).toEqual(compiledMessages("hi", ["common", "dashboard"]));
  });

  it("writes an element per named namespace, made once, whose JSON is the namespace's messages", () => {
    const loaderData = {
      root: { messages: messagesRefs("hi", ["common", "validation"]) },
      "routes/user/dashboard": { messages: messagesRefs("hi", ["dashboard", "common"]), other: 1 },
      "routes/user/layout": { messages: serializedMessages("hi", ["account"]) },
      "routes/none": null,
    };
    const html = messagesElements(loaderData).toString("utf8");
    const elements = [...html.matchAll(/<script type="application\/json" id="messages:([^"]+)">([\s\S]*?)<\/script>/g)];
    expect(elements.map((m) => m[1])).toEqual(["hi:common", "hi:validation", "hi:dashboard"]);
    for (const [, ref, json] of elements) {
      const [language, namespace] = ref!.split(":") as ["hi", "common"];
      expect(JSON.parse(json!)).toEqual(compiledMessages(language, [namespace])[namespace]);
    }
    expect(messagesElements({ root: { messages: serializedMessages("en", ["common"]) } }).byteLength).toBe(0);
    // The request's CSP nonce, as on every script element of a page.
    expect(messagesElements(loaderData, "abc123").toString("utf8")).toMatch(
      /^<script nonce="abc123" type="application\/json" id="messages:hi:common">/,
    );
  });

  it("puts the elements at the end of the document's body", () => {
    const page = Buffer.from("<html><body><main>a</main><script>run()</script></body></html>");
    const elements = Buffer.from('<script type="application/json" id="messages:en:common">{}</script>');
    expect(withMessagesElements(page, elements).toString()).toBe(
      '<html><body><main>a</main><script>run()</script><script type="application/json" id="messages:en:common">{}</script></body></html>',
    );
    expect(withMessagesElements(page, Buffer.alloc(0))).toBe(page);
  });
});
