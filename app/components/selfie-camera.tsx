import { useEffect, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { useTranslations } from "../i18n/use-translations.ts";
import { MAX_SELFIE_BYTES } from "../domain/kyc/documents.ts";

type Stage = "idle" | "starting" | "live" | "captured" | "error";

/** Encodes the canvas as JPEG, lowering the quality until it fits the selfie limit. */
async function toJpeg(canvas: HTMLCanvasElement): Promise<Blob | null> {
  for (const quality of [0.9, 0.8, 0.7, 0.6, 0.5]) {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
    if (blob && blob.size <= MAX_SELFIE_BYTES) return blob;
  }
  return null;
}

/**
 * The selfie camera: live preview, capture, retake, and upload as a JPEG of
 * at most 2 MB. Says clearly when there is no camera or permission is refused. Its words are the
 * "profileSections" namespace's, which the page loads.
 */
export function SelfieCamera() {
  const t = useTranslations("profileSections");
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const [stage, setStage] = useState<Stage>("idle");
  const [message, setMessage] = useState("");
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const submit = useSubmit();

  const stop = () => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
  };
  // Turn the camera off when the page is left.
  useEffect(
    () => () => {
      for (const track of stream.current?.getTracks() ?? []) track.stop();
    },
    [],
  );

  async function start() {
    setMessage("");
    if (!navigator.mediaDevices?.getUserMedia) {
      setStage("error");
      setMessage(t("camera.unsupported"));
      return;
    }
    setStage("starting");
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user", width: { ideal: 1280 } }, audio: false });
      if (video.current) {
        video.current.srcObject = stream.current;
        await video.current.play();
      }
      setStage("live");
    } catch (error) {
      const name = (error as DOMException).name;
      setStage("error");
      setMessage(
        name === "NotAllowedError" || name === "SecurityError"
          ? t("camera.refused")
          : name === "NotFoundError" || name === "OverconstrainedError"
            ? t("camera.notFound")
            : t("camera.failed"),
      );
    }
  }

  async function capture() {
    const v = video.current;
    if (!v) return;
    const canvas = document.createElement("canvas");
    canvas.width = v.videoWidth || 640;
    canvas.height = v.videoHeight || 480;
    canvas.getContext("2d")?.drawImage(v, 0, 0, canvas.width, canvas.height);
    const blob = await toJpeg(canvas);
    if (!blob) {
      setMessage(t("camera.tooLarge"));
      return;
    }
    stop();
    setPhoto({ blob, url: URL.createObjectURL(blob) });
    setStage("captured");
  }

  function retake() {
    if (photo) URL.revokeObjectURL(photo.url);
    setPhoto(null);
    void start();
  }

  function upload() {
    if (!photo) return;
    const form = new FormData();
    form.set("kind", "selfie");
    form.set("file", new File([photo.blob], "selfie.jpg", { type: "image/jpeg" }));
    void submit(form, { method: "post", encType: "multipart/form-data" });
  }

  return (
    <section aria-labelledby="camera-title" className="card mt-6 space-y-4">
      <h2 id="camera-title" className="text-lg">
        {t("camera.heading")}
      </h2>
      <p className="text-sm text-slate-700">{t("camera.tip")}</p>
      <video
        ref={video}
        className={stage === "live" ? "w-full rounded-xl bg-slate-900" : "hidden"}
        playsInline
        muted
        aria-label={t("camera.preview")}
      />
      {photo ? <img src={photo.url} alt={t("camera.capturedAlt")} className="w-full rounded-xl" /> : null}
      <p role="status" className="text-sm text-danger-600">
        {message}
      </p>
      <div className="flex flex-wrap gap-3">
        {stage === "idle" || stage === "error" ? (
          <button type="button" className="btn-primary" onClick={start}>
            {t("camera.start")}
          </button>
        ) : null}
        {stage === "starting" ? <p>{t("camera.starting")}</p> : null}
        {stage === "live" ? (
          <button type="button" className="btn-primary" onClick={capture}>
            {t("camera.capture")}
          </button>
        ) : null}
        {stage === "captured" ? (
          <>
            <button type="button" className="btn-primary" onClick={upload}>
              {t("camera.use")}
            </button>
            <button type="button" className="btn-secondary" onClick={retake}>
              {t("camera.retake")}
            </button>
          </>
        ) : null}
      </div>
    </section>
  );
}
