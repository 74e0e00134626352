import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, messageLink } from "../../server/config.ts";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "cfg-"));

describe("configuration", () => {
  it("uses the documented defaults for a fresh local start", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.appEnv).toBe("local");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.public.brandName).toBe("Sugam Loans");
    expect(config.public.lender.name).toMatch(/demo/i);
    expect(config.trustProxy).toBe(false);
    expect(config.seedDemoData).toBe(true);
  });

  it("generates local secrets into the data directory once and reuses them", () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const first = loadConfig({ DATA_DIR: dir }, (m) => warnings.push(m));
    expect(existsSync(path.join(dir, "secrets.json"))).toBe(true);
    expect(warnings).toHaveLength(1);
    const second = loadConfig({ DATA_DIR: dir }, (m) => warnings.push(m));
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.encryptionKey).toBe(first.encryptionKey);
    expect(second.push?.publicKey).toBe(first.push?.publicKey);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).sessionSecret).toHaveLength(64);
  });

  it("names the variable that has a bad value", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), PORT: "eighty" })).toThrowError(/PORT/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: "mysql://x" })).toThrowError(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), APP_ENV: "staging" })).toThrowError(/APP_ENV/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PORT: "eighty" })).toThrowError(ConfigError);
  });

  it("refuses a wait after rejection set in the environment, naming the credit policy page that holds it now", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), REAPPLY_AFTER_DAYS: "30" })).toThrowError(/REAPPLY_AFTER_DAYS.*\/admin\/policy/s);
  });

  it("refuses to start production without its secrets and SMS gateway", () => {
    let message = "";
    try {
      loadConfig({ DATA_DIR: tempDir(), APP_ENV: "production" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const key of [
      "SESSION_SECRET",
      "ENCRYPTION_KEY",
      "SMS_GATEWAY_URL",
      "SMS_GATEWAY_KEY",
      "RAZORPAYX_KEY_ID",
      "RAZORPAYX_WEBHOOK_SECRET",
      "RAZORPAY_KEY_ID",
      "RAZORPAY_WEBHOOK_SECRET",
      "PUBLIC_URL",
      "BUREAU_MEMBER_ID_CIBIL",
      "BUREAU_MEMBER_ID_CRIF",
    ]) {
      expect(message).toContain(key);
    }
  });

  it("puts every link in a message on PUBLIC_URL's origin; in local without it, on this server's own", () => {
    const local = loadConfig({ DATA_DIR: tempDir(), PORT: "8080" });
    expect(local.publicUrl).toBeNull();
    expect(messageLink(local, "/User/Help")).toBe("http://localhost:8080/User/Help");
    const behind = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: "https://loans.example.in/" });
    expect(messageLink(behind, "/Eagreement/abc")).toBe("https://loans.example.in/Eagreement/abc");
    expect(() => loadConfig({ ...productionSecrets(), PUBLIC_URL: "http://loans.example.in" })).toThrow(
      /PUBLIC_URL: must be an https:\/\/ address when APP_ENV=production/,
    );
  });

  /** Production's payouts, payments and e-mail. */
  const PRODUCTION_PROVIDERS = {
    RAZORPAYX_KEY_ID: "rzp_live_x",
    RAZORPAYX_KEY_SECRET: "secret",
    RAZORPAYX_ACCOUNT_NUMBER: "7878780080316316",
    RAZORPAYX_WEBHOOK_SECRET: "webhook-secret",
    RAZORPAY_KEY_ID: "rzp_live_y",
    RAZORPAY_KEY_SECRET: "secret",
    RAZORPAY_WEBHOOK_SECRET: "webhook-secret-2",
    SMTP_URL: "smtps://mailer:secret@smtp.example.invalid:465",
  };

  /** Production's required settings, in a fresh data directory. */
  const productionSecrets = () => ({
    DATA_DIR: tempDir(),
    APP_ENV: "production",
    SESSION_SECRET: "s".repeat(40),
    ENCRYPTION_KEY: "a".repeat(64),
    SMS_GATEWAY_URL: "https://sms.example.invalid/send",
    SMS_GATEWAY_KEY: "key",
    PUBLIC_URL: "https://loans.example.in",
    BUREAU_MEMBER_ID_CIBIL: "NB12345678",
    BUREAU_MEMBER_ID_EQUIFAX: "EQ12345678",
    BUREAU_MEMBER_ID_EXPERIAN: "EX12345678",
    BUREAU_MEMBER_ID_CRIF: "CR12345678",
  });

  it("keeps files in an S3 bucket only when production's configuration states an Indian region (RBI data localisation)", () => {
    // Everything production needs but the bucket: the other providers' settings are not this test's subject.
    const production = { ...productionSecrets(), ...PRODUCTION_PROVIDERS, S3_BUCKET: "sugam-kyc" };
    expect(loadConfig({ ...production, S3_BUCKET: "" }).storage).toEqual({ kind: "local" });
    // AWS itself: the region decides; S3_DATA_IN_INDIA cannot overrule it.
    expect(() => loadConfig({ ...production, S3_REGION: "us-east-1" })).toThrow(
      /S3_REGION: must be an AWS region in India \(ap-south-1 or ap-south-2\) when APP_ENV=production: RBI requires the data to stay in India/,
    );
    expect(() => loadConfig({ ...production, S3_REGION: "eu-west-1", S3_DATA_IN_INDIA: "true" })).toThrow(/S3_REGION/);
    expect(() =>
      loadConfig({ ...production, S3_REGION: "us-east-1", S3_ENDPOINT: "https://s3.us-east-1.amazonaws.com", S3_DATA_IN_INDIA: "true" }),
    ).toThrow(/S3_REGION/);
    expect(loadConfig({ ...production, S3_REGION: "ap-south-1" }).storage).toEqual({
      kind: "s3",
      bucket: "sugam-kyc",
      region: "ap-south-1",
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
    });
    expect(loadConfig({ ...production, S3_REGION: "ap-south-2" }).storage.kind).toBe("s3");
    // Any other endpoint (MinIO, R2, …): only an explicit statement that it is in India will do.
    const minio = { ...production, S3_REGION: "ap-south-1", S3_ENDPOINT: "https://minio.example.in", S3_FORCE_PATH_STYLE: "true" };
    expect(() => loadConfig(minio)).toThrow(/S3_DATA_IN_INDIA: must be true when APP_ENV=production with an S3_ENDPOINT other than AWS's/);
    expect(() => loadConfig({ ...minio, S3_DATA_IN_INDIA: "false" })).toThrow(/S3_DATA_IN_INDIA/);
    expect(loadConfig({ ...minio, S3_DATA_IN_INDIA: "true", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" }).storage).toEqual({
      kind: "s3",
      bucket: "sugam-kyc",
      region: "ap-south-1",
      endpoint: "https://minio.example.in",
      credentials: { accessKeyId: "id", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
    // Outside production (development, tests against a local fake) no region is refused.
    expect(loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: "dev-files", S3_REGION: "us-east-1" }).storage.kind).toBe("s3");
  });

  it("wants S3_REGION with S3_BUCKET, the S3 keys as a pair, and no S3 setting without a bucket", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: "dev-files" })).toThrow(/S3_REGION: is required with S3_BUCKET/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: "dev-files", S3_REGION: "ap-south-1", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_REGION: "ap-south-1" })).toThrow(/S3_REGION: is read only with S3_BUCKET/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: "Bad_Bucket", S3_REGION: "ap-south-1" })).toThrow(/S3_BUCKET/);
  });

  it("never takes autopay mandates through the local stand-in in production, where none is offered unless Razorpay is chosen (production's default: none)", () => {
    expect(() => loadConfig({ ...productionSecrets(), MANDATE_PROVIDER: "local" })).toThrow(/MANDATE_PROVIDER/);
    expect(loadConfig({ DATA_DIR: tempDir() }).mandates.provider).toEqual({ name: "local" });
  });

  it("never searches or uploads CKYC through the local stand-in in production; none turns it off", () => {
    expect(() => loadConfig({ ...productionSecrets(), CKYC_PROVIDER: "local" })).toThrow(/CKYC_PROVIDER/);
    expect(loadConfig({ DATA_DIR: tempDir() }).ckyc).toEqual({ provider: "local" });
    expect(loadConfig({ DATA_DIR: tempDir(), CKYC_PROVIDER: "none" }).ckyc).toEqual({ provider: "none" });
  });

  it("takes autopay mandates through Razorpay recurring payments when chosen, with Razorpay's keys", () => {
    let message = "";
    try {
      loadConfig({ DATA_DIR: tempDir(), MANDATE_PROVIDER: "razorpay" });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const key of ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"])
      expect(message).toContain(`${key}: is required when autopay goes through Razorpay`);
    const config = loadConfig({
      DATA_DIR: tempDir(),
      MANDATE_PROVIDER: "razorpay",
      RAZORPAY_KEY_ID: "rzp_test_k",
      RAZORPAY_KEY_SECRET: "secret",
      RAZORPAY_WEBHOOK_SECRET: "webhook-secret",
      RAZORPAY_API_URL: "http://127.0.0.1:9999/v1/",
    });
    expect(config.mandates).toEqual({
      provider: {
        name: "razorpay",
        keyId: "rzp_test_k",
        keySecret: "secret",
        webhookSecret: "webhook-secret",
        apiUrl: "http://127.0.0.1:9999/v1",
      },
      localDebitSeconds: 5,
    });
    // The local checkout may stay the repayments' provider meanwhile.
    expect(config.payments.provider).toEqual({ name: "local" });
  });

  it("never pays out through the local stand-in in production", () => {
    expect(() =>
      loadConfig({
        ...productionSecrets(),
        PAYOUT_PROVIDER: "local",
      }),
    ).toThrow(/PAYOUT_PROVIDER/);
    expect(loadConfig({ DATA_DIR: tempDir() }).payouts.provider).toEqual({ name: "local", settleSeconds: 5 });
  });

  it("never takes repayments through the local checkout in production", () => {
    expect(() =>
      loadConfig({
        ...productionSecrets(),
        PAYMENT_PROVIDER: "local",
      }),
    ).toThrow(/PAYMENT_PROVIDER/);
    expect(loadConfig({ DATA_DIR: tempDir() }).payments.provider).toEqual({ name: "local" });
  });

  it("wants SMTP for e-mail in production, and the VAPID keys as a pair", () => {
    const production = productionSecrets();
    expect(() => loadConfig(production)).toThrow(/SMTP_URL: is required when e-mail goes by SMTP/);
    expect(() => loadConfig({ ...production, EMAIL_PROVIDER: "local" })).toThrow(/EMAIL_PROVIDER: cannot be the local outbox/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), VAPID_PUBLIC_KEY: "B".repeat(87) })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/,
    );
    const local = loadConfig({
      DATA_DIR: tempDir(),
      SMS_DLT_TEMPLATE_DUE_TODAY: "1207161234567890123",
      SMS_DLT_TEMPLATE_DUE_TODAY_HI: "1207161234567890124",
    });
    expect(local.email.provider).toEqual({ name: "local" });
    expect(local.smsTemplates.en.due_today).toBe("1207161234567890123");
    expect(local.smsTemplates.hi.due_today).toBe("1207161234567890124");
    expect(local.smsTemplates.en.payment_received).toMatch(/^\d{19}$/);
    // Each language's SMS is its own DLT template: no id is shared.
    const ids = [...Object.values(local.smsTemplates.en), ...Object.values(local.smsTemplates.hi)];
    expect(new Set(ids).size).toBe(ids.length);
    // Local: a VAPID pair generated once into the data directory, the same on the next start.
    expect(local.push?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it("starts production when everything is configured, without writing secrets", () => {
    const dir = tempDir();
    const config = loadConfig({
      DATA_DIR: dir,
      APP_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      ENCRYPTION_KEY: "a".repeat(64),
      SMS_GATEWAY_URL: "https://sms.example.invalid/send",
      SMS_GATEWAY_KEY: "key",
      PUBLIC_URL: "https://loans.example.in",
      TRUST_PROXY: "1",
      ...PRODUCTION_PROVIDERS,
      EMAIL_FROM: "Sugam Loans <notices@example.invalid>",
      BUREAU_MEMBER_ID_CIBIL: "NB12345678",
      BUREAU_MEMBER_ID_EQUIFAX: "EQ12345678",
      BUREAU_MEMBER_ID_EXPERIAN: "EX12345678",
      BUREAU_MEMBER_ID_CRIF: "CR12345678",
    });
    expect(config.isProduction).toBe(true);
    expect(config.bureau.memberIds).toEqual({ cibil: "NB12345678", equifax: "EQ12345678", experian: "EX12345678", crif: "CR12345678" });
    expect(config.email).toEqual({
      provider: { name: "smtp", url: "smtps://mailer:secret@smtp.example.invalid:465" },
      from: "Sugam Loans <notices@example.invalid>",
    });
    // No VAPID keys configured: push is off, never generated into a production data directory.
    expect(config.push).toBeNull();
    expect(config.payouts.provider).toMatchObject({ name: "razorpayx", apiUrl: "https://api.razorpay.com/v1", mode: "IMPS" });
    expect(config.payments.provider).toMatchObject({ name: "razorpay", apiUrl: "https://api.razorpay.com/v1" });
    expect(config.mandates.provider).toEqual({ name: "none" });
    expect(config.seedDemoData).toBe(false);
    expect(config.trustProxy).toBe(1);
    expect(config.messageOrigin).toBe("https://loans.example.in");
    expect(existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });
});
