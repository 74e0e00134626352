import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { USE_INTL_FORMAT_ONLY } from "./vite.aliases.ts";
import { useIntlSharedCache } from "./vite.use-intl-cache.ts";

// The server build's entry is server/app.ts: it wraps React Router's server
// build in a request handler that receives the process's services (config,
// database, logger) from server.ts, so the bundle never opens a database itself.
//
// The browser's modules: what every page loads comes in two files instead of about twenty small
// ones (each file compresses on its own, so one file is about 4 kB of gzip smaller than its parts,
// and the route manifest lists fewer imports). "framework": React, React DOM and React Router;
// "shell": the root route and what every layout uses (page titles, the lender's details, the icon
// base). The rest is split by route as usual.
export default defineConfig({
  resolve: { alias: USE_INTL_FORMAT_ONLY },
  // Bundled into the server build so that the alias reaches use-intl's own import of its formatter.
  ssr: { noExternal: ["use-intl"] },
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
                  priority: 20,
                },
                {
                  name: "shell",
                  test: /app[\\/](root\.tsx|lib[\\/](meta|displaced)\.ts|components[\\/]lender-trust\.tsx)|lucide-react[\\/]dist[\\/]esm[\\/](Icon|createLucideIcon|context|defaultAttributes|shared[\\/])/,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [useIntlSharedCache(), tailwindcss(), reactRouter()],
});
