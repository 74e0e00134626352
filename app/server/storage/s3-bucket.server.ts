import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { S3Settings } from "../../../server/config.ts";
import type { ListedFile } from "./storage.server.ts";

/**
 * The few bucket operations files need, over the AWS SDK (docs/decisions/0010-object-storage.md).
 * Objects hold sealed bytes only (sealed-stream.server.ts): the bucket never sees a file in clear.
 */
export interface Bucket {
  /** Streams the file at `file` into `key`, with its length stated (one PutObject: all of it, or nothing). */
  putFile(key: string, file: string): Promise<void>;
  /** The object's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** The object's bytes as a stream; rejects when there is none. */
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Rejects unless the bucket answers that it is there and these credentials may use it, within `timeoutMs`. */
  reachable(timeoutMs: number): Promise<void>;
  /** Every object whose key starts with `prefix`, a page of up to 1,000 at a time. */
  list(prefix: string): AsyncIterable<ListedFile>;
  close(): void;
}

/** A PutObject not sent whole (a dropped connection, a 5xx, throttling) may be tried again; a 4xx refusal may not. */
const worthRetrying = (error: unknown) => !(error instanceof S3ServiceException && error.$fault === "client");
const PUT_ATTEMPTS = 3;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound");

export function openBucket(settings: S3Settings): Bucket {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: the SDK's default wraps a streamed body in aws-chunked
    // framing with a trailing checksum, which several S3-compatible services store as the object's
    // bytes. Integrity is the sealed format's (every 64 KiB segment authenticated) and the length's.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Its one warning (a streamed body is not retried by the SDK) is answered by putFile's own retries.
    logger: quiet,
  });
  const Bucket = settings.bucket;
  return {
    async putFile(key, file) {
      const { size } = await stat(file);
      // The SDK cannot send a stream twice; the file can be read again, so a failed attempt is retried here.
      for (let attempt = 1; ; attempt++) {
        try {
          await client.send(new PutObjectCommand({ Bucket, Key: key, Body: createReadStream(file), ContentLength: size }));
          return;
        } catch (error) {
          if (attempt >= PUT_ATTEMPTS || !worthRetrying(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
        }
      }
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async get(key) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      if (!object.Body) throw new Error(`storage: ${key} has no body`);
      return object.Body as Readable;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async reachable(timeoutMs) {
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    close() {
      client.destroy();
    },
  };
}
