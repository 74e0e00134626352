import { data, Form, useSubmit } from "react-router";
import { FileDrop } from "../../../components/file-drop.tsx";
import { useConfirm } from "../../../components/confirm-dialog.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { bankStatementMonths, DOCUMENT_KINDS, DOCUMENT_TYPES, MAX_DOCUMENT_BYTES } from "../../../domain/kyc/documents.ts";
import { formatDateIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { deleteDocument, listDocuments, storeUpload, requiredDocumentKinds } from "../../../server/kyc/documents.server.ts";
import { receiveUpload } from "../../../web/uploads.server.ts";
import type { Route } from "./+types/documents-section";
import { readForm } from "../../../web/forms.server.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [{ employmentType: type, kinds }, docs] = await Promise.all([
    requiredDocumentKinds(services, user.id),
    listDocuments(services, user.id),
  ]);
  return {
    employmentType: type,
    items: kinds.map((kind) => {
      const doc = docs.find((d) => d.kind === kind);
      return {
        kind,
        label: kind === "bank_statement" ? `Bank statement, last ${bankStatementMonths(type)} months` : DOCUMENT_KINDS[kind],
        doc: doc
          ? {
              id: doc.id,
              name: doc.originalName,
              sizeKb: Math.ceil(doc.sizeBytes / 1024),
              type: doc.contentType,
              at: doc.uploadedAt.toISOString(),
            }
          : null,
      };
    }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const back = "/User/Profile/components/Documents";
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const form = await readForm(request);
    if (form.get("intent") === "delete" && (await deleteDocument(services, { userId: user.id, id: String(form.get("id") ?? "") }))) {
      return redirectWithToast(services.config, request, back, { type: "success", title: "The document is deleted." });
    }
    throw data({ message: "No such document." }, { status: 404 });
  }
  const { fields, file } = await receiveUpload(services, request, MAX_DOCUMENT_BYTES);
  const { kinds } = await requiredDocumentKinds(services, user.id);
  const kind = kinds.find((k) => k === fields.kind);
  if (!kind) {
    if (file) await services.storage.remove(file.key);
    return data({ kind: null, error: "Choose which document this is." }, { status: 400 });
  }
  const stored = await storeUpload(services, {
    userId: user.id,
    kind,
    file,
    rules: { maxBytes: MAX_DOCUMENT_BYTES, allowed: DOCUMENT_TYPES },
  });
  if (!stored.ok) return data({ kind, error: stored.message }, { status: 400 });
  return redirectWithToast(services.config, request, back, { type: "success", title: `${DOCUMENT_KINDS[kind]} uploaded.` });
}

export default function DocumentsSection({ loaderData, actionData }: Route.ComponentProps) {
  const confirm = useConfirm();
  const submit = useSubmit();
  return (
    <KycSection
      title="Your documents"
      intro="Clear photos or scans as JPEG, PNG or PDF, up to 5 MB each. For Aadhaar, upload the masked Aadhaar from UIDAI (myaadhaar.uidai.gov.in → Download Aadhaar → Masked Aadhaar): it shows only the last 4 digits."
    >
      {loaderData.employmentType === null ? (
        <p className="card mt-6 border-amber-300 bg-amber-50">
          Fill in your work and income first if you are self-employed: the documents differ (income-tax returns instead of salary slips).
        </p>
      ) : null}
      <ul className="mt-6 space-y-4">
        {loaderData.items.map((item) => {
          return (
            <li
              key={item.kind}
              id={`doc-${item.kind}`}
              className="card scroll-mt-4 space-y-3 target:border-brand-600"
              data-testid={`doc-${item.kind}`}
            >
              <h2 className="text-lg">{item.label}</h2>
              {item.doc ? (
                <div className="flex flex-wrap items-center gap-3 text-sm">
                  <span>
                    Uploaded {formatDateIST(new Date(item.doc.at))}: {item.doc.name} ({item.doc.sizeKb} kB)
                  </span>
                  <a className="link" href={`/User/Profile/documents/${item.doc.id}`} target="_blank" rel="noopener">
                    View
                  </a>
                  <Form
                    method="post"
                    onSubmit={async (event) => {
                      event.preventDefault();
                      const formEl = event.currentTarget;
                      if (
                        await confirm({
                          title: `Delete ${item.label}?`,
                          description: "You will need to upload it again before you apply.",
                          confirmLabel: "Delete",
                          danger: true,
                        })
                      ) {
                        void submit(formEl);
                      }
                    }}
                  >
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={item.doc.id} />
                    <button type="submit" className="link text-danger-600">
                      Delete
                    </button>
                  </Form>
                </div>
              ) : (
                <p className="text-sm text-slate-600">Not uploaded yet.</p>
              )}
              <FileDrop
                kind={item.kind}
                label={item.doc ? `Replace ${item.label}` : `Upload ${item.label}`}
                allowed={DOCUMENT_TYPES}
                maxBytes={MAX_DOCUMENT_BYTES}
                error={actionData?.kind === item.kind ? actionData.error : null}
              />
            </li>
          );
        })}
      </ul>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your documents");
