import pino from "pino";

export function createLogger(level: string) {
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
}
