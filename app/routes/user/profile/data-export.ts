import { servicesContext } from "../../../context.ts";
import { formatTimeIST, todayIST } from "../../../domain/india-date.ts";
import { plainTranslator } from "../../../i18n/plain-format.ts";
import { downloadMyData, type ExportFormat } from "../../../server/privacy/download.server.ts";
import { renderExportPdf } from "../../../server/privacy/export-pdf.server.ts";
import { downloadHeaders, pdfResponse } from "../../../web/file-response.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { languageOf } from "../../../web/i18n.server.ts";
import type { Route } from "./+types/data-export";

/**
 * GET /User/Profile/data/export.json and …/export.pdf: everything held about the signed-in borrower
 * (docs/product.md "Protecting data and the service"), as a download; at the hourly limit, 429 in words.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const format: ExportFormat = new URL(request.url).pathname.toLowerCase().endsWith(".pdf") ? "pdf" : "json";
  // The PDF and the refusal in the language of the request; the JSON keeps its machine keys.
  const language = languageOf(context);
  const result = await downloadMyData(services, { userId: user.id, format });
  if (!result.ok) {
    const wait = Math.max(1, Math.ceil((result.resetAt.getTime() - services.now().getTime()) / 1000));
    const tooMany = plainTranslator(language, "dataExport")("tooMany", { limit: result.limit, time: formatTimeIST(result.resetAt) });
    return new Response(tooMany, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(wait), "Cache-Control": "private, no-store" },
    });
  }
  const { brandName, lender } = services.config.public;
  const filename = `${brandName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-my-data-${todayIST(services.now())}.${format}`;
  if (format === "pdf") return pdfResponse(await renderExportPdf(result.data, { brandName, lender }, language), filename, "attachment");
  return new Response(JSON.stringify(result.data, null, 2), { headers: downloadHeaders(filename, "application/json; charset=utf-8") });
}
