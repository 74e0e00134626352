declare module "fxa-common-password-list" {
  const list: { test(password: string): boolean };
  export default list;
}

declare module "proxy-addr" {
  import type { IncomingMessage } from "node:http";
  /** The client's address: the socket's, or X-Forwarded-For's as far as `trust` allows. */
  function proxyaddr(req: IncomingMessage, trust: (address: string, hop: number) => boolean): string;
  export default proxyaddr;
}
