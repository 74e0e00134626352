// The job queue (docs/decisions/0004-job-queue.md): pg-boss in the application's own database,
// PostgreSQL or the embedded PGlite, behind one small interface. A job sent with an open
// transaction is stored in it, so it exists only if that transaction commits.
import { type SQL, sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss } from "pg-boss";
import type { DatabaseConnection, Db } from "../db/client.ts";
import type { Language } from "../../i18n/languages.ts";

/** Every job the application runs, with the data it carries. */
export interface JobPayloads {
  /** Hourly: old one-time-code rows and the presence rows of processes that died. */
  housekeeping: Record<string, never>;
  /**
   * A text message, sent after the change that caused it commits. Notices now go by `notify`; this
   * queue is still worked so that messages queued by an earlier version are sent after an upgrade.
   */
  sms: { to: string; text: string; templateId?: string };
  /** The PAN verification and bureau report of an application taken for review (the missing ones). */
  "credit-checks": { applicationId: string };
  /** A bureau report that did not answer in time before an offer: asked again (`round` counts), the borrower told by SMS. */
  "credit-report": { userId: string; purpose: "offer" | "review"; applicationId: string | null; then: string; round: number };
  /** Send a requested payout, or ask the provider about it; asks again later while it is pending (`round` counts). */
  "payout-check": { payoutId: string; round: number };
  /** Every 10 minutes: payouts still waiting whose questions stopped are asked about again. */
  "payouts-sweep": Record<string, never>;
  /** At 00:30 Asia/Kolkata (and at start): the daily servicing run for each business date not yet run, up to today. */
  "servicing-daily": Record<string, never>;
  /** Every 10 minutes: repayments whose gateway never told us the end are asked about. */
  "payments-sweep": Record<string, never>;
  /** One notice to a borrower: its SMS, e-mail and pushes, each sent once (docs/product.md "Notifications"). */
  notify: { notificationId: string };
  /** A contact-form ticket (no account): the e-mail acknowledging it, or carrying a staff reply, sent once. */
  /** `language`: the e-mail's (the contact page's, for the acknowledgement); else the contact's account's, else English. */
  "ticket-email": { messageId: string; language?: Language };
  /** A loan that ended (closed, cancelled in the cooling-off period, written off): its autopay ended at the provider and here. */
  "mandate-end": { applicationId: string; reason: string };
  /** An autopay debit in progress: the provider asked about it; asks again later while it is pending (`round` counts). */
  "debit-check": { debitId: string; round: number };
  /** Every 10 minutes: autopay debits whose date has come and that are not yet presented (or were cut off half-way), presented. */
  "autopay-sweep": Record<string, never>;
  /** An autopay debit that arrived after its loan ended: what the loan owes back refunded by the system. */
  "debit-refund": { loanNumber: string };
  /** At 01:15 Asia/Kolkata: reconciliation's matching, raising what the books hold that no statement lists after the configured days. */
  "reconciliation-match": Record<string, never>;
  /** The central KYC registry searched for the borrower's record, when they sign an application (docs/product.md "CKYC"). */
  "ckyc-search": { userId: string };
  /** The borrower's KYC record uploaded to the central KYC registry, after a disbursal or when a failure's wait is over. */
  "ckyc-upload": { userId: string };
  /** Hourly: CKYC uploads still to be made whose time has come, queued again. */
  "ckyc-sweep": Record<string, never>;
  /** The borrower screened against the sanctions lists, when they sign an application (docs/product.md "Sanctions screening"). */
  "aml-screen": { userId: string };
  /** Every borrower screened again after a list was loaded, a part at a time from `after`. */
  "aml-rescreen": { after: string | null };
  /** A personal data breach's notices, to its affected borrowers not yet told, a part at a time from the borrower `after`. */
  "breach-notices": { breachId: string; after: string | null };
  /** Daily: stored files no row names, older than a day, removed (app/server/storage/sweep.server.ts). */
  "storage-sweep": Record<string, never>;
}
export type JobName = keyof JobPayloads;
/** Their queues are created at start: a send inside a transaction must not have to create one. */
const JOB_NAMES = [
  "housekeeping",
  "sms",
  "credit-checks",
  "credit-report",
  "payout-check",
  "payouts-sweep",
  "servicing-daily",
  "payments-sweep",
  "notify",
  "ticket-email",
  "mandate-end",
  "debit-check",
  "autopay-sweep",
  "debit-refund",
  "reconciliation-match",
  "ckyc-search",
  "ckyc-upload",
  "ckyc-sweep",
  "aml-screen",
  "aml-rescreen",
  "breach-notices",
  "storage-sweep",
] as const satisfies readonly JobName[];

export interface SendOptions {
  /**
   * The open transaction to store the job in: it runs only if that transaction
   * commits. Inside a transaction always pass it (on PGlite, a job sent beside an
   * open transaction would wait for that transaction's connection, for ever).
   */
  db?: Db;
  /** Not before this time. */
  startAfter?: Date;
  /** At most one queued or running job with this key per name. */
  singletonKey?: string;
}

