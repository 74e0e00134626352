import net from "node:net";

/** A TCP proxy to PostgreSQL that can be killed (every connection cut) and started again on its port. */
export function databaseProxy(target: URL) {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => {
        port = (listening.address() as net.AddressInfo).port;
        server = listening;
        resolve();
      });
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  return {
    start,
    kill,
    url: () => {
      const u = new URL(target.href);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.href;
    },
  };
}
