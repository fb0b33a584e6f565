import ArrowDown from "lucide-react/icons/arrow-down";
import ArrowUp from "lucide-react/icons/arrow-up";
import ImagePlus from "lucide-react/icons/image-plus";
import Star from "lucide-react/icons/star";
import Trash2 from "lucide-react/icons/trash";
import { useEffect, useRef, useState, type DragEvent } from "react";
import { Form, useNavigation, useRevalidator, useSubmit } from "react-router";
import {
  PHOTO_ACCEPT,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_COUNT,
  PHOTO_RESTORE_DAYS,
  PHOTO_TEXT,
} from "../../../domain/listing-photos";
import { Badge } from "../ui/badge";
import { Button, buttonClasses } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { EmptyState } from "../ui/empty-state";

/**
 * A listing's photo manager (docs/product.md section 10 "Photos", ADR 015): upload several at
 * once with per-file progress, reorder by drag or with the move buttons (keyboard), make a photo
 * the main one, delete with confirmation. Reorder and delete are plain form posts to the page's
 * action; uploads go to `uploadUrl`, one file per request so each shows its own progress. Without
 * JavaScript the upload form, the move and "make main" buttons still work as ordinary posts.
 * Used by the owner's listing screens; an admin screen can mount it with its own URLs.
 */
export interface ManagedPhoto {
  url: string;
  thumbnail: string;
}

interface Upload {
  id: number;
  name: string;
  progress: number;
  status: "waiting" | "uploading" | "done" | "error";
  message?: string;
}

interface UploadAnswer {
  added?: ManagedPhoto[];
  rejected?: { name: string; message: string }[];
  error?: string;
}

/** One file to the upload endpoint with progress (fetch cannot report upload progress). */
function sendPhoto(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; answer: UploadAnswer }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let answer: UploadAnswer = {};
      try {
        answer = JSON.parse(xhr.responseText) as UploadAnswer;
      } catch {
        answer = { error: xhr.status === 413 ? PHOTO_TEXT.requestTooLarge : `The upload failed (HTTP ${xhr.status}).` };
      }
      resolve({ status: xhr.status, answer });
    };
    xhr.onerror = () => resolve({ status: 0, answer: { error: "The upload failed: the connection was lost." } });
    const body = new FormData();
    body.append("photos", file, file.name);
    xhr.send(body);
  });
}

const moved = (order: string[], from: number, to: number) => {
  const next = [...order];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
};

