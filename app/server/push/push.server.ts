import webpush from "web-push";

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What the push service said: delivered, or the subscription is gone (404/410: drop it). */
export type PushOutcome = "sent" | "gone";

/** Web push (VAPID). Any answer but delivered or gone throws (the job tries again later). */
export interface PushSender {
  publicKey: string;
  send(target: PushTarget, payload: string): Promise<PushOutcome>;
}

/**
 * Encrypts the payload for the subscription's keys (RFC 8291, aes128gcm) and signs the request
 * with the VAPID key (RFC 8292) through web-push, then sends it with fetch and a time limit.
 */
export function createWebPush(
  keys: { publicKey: string; privateKey: string; subject: string },
  fetchImpl: typeof fetch = fetch,
): PushSender {
  return {
    publicKey: keys.publicKey,
    async send(target, payload) {
      const request = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: keys,
          TTL: 24 * 3600,
          urgency: "normal",
        },
      );
      const res = await fetchImpl(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : null,
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) return "gone";
      if (res.status >= 200 && res.status < 300) return "sent";
      throw new Error(`the push service answered ${res.status}`);
    },
  };
}

/** Push services of the browsers we know; in production a subscription elsewhere is refused (no requests to arbitrary hosts). */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /\.notify\.windows\.com$/,
  /\.push\.apple\.com$/,
];

/** Whether the server may send to this endpoint: https to a known push service; in `local` any http(s) address (the tests' fake). */
export function pushEndpointAllowed(endpoint: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (!production) return url.protocol === "https:" || url.protocol === "http:";
  return url.protocol === "https:" && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname));
}
