import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Settings } from "../../server/config.ts";

/** s3rver accepts any credentials whose secret matches its one account's. */
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestBucket {
  settings: S3Settings;
  /** The S3_* variables that point a server at this bucket. */
  env: Record<string, string>;
  /** Every key in the bucket, sorted. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * A fresh bucket on a local S3-compatible server: `endpoint`, else the one CI started
 * (TEST_S3_ENDPOINT, from scripts/local-s3.ts), else an s3rver of this test's own on a free port
 * with a temporary directory (stopped by `stop`).
 */
export async function startTestBucket(endpointGiven?: string): Promise<TestBucket> {
  let endpoint = endpointGiven || process.env.TEST_S3_ENDPOINT || "";
  let stopServer = async () => {};
  if (!endpoint) {
    const directory = mkdtempSync(path.join(tmpdir(), "s3rver-"));
    const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    stopServer = async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    };
  }
  const bucket = `test-${randomBytes(6).toString("hex")}`;
  const client = new S3Client({ region: "ap-south-1", endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const settings: S3Settings = { kind: "s3", bucket, region: "ap-south-1", endpoint, credentials: CREDENTIALS, forcePathStyle: true };
  return {
    settings,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: "ap-south-1",
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async keys() {
      // Up to 1,000: as many as a test makes.
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((o) => o.Key ?? "").sort();
    },
    async stop() {
      client.destroy();
      await stopServer();
    },
  };
}