export interface JobQueue {
  send<N extends JobName>(name: N, data: JobPayloads[N], options?: SendOptions): Promise<string | null>;
  /** Many jobs of one name in one statement (in `db`'s transaction when given); a job whose `singletonKey` is taken is dropped, as by `send`. */
  sendMany<N extends JobName>(
    name: N,
    jobs: readonly { data: JobPayloads[N]; startAfter?: Date; singletonKey?: string }[],
    options?: Pick<SendOptions, "db">,
  ): Promise<void>;
  /** Runs `handler` for the jobs of `name` in this process, up to 10 at once; a handler that throws is retried (3 times, backing off). */
  work<N extends JobName>(name: N, handler: (data: JobPayloads[N]) => Promise<void>): Promise<void>;
  /** A job of `name` at each time `cron` (5 fields, Asia/Kolkata) names, once across all processes. */
  schedule<N extends JobName>(name: N, cron: string, data: JobPayloads[N]): Promise<void>;
  /** Waits for the running jobs to finish (up to `timeoutMs`), then stops. */
  stop(timeoutMs?: number): Promise<void>;
}

export interface JobQueueOptions {
  /** The application's database: the queue's tables live beside its own, in a schema of their own. */
  connection: DatabaseConnection;
  /** The schema pg-boss installs into (one per installation; tests use one each). */
  schema: string;
  /** How often an idle worker looks for jobs, in seconds (at least 0.5); notifications wake it sooner. */
  pollSeconds?: number;
  onError(error: Error): void;
}

/** pg-boss's statements run through the open transaction's own connection. */
function inTransaction(tx: Db) {
  return fromDrizzle({ execute: (query) => tx.execute(query as SQL) as Promise<{ rows: unknown[] }> }, sql);
}

const BATCH_SIZE = 10;
const QUEUE_DEFAULTS = { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300, notify: true } as const;
/**
 * Queues whose jobs must not run twice at once for the same `singletonKey` ("exclusive": one
 * queued or active per key; a second send while one is waiting or running is dropped).
 */
const EXCLUSIVE: readonly JobName[] = ["credit-checks", "servicing-daily", "ckyc-search", "ckyc-upload"];
/** Queues whose jobs may run longer than the default 5 minutes before they count as lost. */
const EXPIRE_SECONDS: Partial<Record<JobName, number>> = { "servicing-daily": 4 * 3600 };
/**
 * Queues that hold at most one waiting and one running job per `singletonKey` ("stately"): a job
 * may schedule its own follow-up while it runs, but a second chain for the same key is dropped.
 */
const STATELY: readonly JobName[] = ["payout-check", "credit-report", "debit-check"];

export async function startJobQueue({ connection, schema, pollSeconds = 2, onError }: JobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    schema,
    ...(connection.kind === "pglite"
      ? { db: fromPglite(connection.client), backend: "pglite" as const }
      : { connectionString: connection.url, max: 3, application_name: "jobs" }),
    useListenNotify: true,
    // The application's own timers watch the clock; pg-boss's cron needs none here.
    clockMonitorIntervalSeconds: 600,
  });
  // Without a listener, an error event (a dropped connection) would end the process.
  boss.on("error", onError);
  await boss.start();
  const created = new Set<string>();
  const ensureQueue = async (name: JobName) => {
    if (created.has(name)) return;
    if (!(await boss.getQueue(name))) {
      const policy = EXCLUSIVE.includes(name) ? "exclusive" : STATELY.includes(name) ? "stately" : undefined;
      const expireInSeconds = EXPIRE_SECONDS[name];
      await boss.createQueue(name, { ...QUEUE_DEFAULTS, ...(policy ? { policy } : {}), ...(expireInSeconds ? { expireInSeconds } : {}) });
    }
    created.add(name);
  };
  for (const name of JOB_NAMES) await ensureQueue(name);

  return {
    async send(name, data, options = {}) {
      // Inside a transaction nothing may go beside it (on PGlite it would wait for the transaction's connection).
      if (!options.db) await ensureQueue(name);
      return boss.send(name, data, {
        ...(options.db ? { db: inTransaction(options.db) } : {}),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      });
    },
    async sendMany(name, many, options = {}) {
      if (!many.length) return;
      if (!options.db) await ensureQueue(name);
      await boss.insert(
        name,
        many.map((job) => ({
          data: job.data,
          ...(job.startAfter ? { startAfter: job.startAfter } : {}),
          ...(job.singletonKey ? { singletonKey: job.singletonKey } : {}),
        })),
        options.db ? { db: inTransaction(options.db) } : {},
      );
    },
    async work(name, handler) {
      await ensureQueue(name);
      await boss.work<JobPayloads[typeof name]>(
        name,
        {
          pollingIntervalSeconds: pollSeconds,
          notifyPollingIntervalSeconds: pollSeconds,
          // Up to 10 at a time, fetched again at once while batches come back full (a backlog is
          // worked through without waiting a polling interval between jobs), each settled alone:
          // one that fails is retried without its neighbours running again.
          batchSize: BATCH_SIZE,
          burstWhenBatchFull: true,
          perJobResults: true,
        },
        async (jobs) => {
          const settled = await Promise.allSettled(jobs.map((job) => handler(job.data)));
          return jobs.map((job, i) => {
            const outcome = settled[i];
            if (outcome?.status !== "rejected") return { id: job.id, status: "completed" } as const;
            const error = outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
            onError(error);
            return { id: job.id, status: "failed", output: { message: error.message } } as const;
          });
        },
      );
    },
    async schedule(name, cron, data) {
      await ensureQueue(name);
      await boss.schedule(name, cron, data, { tz: "Asia/Kolkata" });
    },
    async stop(timeoutMs = 10_000) {
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };
}
