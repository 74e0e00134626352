import { NotFoundPage } from "../../components/not-found.tsx";
import { servicesContext } from "../../context.ts";
import { kindOfPath, parseReference } from "../../domain/loans/application.ts";
import { readSession } from "../../server/auth/session.server.ts";
import { pngResponse, storedPdfResponse } from "../../web/file-response.server.ts";
import { firstPagePng } from "../../server/pdf/preview.server.ts";
import { notFoundData } from "../../web/not-found.server.ts";
import type { Route } from "./+types/application-pdf";
import { validPdfLink } from "../../server/loans/pdf-links.server.ts";
import { documentPdf } from "../../server/loans/read.server.ts";
import { pdfBytes } from "../../server/storage/stored-pdf.server.ts";

/**
 * Step5/pdfDisplay, Step5/pdfDownload and Step5/preview.png (the first page as an image, for phones) (docs/product.md "Key Fact Statement, signing and the signed agreement"): outside the /User
 * guard, because a phone's PDF viewer has no session. They answer to the
 * owner's session or to a signed link valid for 10 minutes, never redirect,
 * and otherwise show the not-found page. The PDF is sent by this middleware;
 * the loader and page below only ever render the 404.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, params, context }, next) => {
    const services = context.get(servicesContext);
    const url = new URL(request.url);
    const kind = kindOfPath(url.pathname);
    const reference = parseReference(params.id);
    if (request.method !== "GET" || url.pathname.endsWith(".data") || !kind || !reference) return next();
    let ownerId: string | null = null;
    if (!validPdfLink(services.config, url, services.now())) {
      const signedIn = await readSession(services, request);
      if (!signedIn) return next();
      ownerId = signedIn.user.id;
    }
    const doc = await documentPdf(services, { kind, reference, ownerId });
    if (!doc) return next();
    if (/\/preview\.png$/i.test(url.pathname))
      return pngResponse(await firstPagePng(() => pdfBytes(services.storage, doc.pdf), doc.pdf.sha256));
    const download = /\/pdfDownload$/i.test(url.pathname);
    return storedPdfResponse(
      services,
      doc.pdf,
      `kfs-and-agreement-${reference.toUpperCase()}.pdf`,
      download ? "attachment" : "inline",
      doc.sizeBytes,
    );
  },
];

export function loader({ request }: Route.LoaderArgs) {
  return notFoundData(request);
}

export default function PdfNotFound({ loaderData }: Route.ComponentProps) {
  return <NotFoundPage path={loaderData?.path} />;
}

export const meta: Route.MetaFunction = () => [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
