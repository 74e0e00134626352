// React Router's stock setup, for `npm run bench` to compare against: a hello page served by
// `react-router-serve` (Express, compression and morgan, as React Router ships it).
import type { Config } from "@react-router/dev/config";

export default { appDirectory: "app", ssr: true } satisfies Config;
