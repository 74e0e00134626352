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

  it("never carry a payment gateway's signature on the borrower's return, in the request log line", () => {
    const { log, lines } = capture();
    const razorpay =
      "/api/payments/razorpay/return?razorpay_payment_id=pay_Q1w2e3&razorpay_payment_link_id=plink_R4t5y6" +
      "&razorpay_payment_link_reference_id=PAY7K2M9&razorpay_payment_link_status=paid" +
      "&razorpay_signature=5f1c0ad3b7e94c2f8a6d1e0b9c3a7f4e2d8b6a1c0e9f7d3b5a2c4e6f8a0b1c2d";
    const local = "/api/payments/local/return?order_id=lord_1&reference=PAY7K2M9&status=paid&payment_id=lpay_9&signature=0a1b2c3d4e5f";
    const outcome = "/success/PAY7K2M9?razorpay_payment_id=pay_Q1w2e3&Razorpay_Signature=5f1c0ad3b7e94c2f";
    for (const url of [razorpay, local, outcome]) log.info({ method: "GET", url: scrubUrl(url), status: 302 }, "request");
    const text = JSON.stringify(lines);
    expect(text).not.toContain("5f1c0ad3b7e94c2f");
    expect(text).not.toContain("0a1b2c3d4e5f");
    expect(lines.map((l) => l.url)).toEqual([
      "/api/payments/razorpay/return?razorpay_payment_id=pay_Q1w2e3&razorpay_payment_link_id=plink_R4t5y6" +
        "&razorpay_payment_link_reference_id=PAY7K2M9&razorpay_payment_link_status=paid&razorpay_signature=[redacted]",
      "/api/payments/local/return?order_id=lord_1&reference=PAY7K2M9&status=paid&payment_id=lpay_9&signature=[redacted]",
      "/success/PAY7K2M9?razorpay_payment_id=pay_Q1w2e3&Razorpay_Signature=[redacted]",
    ]);
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
