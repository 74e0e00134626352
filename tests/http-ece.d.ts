/** http_ece (RFC 8188 encrypted content encoding), as the push test uses it to read what web-push sent. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  export function decrypt(body: Buffer, options: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer;
}
