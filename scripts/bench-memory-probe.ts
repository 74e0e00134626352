// Loaded by the bench into its server's processes only (`node --expose-gc --import` this file; the
// cluster's workers inherit both): on SIGUSR2, the size of V8's young generation, a full garbage
// collection, then the JS heap still in use, as JSON in $DATA_DIR/memory-<pid>.json. The bench
// reads it to tell what a process keeps alive from what V8 merely has not given back yet (its young generation and a load's garbage are
// returned only when V8 judges the process idle, which can take from seconds to never).
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";

// A "last resort" collection also shrinks the young generation and hands V8's pooled free pages
// back, as V8 does when it finds the process idle; a plain gc() keeps both.
const gc = (globalThis as { gc?: (options?: { type: string; execution: string; flavor: string }) => void }).gc;
const collect = gc && (() => gc({ type: "major", execution: "sync", flavor: "last-resort" }));
const dir = process.env.DATA_DIR;

if (collect && dir) {
  process.on("SIGUSR2", () => {
    const youngGenerationBytes = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.physical_space_size ?? 0;
    collect();
    const figures = { youngGenerationBytes, heapUsedBytes: process.memoryUsage().heapUsed };
    // Written whole or not at all: the bench polls for the file.
    const file = path.join(dir, `memory-${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    renameSync(`${file}.tmp`, file);
  });
}
