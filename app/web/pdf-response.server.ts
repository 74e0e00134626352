/** A PDF answer: inline (shown) or attachment (downloaded), never cached by shared caches. */
export function pdfResponse(bytes: Uint8Array, filename: string, disposition: "inline" | "attachment", sha256?: string) {
  const headers = new Headers({
    "Content-Type": "application/pdf",
    "Content-Length": String(bytes.byteLength),
    "Content-Disposition": `${disposition}; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  });
  if (sha256) headers.set("Digest", `sha-256=${Buffer.from(sha256, "hex").toString("base64")}`);
  return new Response(new Uint8Array(bytes), { headers });
}
