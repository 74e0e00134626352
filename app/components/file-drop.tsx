import { Camera, FileUp, LoaderCircle } from "lucide-react";
import { type DragEvent, useState } from "react";
import { Form, useFetcher } from "react-router";
import { useTranslations } from "../i18n/use-translations.ts";
import { fileTooLargeMessage, judgeFile, type SniffedType } from "../domain/kyc/documents.ts";
import { useHydrated } from "../lib/use-hydrated.ts";
import { useMessageText } from "../lib/use-message-text.ts";

interface FileDropProps {
  /** The document this box takes (sent as `kind`). */
  kind: string;
  /** Shown in the box: "Upload PAN card", "Replace PAN card". */
  label: string;
  /** The kinds of file taken, judged by their bytes (the server judges them again). */
  allowed: readonly SniffedType[];
  maxBytes: number;
  /** The server's words about the last upload of this kind, if it was refused (words, or a message key). */
  error?: string | null;
  /** Offer the phone's camera as well (photos of paper documents). */
  camera?: boolean;
}

/**
 * An upload box that sends the file as soon as it is chosen, dropped (on a desktop) or photographed
 * (on a phone), with the file's progress and any refusal in words beside it. Without JavaScript it
 * is a file field and an Upload button, posting the same form. Its words are the "profileSections"
 * namespace's, which the page loads.
 */
export function FileDrop({ kind, label, allowed, maxBytes, error, camera = true }: FileDropProps) {
  const accept = allowed.join(",");
  const t = useTranslations("profileSections");
  const say = useMessageText();
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ kind: string | null; error: string }>();
  const [local, setLocal] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [sending, setSending] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  const shown = local ?? (busy ? null : fetcher.data?.kind === kind ? fetcher.data.error : (error ?? null));
  const inputId = `file-${kind}`;
  const errorId = `${inputId}-error`;

  const send = async (file: File | undefined) => {
    if (!file || busy) return;
    if (file.size > maxBytes) {
      setLocal(fileTooLargeMessage(maxBytes));
      return;
    }
    // The same judgement the server makes, before megabytes go over a phone's connection.
    const [head, tail] = await Promise.all([file.slice(0, 16).arrayBuffer(), file.slice(-16).arrayBuffer()]);
    const judged = judgeFile({ head: new Uint8Array(head), tail: new Uint8Array(tail), size: file.size, name: file.name }, allowed);
    if (!judged.ok) {
      setLocal(judged.message);
      return;
    }
    setLocal(null);
    setSending(file.name);
    const body = new FormData();
    body.set("kind", kind);
    body.set("file", file);
    void fetcher.submit(body, { method: "post", encType: "multipart/form-data" });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void send(event.dataTransfer.files[0]);
  };

  return (
    <Form method="post" encType="multipart/form-data" className="space-y-2">
      <input type="hidden" name="kind" value={kind} />
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid={`drop-${kind}`}
        className={`rounded-xl border-2 border-dashed p-4 transition-colors has-[:focus-visible]:border-brand-600 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-200 ${over ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50"}`}
      >
        {/* The controls stay while a file goes (focus stays where it was); the line below says how it goes. */}
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={inputId} className="btn-secondary cursor-pointer">
            <FileUp aria-hidden="true" className="size-5" />
            {label}
          </label>
          <input
            id={inputId}
            name="file"
            type="file"
            accept={accept}
            className={hydrated ? "sr-only" : "block w-full text-sm"}
            aria-invalid={shown ? true : undefined}
            aria-describedby={errorId}
            required
            onChange={(event) => {
              if (!hydrated) return;
              void send(event.currentTarget.files?.[0]);
              event.currentTarget.value = "";
            }}
          />
          {hydrated && camera ? (
            <label className="btn-secondary cursor-pointer pointer-fine:hidden">
              <Camera aria-hidden="true" className="size-5" />
              {t("fileDrop.takePhoto")}
              <input
                type="file"
                accept={allowed.filter((type) => type !== "application/pdf").join(",")}
                capture="environment"
                className="sr-only"
                onChange={(event) => {
                  void send(event.currentTarget.files?.[0]);
                  event.currentTarget.value = "";
                }}
              />
            </label>
          ) : null}
          {hydrated ? (
            <span className="hidden text-sm text-slate-600 pointer-fine:inline">{t("fileDrop.orDrag")}</span>
          ) : (
            <button type="submit" className="btn-primary">
              {t("fileDrop.upload")}
            </button>
          )}
        </div>
        {busy ? (
          <p className="mt-3 flex items-center gap-2 font-medium text-slate-800" role="status">
            <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-brand-700 motion-reduce:animate-none" />
            {t("fileDrop.uploading", { name: sending ?? "" })}
          </p>
        ) : null}
      </div>
      <p id={errorId} className="field-error" aria-live="polite">
        {shown ? say(shown) : null}
      </p>
    </Form>
  );
}
