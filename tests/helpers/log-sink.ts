import { Writable } from "node:stream";

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A destination for the process's logger (pino, one JSON line a write) keeping what it was given: as text, and parsed. */
export function logSink() {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      written.push(String(chunk));
      done();
    },
  });
  return {
    sink,
    /** Everything written, as one text. */
    text: () => written.join(""),
    /** Each line, parsed. */
    lines: () => written.map((line) => JSON.parse(line) as LogLine),
  };
}
