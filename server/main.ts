import type { Language } from "../app/i18n/languages.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { RequestHandler } from "express";
import proxyaddr from "proxy-addr";
import type { DestinationStream } from "pino";
import type { AppServices } from "../app/context.ts";
import { type Database, migrate, openDatabase } from "../app/server/db/client.ts";
import { seedInstallation } from "../app/server/db/seed.ts";
import { createLocalBankVerifier } from "../app/server/bank/verification.server.ts";
import { createLocalCreditBureau, createLocalPanVerifier } from "../app/server/credit/checks.server.ts";
import { keyringFromHex } from "../app/server/crypto.server.ts";
import { PUBLIC_CONTENT_EVENTS, startRealtimeHub } from "../app/server/realtime/hub.server.ts";
import { createHttpSms, createOutboxSms } from "../app/server/sms/sms.server.ts";
import { createConfiguredStorage } from "../app/server/storage/s3-storage.server.ts";
import { filesLeftOnDisk } from "../app/server/storage/move.server.ts";
import { createOutboxEmail, createSmtpEmail } from "../app/server/email/email.server.ts";
import { createWebPush } from "../app/server/push/push.server.ts";
import { startJobQueue } from "../app/server/jobs/queue.server.ts";
import { startWorkers } from "../app/server/jobs/workers.server.ts";
import { refreshHolidays } from "../app/server/holidays.server.ts";
import { clearProductCache } from "../app/server/products.server.ts";
import { clearPolicyCache } from "../app/server/credit/policy.server.ts";
import { createLocalCheckout, localCheckoutSecret } from "../app/server/payments/local.server.ts";
import { createLocalMandates, localMandateSecret } from "../app/server/mandates/local.server.ts";
import { createRazorpayMandates } from "../app/server/mandates/razorpay.server.ts";
import { DEMO_BORROWER_MOBILE, seedDemoLoans } from "../app/server/servicing/demo.server.ts";
import { createRazorpayPayments } from "../app/server/payments/razorpay.server.ts";
import { createLocalCkyc, localCkycSecret } from "../app/server/ckyc/provider.server.ts";
import { createLocalPayouts } from "../app/server/payouts/provider.server.ts";
import { createRazorpayXPayouts } from "../app/server/payouts/razorpayx.server.ts";
import { type Config, loadConfig, localOrigin } from "./config.ts";
import { closeGracefully, createHttpApp } from "./http.ts";
import { createPageCache } from "./page-cache.ts";
import { securityHeaders } from "./security-headers.ts";
import { createLogger } from "./logger.ts";

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Development mode: Vite in middleware mode with hot reload. */
  dev?: boolean;
  /** Directory holding build/ (default: the current directory). */
  root?: string;
  /** PostgreSQL schema to run in (tests). */
  searchPath?: string;
  now?: () => Date;
  /** Where the JSON log goes (default: standard output); tests read it. */
  logDestination?: DestinationStream;
}

export interface RunningServer {
  url: string;
  server: Server;
  config: Config;
  database: Database;
  services: AppServices;
  close(): Promise<void>;
}

