// Run in a child process by openDatabase (client.ts) when the embedded database's data directory is
// new: PGlite creates it (initdb), and the child exits. initdb's memory (about 150 MB that the
// allocator keeps once freed) goes back to the system with the child, instead of staying with the server.
import { PGlite } from "@electric-sql/pglite";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: pglite-init.ts <data directory>");
const client = await PGlite.create(dataDir);
await client.close();
