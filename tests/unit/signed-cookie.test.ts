import fc from "fast-check";
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { readSignedCookie } from "../../app/server/cookies.server.ts";

const SECRET = "a-session-secret-of-thirty-two-chars!!";
const reactRouters = createCookie("token", { secrets: [SECRET] });
/** The `name=value` a browser sends back for a Set-Cookie header. */
const sentBack = (setCookie: string) => setCookie.split(";")[0] as string;

describe("readSignedCookie", () => {
  it("reads what React Router's cookie wrote, as React Router reads it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ minLength: 1 }), fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean()))),
        async (value) => {
          const header = `other=1; ${sentBack(await reactRouters.serialize(value))}; later=2`;
          const ours = readSignedCookie(header, "token", [SECRET]);
          expect(ours).toEqual(value);
          expect(ours).toEqual(await reactRouters.parse(header));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses a value changed, a signature changed, another secret, or no signature, as React Router does", async () => {
    const good = sentBack(await reactRouters.serialize("a-random-session-token-value")).slice("token=".length);
    const dot = good.lastIndexOf(".");
    const forged = [
      `token=${Buffer.from(JSON.stringify("someone-elses-token-value")).toString("base64")}${good.slice(dot)}`,
      `token=${good.slice(0, dot)}.${good.slice(dot + 2)}`,
      `token=${good.slice(0, dot)}`,
      `token=${good}x`,
    ];
    for (const header of forged) {
      expect(readSignedCookie(header, "token", [SECRET]), header).toBeNull();
      expect(await reactRouters.parse(header), header).toBeNull();
    }
    expect(readSignedCookie(`token=${good}`, "token", ["another-secret-of-thirty-two-chars!!"])).toBeNull();
    expect(readSignedCookie(`token=${good}`, "token", ["another-secret-of-thirty-two-chars!!", SECRET])).toBe(
      "a-random-session-token-value",
    );
  });

  it("frames the value as React Router does: spaces and tabs around it go, quotes and other white space stay", async () => {
    const good = sentBack(await reactRouters.serialize("a-random-session-token-value")).slice("token=".length);
    for (const header of [
      `token= \t${good}\t `,
      `a=1;token=${good}`,
      `  token=${good};token=forged`,
      `token="${good}"`,
      `token=\u00a0${good}`,
    ]) {
      expect(readSignedCookie(header, "token", [SECRET]), header).toEqual(await reactRouters.parse(header));
    }
  });

  it("answers null without the cookie, and an empty string for an empty one", async () => {
    for (const header of [null, "", "tokens=x", "xtoken=y; a=b"]) expect(readSignedCookie(header, "token", [SECRET])).toBeNull();
    expect(readSignedCookie("token=", "token", [SECRET])).toBe("");
    expect(await reactRouters.parse("token=")).toBe("");
  });
});