export function PhotoManager({
  photos,
  uploadUrl,
  listingName,
  action,
}: {
  photos: ManagedPhoto[];
  /** Where files go (multipart, `photos`): JSON for the script, a redirect for a plain post. */
  uploadUrl: string;
  listingName: string;
  /** The route whose action takes `intent=reorder` / `intent=delete`; default: the current route. */
  action?: string;
}) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [announcement, setAnnouncement] = useState("");
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropOver, setDropOver] = useState(false);
  const nextId = useRef(1);
  const input = useRef<HTMLInputElement>(null);
  const focusAfter = useRef<string | null>(null);
  const revalidator = useRevalidator();
  const submit = useSubmit();
  const navigation = useNavigation();
  const byUrl = new Map(photos.map((p) => [p.url, p]));

  // While a reorder is on its way the list shows it (optimistic); otherwise the page's data, so a
  // refused or stale reorder shows the photos as they are.
  const sending = navigation.formData?.get("intent") === "reorder" ? navigation.formData.getAll("order") : null;
  const order = sending ? sending.filter((v): v is string => typeof v === "string") : photos.map((p) => p.url);
  useEffect(() => {
    if (!focusAfter.current || navigation.state !== "idle") return;
    // Keep keyboard users on the photo they moved (its first usable button).
    const item = document.querySelector(`li[data-photo-url="${CSS.escape(focusAfter.current)}"]`);
    item?.querySelector<HTMLElement>("button:not([disabled])")?.focus();
    focusAfter.current = null;
  });

  const shown = order.filter((url) => byUrl.has(url)).map((url) => byUrl.get(url)!);
  const busy = uploads.some((u) => u.status === "waiting" || u.status === "uploading");

  async function upload(files: File[]) {
    if (files.length === 0) return;
    let room = PHOTO_MAX_COUNT - photos.length;
    const queued: { upload: Upload; file: File }[] = files.map((file) => {
      const upload: Upload = { id: nextId.current++, name: file.name, progress: 0, status: "waiting" };
      if (file.size > PHOTO_MAX_BYTES)
        Object.assign(upload, { status: "error", message: PHOTO_TEXT.tooLarge(file.name, file.size) });
      else if (room <= 0) Object.assign(upload, { status: "error", message: PHOTO_TEXT.limit(file.name) });
      else room -= 1;
      return { upload, file };
    });
    setUploads((old) => [...old.filter((u) => u.status !== "done"), ...queued.map((q) => q.upload)]);
    const update = (id: number, change: Partial<Upload>) =>
      setUploads((old) => old.map((u) => (u.id === id ? { ...u, ...change } : u)));
    let added = 0;
    // Two at a time: the server processes one photo per request and has few cores.
    const todo = queued.filter((q) => q.upload.status === "waiting");
    const worker = async () => {
      for (let next = todo.shift(); next; next = todo.shift()) {
        const { upload, file } = next;
        update(upload.id, { status: "uploading" });
        const { status, answer } = await sendPhoto(uploadUrl, file, (progress) => update(upload.id, { progress }));
        const refused = answer.rejected?.[0]?.message ?? answer.error;
        if (status === 200 && (answer.added?.length ?? 0) > 0) {
          added += 1;
          update(upload.id, { status: "done", progress: 1 });
        } else update(upload.id, { status: "error", message: refused ?? `The upload failed (HTTP ${status}).` });
      }
    };
    await Promise.all([worker(), worker()]);
    if (input.current) input.current.value = "";
    if (added > 0) {
      setAnnouncement(PHOTO_TEXT.added(added));
      await revalidator.revalidate();
    }
  }

  function reorder(next: string[], focusUrl: string, message: string) {
    setAnnouncement(message);
    focusAfter.current = focusUrl;
    const body = new FormData();
    body.set("intent", "reorder");
    for (const url of next) body.append("order", url);
    void submit(body, { method: "post", action, preventScrollReset: true });
  }

  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragFrom === null || dragFrom === to) return setDragFrom(null);
    const url = shown[dragFrom]!.url;
    setDragFrom(null);
    reorder(
      moved(
        shown.map((p) => p.url),
        dragFrom,
        to,
      ),
      url,
      `Photo moved to position ${to + 1} of ${shown.length}.`,
    );
  };

  return (
    <div className="space-y-6">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <form
        method="post"
        action={uploadUrl}
        encType="multipart/form-data"
        onSubmit={(event) => {
          event.preventDefault();
          void upload([...(input.current?.files ?? [])]);
        }}
      >
        <label
          htmlFor="photo-files"
          onDragOver={(event) => {
            if (![...event.dataTransfer.types].includes("Files")) return;
            event.preventDefault();
            setDropOver(true);
          }}
          onDragLeave={() => setDropOver(false)}
          onDrop={(event) => {
            if (event.dataTransfer.files.length === 0) return;
            event.preventDefault();
            setDropOver(false);
            void upload([...event.dataTransfer.files]);
          }}
          className={`flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center ${
            dropOver ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50"
          }`}
        >
          <ImagePlus className="size-8 text-slate-500" aria-hidden="true" />
          <span className="font-medium text-slate-900">Drop photos here or choose files</span>
          <span className="text-sm text-slate-600">
            JPEG, PNG or WebP, up to {PHOTO_MAX_BYTES / 1024 / 1024} MB each; at most {PHOTO_MAX_COUNT} photos per
            listing ({photos.length} now).
          </span>
          <input
            ref={input}
            id="photo-files"
            name="photos"
            type="file"
            multiple
            accept={PHOTO_ACCEPT}
            className="mt-2 max-w-full text-sm"
            onChange={(event) => void upload([...(event.currentTarget.files ?? [])])}
          />
        </label>
        <noscript>
          <button type="submit" className={buttonClasses("primary", "md", "mt-3")}>
            Upload photos
          </button>
        </noscript>
      </form>

      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="space-y-2">
          {uploads.map((u) => (
            <li
              key={u.id}
              className="rounded-md border border-slate-200 bg-white p-3 text-sm"
              data-upload-status={u.status}
            >
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0 truncate font-medium text-slate-900">{u.name}</span>
                <span className="shrink-0 text-slate-600">
                  {u.status === "done"
                    ? "Added"
                    : u.status === "error"
                      ? "Not added"
                      : u.status === "waiting"
                        ? "Waiting"
                        : u.progress < 1
                          ? `${Math.round(u.progress * 100)}%`
                          : "Processing…"}
                </span>
              </div>
              {(u.status === "uploading" || u.status === "waiting") && (
                <progress className="mt-2 h-2 w-full" max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
              )}
              {u.message && (
                <p role="alert" className="mt-1 text-red-700">
                  {u.message}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}

      {shown.length === 0 ? (
        <EmptyState
          title="No photos yet"
          text="Listings with photos get more visits. The first photo is the one search results show."
        />
      ) : (
        <Form method="post" action={action} preventScrollReset>
          <input type="hidden" name="intent" value="reorder" />
          {shown.map((p) => (
            <input key={p.url} type="hidden" name="order" value={p.url} />
          ))}
          <p className="mb-3 text-sm text-slate-600">
            Drag photos to reorder them, or use the move buttons. The first photo is the main photo.
          </p>
          <ol
            className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-3"
            aria-label={`Photos of ${listingName}`}
          >
            {shown.map((photo, i) => {
              const urls = shown.map((p) => p.url);
              return (
                <li
                  key={photo.url}
                  draggable={!busy}
                  onDragStart={(event) => {
                    setDragFrom(i);
                    event.dataTransfer.effectAllowed = "move";
                  }}
                  onDragOver={(event) => {
                    if (dragFrom === null) return;
                    event.preventDefault();
                  }}
                  onDrop={(event) => onDrop(event, i)}
                  onDragEnd={() => setDragFrom(null)}
                  className={`overflow-hidden rounded-lg border bg-white ${dragFrom === i ? "opacity-50" : ""} ${
                    i === 0 ? "border-brand-600 ring-1 ring-brand-600" : "border-slate-200"
                  }`}
                  data-photo-url={photo.url}
                >
                  <div className="relative aspect-[4/3] cursor-move bg-slate-100">
                    <img
                      src={photo.thumbnail}
                      alt={`Photo ${i + 1} of ${shown.length}${i === 0 ? " (main photo)" : ""}`}
                      className="size-full object-cover"
                      loading="lazy"
                      draggable={false}
                    />
                    {i === 0 && (
                      <Badge className="absolute left-2 top-2">
                        <Star className="size-3" aria-hidden="true" /> Main photo
                      </Badge>
                    )}
                  </div>
                  <div className="flex flex-wrap items-center gap-2 p-2">
                    {i > 0 && (
                      <Button
                        type="submit"
                        variant="secondary"
                        size="sm"
                        name="move"
                        value={`${photo.url}|first`}
                        onClick={(event) => {
                          event.preventDefault();
                          reorder(moved(urls, i, 0), photo.url, `Photo ${i + 1} is now the main photo.`);
                        }}
                      >
                        Make main photo
                      </Button>
                    )}
                    <Button
                      type="submit"
                      variant="ghost"
                      size="sm"
                      name="move"
                      value={`${photo.url}|up`}
                      disabled={i === 0}
                      aria-label={`Move photo ${i + 1} earlier`}
                      onClick={(event) => {
                        event.preventDefault();
                        reorder(moved(urls, i, i - 1), photo.url, `Photo moved to position ${i} of ${shown.length}.`);
                      }}
                    >
                      <ArrowUp className="size-4" aria-hidden="true" />
                    </Button>
                    <Button
                      type="submit"
                      variant="ghost"
                      size="sm"
                      name="move"
                      value={`${photo.url}|down`}
                      disabled={i === shown.length - 1}
                      aria-label={`Move photo ${i + 1} later`}
                      onClick={(event) => {
                        event.preventDefault();
                        reorder(
                          moved(urls, i, i + 1),
                          photo.url,
                          `Photo moved to position ${i + 2} of ${shown.length}.`,
                        );
                      }}
                    >
                      <ArrowDown className="size-4" aria-hidden="true" />
                    </Button>
                    <span className="ml-auto">
                      <ConfirmDialog
                        trigger={
                          <Button type="button" variant="ghost" size="sm" aria-label={`Delete photo ${i + 1}`}>
                            <Trash2 className="size-4" aria-hidden="true" />
                          </Button>
                        }
                        title="Delete this photo?"
                        text={`It disappears from the public page and search at once. You can restore it for ${PHOTO_RESTORE_DAYS} days.`}
                        confirmLabel="Delete photo"
                        tone="danger"
                        form="photo-delete"
                        name="url"
                        value={photo.url}
                      />
                    </span>
                  </div>
                </li>
              );
            })}
          </ol>
        </Form>
      )}
      <Form method="post" action={action} id="photo-delete" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
      </Form>
    </div>
  );
}
