import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, scrubUrl } from "../../server/logger.ts";

/** The process's logger, writing parsed lines into an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: createLogger("info", sink), lines };
}

describe("logs", () => {
  it("never carry a bearer link: signed agreements, signed PDF links, enrolment links, OAuth codes", () => {
    expect(scrubUrl("/Eagreement/KZQ3VJ7XH2Q4B6T5NMA3R2LHEQ")).toBe("/Eagreement/[ref]");
    expect(scrubUrl("/eagreement/KZQ3VJ7XH2Q4B6T5NMA3R2LHEQ/pdf?download=1")).toBe("/eagreement/[ref]/pdf?download=1");
    expect(scrubUrl("/User/newLoan/Emi/ABC/Step5/pdfDisplay?expires=1790000000&signature=deadbeef")).toBe(
      "/User/newLoan/Emi/ABC/Step5/pdfDisplay?expires=[redacted]&signature=[redacted]",
    );
    expect(scrubUrl("/admin/enrol/s3cr3t-token")).toBe("/admin/enrol/[token]");
    expect(scrubUrl("/auth/facebook/callback?code=abc&state=xyz")).toBe("/auth/facebook/callback?code=[redacted]&state=[redacted]");
    expect(scrubUrl("/EmiCalculator?amount=100000")).toBe("/EmiCalculator?amount=100000");
  });

  it("mask mobile numbers and leave out a failed query's values", () => {
    const { log, lines } = capture();
    log.info({ to: "9876543210", sms: { to: "9876543210", text: "hello" } }, "SMS sent");
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "Asha Verma"'), {
      code: "22P02",
      detail: "Key (pan_hmac)=(abc) already exists.",
    });
    const failed = new Error(
      'Failed query: insert into "borrower_profiles" ("full_name", "pan_enc") values ($1, $2)\nparams: Asha Verma,v1:k1:secret',
      { cause },
    );
    log.error({ err: failed }, "request failed");
    const text = JSON.stringify(lines);
    expect(text).not.toContain("9876543210");
    expect(text).toContain("XXXXXX3210");
    expect(text).not.toContain("Asha Verma");
    expect(text).not.toContain("pan_hmac)=(abc");
    expect(text).toContain("Failed query: insert into");
    expect(text).toContain('"code":"22P02"');
  });
});