type HandlerModule = {
  createReactRouterHandler(services: AppServices, mode: string): RequestHandler;
  createPageRenderer(services: AppServices, mode: string): (path: string) => Promise<Response>;
};

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const root = path.resolve(options.root ?? ".");
  const bootLog = createLogger(env.LOG_LEVEL ?? "info");
  const config = loadConfig(env, (message) => bootLog.warn(message));
  const log = createLogger(config.logLevel, options.logDestination);

  const searchPath = options.searchPath ?? config.databaseSchema;
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, searchPath, log });
  const applied = await migrate(database.db);
  if (applied.length) log.info({ applied }, "database migrated");
  // Never a demo admin in production, even when demo data is asked for.
  const { reference, demo: seeded } = await seedInstallation(database.db, {
    demoData: config.seedDemoData,
    demoAdmin: !config.isProduction,
  });
  if (reference.products || reference.riskBands || reference.policy) log.info(reference, "reference data seeded");
  if (seeded) {
    if (seeded.feedback) log.info({ feedback: seeded.feedback }, "demo data seeded");
    if (seeded.admin) {
      log.warn(
        { email: seeded.admin.email, password: seeded.admin.password },
        `Demo admin created (APP_ENV=local): sign in at /admin/login as ${seeded.admin.email} with password ${seeded.admin.password}`,
      );
    }
  }

  const now = options.now ?? (() => new Date());
  const realtime = await startRealtimeHub(database, {
    channel: `app_events_${searchPath ?? "public"}`,
    log,
    now,
  });
  const keyring = keyringFromHex(config.encryptionKey);
  const storage = createConfiguredStorage(config, keyring);
  // Uploads cut off by a killed process: on PGlite this process owns the data directory alone; on
  // PostgreSQL other processes may share it and be receiving uploads now, so only long-idle ones go.
  const leftovers = await storage.cleanTemp(database.kind === "pglite" ? 0 : 15 * 60_000);
  const sealed = await storage.sealLegacyFiles();
  if (leftovers || sealed) log.info({ leftovers, sealed }, "uploads tidied: partial uploads removed, files kept in clear sealed");
  if (config.storage.kind === "s3")
    await storage
      .check(5_000)
      .catch((error: unknown) =>
        log.error(
          { err: error, bucket: config.storage.kind === "s3" ? config.storage.bucket : undefined },
          "the S3 bucket cannot be reached (missing, refused credentials or no route): uploads and PDFs will fail until it can",
        ),
      );
  const unmoved = config.storage.kind === "s3" ? await filesLeftOnDisk(config.dataDir) : 0;
  if (unmoved)
    log.error(
      { unmoved },
      "files are still in the data directory while S3_BUCKET is set: run npm run storage:move to move them into the bucket",
    );
  const tidyTimer = setInterval(() => {
    storage.cleanTemp(15 * 60_000).catch((error: unknown) => log.warn({ err: error }, "could not remove idle partial uploads"));
  }, 15 * 60_000);
  tidyTimer.unref();
  const jobs = await startJobQueue({
    connection: database.connection,
    // One installation per application schema: beside "public", pg-boss's usual "pgboss".
    schema: searchPath ? `${searchPath}_jobs` : "pgboss",
    onError: (error) => log.warn({ err: error }, "job queue error"),
  });
  const localMandates =
    config.mandates.provider.name === "local"
      ? createLocalMandates(config.dataDir, now, {
          secret: localMandateSecret(config.sessionSecret),
          debitSeconds: config.mandates.localDebitSeconds,
        })
      : null;
  const mandates =
    localMandates ?? (config.mandates.provider.name === "razorpay" ? createRazorpayMandates(config.mandates.provider) : null);
  const services: AppServices = {
    config,
    db: database.db,
    log,
    now,
    sms: config.sms ? createHttpSms(config.sms, log) : createOutboxSms(config.dataDir, log, now),
    email:
      config.email.provider.name === "smtp"
        ? createSmtpEmail({ url: config.email.provider.url, from: config.email.from }, log)
        : createOutboxEmail(config.dataDir, config.email.from, log, now),
    push: config.push ? createWebPush(config.push) : null,
    realtime,
    keyring,
    bankVerifier: createLocalBankVerifier(config.dataDir, now),
    panVerifier: createLocalPanVerifier(config.dataDir, now),
    creditBureau: createLocalCreditBureau(config.dataDir, now, { slowSeconds: config.creditChecks.localSlowSeconds }),
    payouts:
      config.payouts.provider.name === "local"
        ? createLocalPayouts(config.dataDir, now, config.payouts.provider.settleSeconds, {
            feePaise: config.reconciliation.localPayoutFeePaise,
          })
        : createRazorpayXPayouts(config.payouts.provider),
    payments:
      config.payments.provider.name === "local"
        ? createLocalCheckout(config.dataDir, now, localCheckoutSecret(config.sessionSecret), {
            feeBps: config.reconciliation.localGatewayFeeBps,
            holidays: () => config.holidays,
            // The local gateway settles the local autopay debits too, as Razorpay settles its recurring payments.
            moreCaptures: localMandates ? () => localMandates.captures() : undefined,
          })
        : createRazorpayPayments(config.payments.provider),
    mandates,
    ckyc: config.ckyc.provider === "local" ? createLocalCkyc(config.dataDir, now, localCkycSecret(config.sessionSecret)) : null,
    storage,
    jobs,
  };
  if (config.seedDemoLoans && (await seedDemoLoans(services)))
    log.info(
      { mobile: DEMO_BORROWER_MOBILE },
      `Demo borrower created: sign in at /quickStart/Otp with ${DEMO_BORROWER_MOBILE} to see an active loan and a closed one`,
    );
  await startWorkers(services);
  // A product edited on any process: read the products again (also after a lost connection).
  // The holiday calendar as edited by an administrator (else HOLIDAYS), here and on every change.
  await refreshHolidays(services);
  realtime.subscribe((event) => {
    if (event.type === "products_changed" || event.type === "resync") clearProductCache(database.db);
    // A credit policy version confirmed on any process (its table's trigger sends this).
    if (event.type === "public_content_changed" || event.type === "resync") clearPolicyCache(database.db);
    if (event.type === "holidays_changed" || event.type === "resync") {
      refreshHolidays(services).catch((error: unknown) => log.warn({ err: error }, "could not read the holiday calendar"));
    }
  });

  let handler: RequestHandler;
  let renderPage: ((path: string, language: Language) => Promise<Response>) | undefined;
  let devMiddleware: RequestHandler | undefined;
  let closeVite = async () => {};
  if (options.dev) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ root, server: { middlewareMode: true } });
    devMiddleware = viteServer.middlewares as unknown as RequestHandler;
    closeVite = () => viteServer.close();
    handler = async (req, res, next) => {
      try {
        const mod = (await viteServer.ssrLoadModule(path.join(root, "server/app.ts"))) as HandlerModule;
        await mod.createReactRouterHandler(services, "development")(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteServer.ssrFixStacktrace(error);
        next(error);
      }
    };
  } else {
    const buildFile = path.join(root, "build/server/index.js");
    const mod = (await import(pathToFileURL(buildFile).href)) as HandlerModule;
    handler = mod.createReactRouterHandler(services, "production");
    renderPage = mod.createPageRenderer(services, "production");
  }

  const security = securityHeaders(config, Boolean(devMiddleware));
  const app = createHttpApp({
    security,
    services,
    database,
    handler,
    devMiddleware,
    clientDir: options.dev ? undefined : path.join(root, "build/client"),
  });

  // Anonymous public pages from memory, before Express (production builds; PAGE_CACHE=false turns it off).
  const pageCache =
    renderPage && config.pageCache
      ? createPageCache({
          render: renderPage,
          securityHeaders: security.forHashedPage,
          log,
          clientIp: (req) => proxyaddr(req, app.get("trust proxy fn") as (address: string, hop: number) => boolean),
          now,
        })
      : null;
  if (pageCache) {
    realtime.subscribe((event) => {
      if (PUBLIC_CONTENT_EVENTS.has(event.type)) pageCache.clear();
    });
  }
  const server = createServer(pageCache ? (req, res) => pageCache.handle(req, res, () => app(req, res)) : app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Idle keep-alive connections stay open longer than a load balancer's (60 s is common): the side
  // that closes first must be the client, or a request sent on a connection just closed is lost.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const { port } = server.address() as AddressInfo;
  const url = localOrigin(port);
  // Without PUBLIC_URL (local), links in messages lead here: the port is known only now (PORT=0).
  if (!config.publicUrl) config.messageOrigin = url;
  log.info({ url, database: database.kind, appEnv: config.appEnv }, `${config.public.brandName} listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    config,
    database,
    services,
    close() {
      closing ??= (async () => {
        clearInterval(tidyTimer);
        await realtime.stop(); // ends the open event streams, which would hold the server open
        await closeGracefully(server);
        await jobs.stop();
        await closeVite();
        await database.close();
        storage.close();
        log.info("server stopped");
      })();
      return closing;
    },
  };
}
