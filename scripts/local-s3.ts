// `node scripts/local-s3.ts [port]`: a local S3-compatible server (s3rver, a development
// dependency) for tests and the storage bench, in a temporary directory removed at exit. Prints
// "S3 endpoint: http://127.0.0.1:<port>" once it listens. Buckets are made by whoever uses it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

const directory = mkdtempSync(path.join(tmpdir(), "local-s3-"));
const server = new S3rver({ address: "127.0.0.1", port: Number(process.argv[2] ?? 0), directory, silent: true });
const { port } = await server.run();
console.log(`S3 endpoint: http://127.0.0.1:${port}`);
const stop = () => {
  server.close().finally(() => {
    rmSync(directory, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
