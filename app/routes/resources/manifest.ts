import { servicesContext } from "../../context.ts";
import type { Route } from "./+types/manifest";
import { ICON_URL } from "../../lib/icon.ts";

/** The web app manifest: lets the site be installed as an app (the home page's "apk" section). */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  const brand = config.public.brandName;
  const manifest = {
    name: brand,
    short_name: brand.length > 12 ? brand.split(" ")[0] : brand,
    description: `${brand}: personal loans and salary advances with every charge shown up front.`,
    id: "/",
    start_url: "/?source=pwa",
    scope: "/",
    display: "standalone",
    background_color: "#f8fafc",
    theme_color: "#1d5fd1",
    lang: "en-IN",
    icons: [
      { src: ICON_URL, sizes: "any", type: "image/svg+xml", purpose: "any" },
      { src: "/icon-maskable.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable" },
    ],
    ...(config.public.androidAppUrl
      ? {
          related_applications: [{ platform: "play", url: config.public.androidAppUrl }],
          prefer_related_applications: false,
        }
      : {}),
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600" },
  });
}
