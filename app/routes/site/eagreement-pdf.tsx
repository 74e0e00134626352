import { NotFoundPage } from "../../components/not-found.tsx";
import { servicesContext } from "../../context.ts";
import { parseReference } from "../../domain/loans/application.ts";
import { pngResponse, storedPdfResponse } from "../../web/file-response.server.ts";
import { firstPagePng } from "../../server/pdf/preview.server.ts";
import { notFoundData } from "../../web/not-found.server.ts";
import { agreementRefused, agreementViewer } from "../../web/agreement.server.ts";
import type { Route } from "./+types/eagreement-pdf";
import { signedAgreementPdf } from "../../server/loans/read.server.ts";
import { pdfBytes } from "../../server/storage/stored-pdf.server.ts";

/**
 * /Eagreement/{id}/pdf: the signed PDF, inline or (?download=1) as a download; /Eagreement/{id}/preview.png
 * its first page. Open as the page is (30 days to whoever holds the link, then to its owner signed
 * in): someone not signed in is sent to sign in for the PDF; otherwise the not-found page.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, params, context }, next) => {
    const services = context.get(servicesContext);
    const url = new URL(request.url);
    const ref = parseReference(params.id);
    if (request.method !== "GET" || url.pathname.endsWith(".data") || !ref) return next();
    const viewer = await agreementViewer(services, request);
    const agreement = await signedAgreementPdf(services, ref, viewer);
    const preview = /\/preview\.png$/i.test(url.pathname);
    if (!agreement) return preview ? next() : agreementRefused(services, request, ref, viewer);
    if (preview) return pngResponse(await firstPagePng(() => pdfBytes(services.storage, agreement.pdf), agreement.pdf.sha256));
    const download = url.searchParams.get("download") === "1";
    return storedPdfResponse(
      services,
      agreement.pdf,
      `signed-agreement-${agreement.reference.toUpperCase()}.pdf`,
      download ? "attachment" : "inline",
    );
  },
];

export function loader({ request }: Route.LoaderArgs) {
  return notFoundData(request);
}

export default function SignedPdfNotFound({ loaderData }: Route.ComponentProps) {
  return <NotFoundPage path={loaderData?.path} />;
}

export const meta: Route.MetaFunction = () => [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
