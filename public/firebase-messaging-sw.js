// The service worker for push notices (docs/product.md "Notifications"), at the original
// application's fixed path. A push carries {"title","body","url","tag"}, encrypted for this
// browser; it is shown with the site's icon (/loadingGif.gif when none is given). Clicking it
// opens its page of this site.
const FALLBACK = { title: "You have a new notice", body: "Open the app to read it.", url: "/User/Notifications" };

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** Only a page of this site is opened from a notice. */
function sameOrigin(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL(FALLBACK.url, self.location.origin).href;
  } catch {
    return new URL(FALLBACK.url, self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let notice = FALLBACK;
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === "string") notice = { ...FALLBACK, ...data };
  } catch {
    // Not JSON: the generic notice.
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: notice.icon || "/loadingGif.gif",
      badge: "/loadingGif.gif",
      tag: notice.tag,
      data: { url: sameOrigin(notice.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of open) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      for (const client of open) {
        if ("navigate" in client && new URL(client.url).origin === self.location.origin) {
          await client.focus();
          return client.navigate(url);
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
