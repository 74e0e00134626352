import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { keyringFromHex } from "../../app/server/crypto.server.ts";
import { openStream, SEGMENT_BYTES, sealStream } from "../../app/server/storage/sealed-stream.server.ts";

const keyring = keyringFromHex("11".repeat(32));
/** Feeds `bytes` in uneven chunks, as a network would. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let i = 0, n = 1; i < bytes.length; i += n, n = ((n * 7 + 3) % 9000) + 1) yield bytes.subarray(i, i + n);
    })(),
  );
const seal = (bytes: Buffer) => buffer(chunked(bytes).pipe(sealStream(keyring)));
const open = (sealed: Buffer, ring = keyring) => buffer(chunked(sealed).pipe(openStream(ring)));

describe("sealed files", () => {
  it.each([0, 1, SEGMENT_BYTES - 1, SEGMENT_BYTES, SEGMENT_BYTES + 1, 3 * SEGMENT_BYTES, 200_000])(
    "round-trips %i bytes and never stores them in clear",
    async (size) => {
      const plain = randomBytes(size);
      const sealed = await seal(plain);
      expect(sealed.subarray(0, 4).toString()).toBe("SLF1");
      if (size >= 32) expect(sealed.includes(plain.subarray(0, 32))).toBe(false);
      expect((await open(sealed)).equals(plain)).toBe(true);
    },
  );

  it("seals the same bytes differently each time", async () => {
    const plain = Buffer.from("%PDF-1.4 the same statement");
    expect((await seal(plain)).equals(await seal(plain))).toBe(false);
  });

  it("refuses a changed byte, a file cut off at or inside a segment, a wrong key and plaintext", async () => {
    const plain = randomBytes(2 * SEGMENT_BYTES + 100);
    const sealed = await seal(plain);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 40] = (flipped[flipped.length - 40] ?? 0) ^ 1;
    await expect(open(flipped)).rejects.toThrow();
    const header = 4 + 1 + 2 + 16;
    await expect(open(sealed.subarray(0, header + SEGMENT_BYTES + 16))).rejects.toThrow();
    await expect(open(sealed.subarray(0, sealed.length - 5))).rejects.toThrow();
    await expect(open(sealed, keyringFromHex("22".repeat(32)))).rejects.toThrow();
    await expect(open(plain)).rejects.toThrow("not a sealed file");
  });

  it("opens files sealed with an older key after rotation", async () => {
    const sealed = await seal(Buffer.from("selfie"));
    const rotated = keyringFromHex("33".repeat(32), "k2", { k1: "11".repeat(32) });
    expect((await open(sealed, rotated)).toString()).toBe("selfie");
  });
});
