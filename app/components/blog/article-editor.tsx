import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import CalendarClock from "lucide-react/icons/calendar-clock";
import Eye from "lucide-react/icons/eye";
import ImagePlus from "lucide-react/icons/image-plus";
import Save from "lucide-react/icons/save";
import Send from "lucide-react/icons/send";
import Undo2 from "lucide-react/icons/undo-2";
import { useCallback, useEffect, useReducer, useRef, type FormEvent } from "react";
import { Form, Link, useFetcher } from "react-router";
import { PageHeader } from "../console/page-header";
import { Badge } from "../ui/badge";
import { Button, buttonClasses } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { SubmitButton } from "../ui/submit-button";
import { Textarea } from "../ui/textarea";
import {
  ARTICLE_COVER_ALT_MAX,
  ARTICLE_EXCERPT_MAX,
  ARTICLE_SLUG_MAX,
  ARTICLE_STATUS_LABELS,
  ARTICLE_TITLE_MAX,
  AUTOSAVE_DELAY_MS,
  SEO_DESCRIPTION_HINT,
  SEO_DESCRIPTION_MAX,
  SEO_TITLE_HINT,
  SEO_TITLE_MAX,
  articlePath,
  slugify,
  type ArticleStatus,
} from "../../../domain/articles";
import { PHOTO_ACCEPT } from "../../../domain/listing-photos";
import { formatLocalDateTime } from "../../lib/format";
import { ArticleCover } from "./article-cover";
import {
  autosaveDue,
  editorReducer,
  initialEditorState,
  saveStatusText,
  type SaveAnswer,
} from "./article-editor-state";

/** What the editor's route loads (server/blog/admin-pages.ts). */
export interface EditorData {
  article: {
    id: string;
    title: string;
    slug: string;
    excerpt: string;
    tags: string;
    body: string;
    html: string;
    coverImageId: string | null;
    coverAlt: string;
    coverWidth: number | null;
    coverHeight: number | null;
    seoTitle: string;
    seoDescription: string;
    version: number;
    status: ArticleStatus;
    publishedAt: string | null;
    updatedAt: string;
    savedByName: string;
    deleted: boolean;
    isDemo: boolean;
    path: string;
  };
  brokenLinks: string[];
  now: string;
}

type PreviewAnswer = { ok: true; html: string; brokenLinks: string[] } | { ok: false; error: string };
type ImageAnswer =
  { ok: true; cover: boolean; message: string; image: { id: string; url: string } } | { ok: false; error: string };

const TONE = { draft: "neutral", scheduled: "warning", published: "success" } as const;

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, for a datetime-local input. */
function localInputValue(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function LengthHint({ value, hint, label }: { value: string; hint: number; label: string }) {
  const over = value.length > hint;
  return (
    <span className={over ? "text-amber-800" : undefined}>
      {value.length} / {hint} characters{over ? `: search engines may cut the ${label}` : ""}
    </span>
  );
}

/**
 * One article's editor (docs/product.md section 13): fields, Markdown with a live preview rendered
 * by the server exactly as the public page, cover upload, and save, publish, schedule and
 * unpublish. A draft saves itself a moment after typing stops; every save names the version it
 * started from, so a second admin's save is refused with a message instead of overwriting.
 * Without JavaScript the same form posts and the page answers with a message.
 */
export function ArticleEditor({ data, answer }: { data: EditorData; answer?: unknown }) {
  const a = data.article;
  const saver = useFetcher<SaveAnswer>();
  const previewer = useFetcher<PreviewAnswer>();
  const uploader = useFetcher<ImageAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const noScript = (answer as SaveAnswer | undefined) ?? undefined;
  const last = saver.data ?? (noScript && !noScript.ok ? noScript : undefined);
  const failed = last && !last.ok ? last : undefined;
  const values = failed?.values ?? {};
  const value = (name: keyof EditorData["article"]) => values[name] ?? String(a[name] ?? "");
  const errors = failed?.fieldErrors ?? {};
  const autosaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const previewTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const handled = useRef<unknown>(null);

  const [stored, dispatch] = useReducer(
    editorReducer,
    { ...a, brokenLinks: data.brokenLinks, seoTitle: value("seoTitle"), seoDescription: value("seoDescription") },
    initialEditorState,
  );
  // A save's answer (new version and status, or a refusal; a conflict stops saving until the page
  // is reloaded) shows in the very render it arrives in, derived here and stored by the effect.
  const answered = saver.state === "idle" ? saver.data : undefined;
  const state = answered ? editorReducer(stored, { type: "answered", answer: answered }) : stored;
  useEffect(() => {
    if (answered) dispatch({ type: "answered", answer: answered });
  }, [answered]);
  const { version, status, publishedAt, slug, dirty, conflict, brokenLinks, tab, seoTitle, seoDescription } = state;
  const saving = saver.state !== "idle";

  const submit = useCallback(
    (intent: string, extra: Record<string, string> = {}) => {
      const form = formRef.current;
      if (!form) return;
      const body = new FormData(form);
      body.set("intent", intent);
      body.set("js", "1");
      body.set("version", String(version));
      for (const [k, v] of Object.entries(extra)) body.set(k, v);
      void saver.submit(body, { method: "post" });
    },
    [saver, version],
  );

  // Drafts save themselves AUTOSAVE_DELAY_MS after the last change.
  const autosave = autosaveDue(state, { deleted: a.deleted, saving });
  useEffect(() => {
    if (!autosave) return;
    autosaveTimer.current = setTimeout(() => submit("autosave"), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(autosaveTimer.current);
  }, [autosave, submit]);

  // Leaving with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const requestPreview = useCallback(() => {
    clearTimeout(previewTimer.current);
    previewTimer.current = setTimeout(() => {
      const body = bodyRef.current?.value ?? "";
      const form = new FormData();
      form.set("body", body);
      void previewer.submit(form, { method: "post", action: "/admin/blog/preview" });
    }, 400);
  }, [previewer]);

  useEffect(() => () => clearTimeout(previewTimer.current), []);

  // An uploaded body image goes in at the cursor.
  useEffect(() => {
    const d = uploader.data;
    if (!d || !d.ok || d.cover || handled.current === d) return;
    handled.current = d;
    const area = bodyRef.current;
    if (!area) return;
    const snippet = `![Describe the image](${d.image.url})`;
    const at = area.selectionStart ?? area.value.length;
    area.value = `${area.value.slice(0, at)}${snippet}${area.value.slice(area.selectionEnd ?? at)}`;
    area.focus();
    area.setSelectionRange(at + 2, at + 2 + "Describe the image".length);
    dispatch({ type: "edited" });
    requestPreview();
  }, [uploader.data, requestPreview]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent = submitter?.value ?? "save";
    event.preventDefault();
    clearTimeout(autosaveTimer.current);
    const extra: Record<string, string> = {};
    if (intent === "schedule") {
      const local = (formRef.current?.elements.namedItem("publishAt") as HTMLInputElement | null)?.value ?? "";
      if (local) extra.publishAt = new Date(local).toISOString();
    }
    submit(intent, extra);
  };

  const previewHtml = previewer.data?.ok ? previewer.data.html : a.html;
  const statusText = saveStatusText(state, { saving, updatedAt: a.updatedAt, savedByName: a.savedByName });
  const message = saver.data?.ok && saver.data.mode !== "autosave" ? saver.data.message : null;
  const coverError = uploader.data && !uploader.data.ok ? uploader.data.error : null;

  return (
    <>
      <PageHeader
        title={a.title || "Untitled article"}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={TONE[status]}>{ARTICLE_STATUS_LABELS[status]}</Badge>
            {status === "scheduled" && publishedAt && <span>for {formatLocalDateTime(publishedAt)}</span>}
            {a.isDemo && <Badge tone="neutral">Demo</Badge>}
            <span role="status" aria-live="polite" className="text-sm text-slate-600">
              {statusText}
            </span>
          </span>
        }
        actions={
          status === "published" ? (
            <Link to={articlePath(slug)} className={buttonClasses("secondary")}>
              <Eye className="size-4" aria-hidden="true" /> View article
            </Link>
          ) : undefined
        }
      />
      {a.deleted && (
        <div role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
          This article is deleted: nothing here is saved until it is restored.{" "}
          <Link to="/admin/blog?status=deleted" className="font-medium underline">
            Restore it from the list
          </Link>
          .
        </div>
      )}
      {conflict && (
        <div role="alert" className="mt-4 flex gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
          <AlertTriangle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>{conflict}</p>
        </div>
      )}
      {failed && !failed.conflict && failed.formError && (
        <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
          {failed.formError}
        </div>
      )}
      {message && (
        <p role="status" className="mt-4 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900">
          {message}
        </p>
      )}
      {brokenLinks.length > 0 && (
        <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
          {brokenLinks.length === 1 ? "This link goes" : "These links go"} nowhere in the directory:{" "}
          {brokenLinks.join(", ")}. The draft keeps {brokenLinks.length === 1 ? "it" : "them"}; publishing asks for a
          fix.
        </div>
      )}

      <section aria-labelledby="cover-h" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="cover-h" className="text-lg font-semibold text-slate-900">
          Cover image
        </h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-[16rem_1fr]">
          {a.coverImageId && a.coverWidth && a.coverHeight ? (
            <div className="overflow-hidden rounded-lg">
              <ArticleCover
                imageId={a.coverImageId}
                alt={a.coverAlt || "The current cover"}
                width={a.coverWidth}
                height={a.coverHeight}
                sizes="16rem"
              />
            </div>
          ) : (
            <div className="flex aspect-[16/9] items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-600">
              No cover yet
            </div>
          )}
          <div>
            <uploader.Form
              method="post"
              action={`/admin/blog/edit/${encodeURIComponent(a.id)}/image`}
              encType="multipart/form-data"
              className="flex flex-wrap items-end gap-2"
            >
              <input type="hidden" name="cover" value="1" />
              <input type="hidden" name="js" value="1" />
              <div>
                <label htmlFor="cover-file" className="block text-sm font-medium text-slate-800">
                  {a.coverImageId ? "Replace the cover" : "Upload a cover"} (JPEG, PNG or WebP)
                </label>
                <input
                  id="cover-file"
                  name="image"
                  type="file"
                  accept={PHOTO_ACCEPT}
                  required
                  className="mt-1 block text-sm"
                  aria-describedby={coverError ? "cover-error" : undefined}
                />
              </div>
              <SubmitButton variant="secondary" fetcher={uploader}>
                <ImagePlus className="size-4" aria-hidden="true" /> Upload cover
              </SubmitButton>
            </uploader.Form>
            {coverError && (
              <p id="cover-error" role="alert" className="mt-2 text-sm text-red-700">
                {coverError}
              </p>
            )}
            {a.coverImageId && (
              <Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="cover-remove" />
                <SubmitButton variant="ghost" size="sm">
                  Remove cover
                </SubmitButton>
              </Form>
            )}
          </div>
        </div>
      </section>

      <Form
        method="post"
        ref={formRef}
        onSubmit={onSubmit}
        onChange={() => dispatch({ type: "edited" })}
        className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
        aria-label="Article"
      >
        <input type="hidden" name="version" value={version} />
        <div className="grid gap-x-4 md:grid-cols-2">
          <Field label="Title" name="title" error={errors.title}>
            {(c) => <Input {...c} required maxLength={ARTICLE_TITLE_MAX} defaultValue={value("title")} />}
          </Field>
          <Field
            label="Address"
            name="slug"
            error={errors.slug}
            hint={
              <>
                /blog/<span className="font-medium">{slug}</span>
                {status !== "draft" ? ". Changing it sends visitors of the old address to the new one." : ""}{" "}
                <button
                  type="button"
                  className="text-brand-700 underline"
                  onClick={() => {
                    const form = formRef.current;
                    const title = (form?.elements.namedItem("title") as HTMLInputElement | null)?.value ?? "";
                    const field = form?.elements.namedItem("slug") as HTMLInputElement | null;
                    if (field) field.value = slugify(title);
                    dispatch({ type: "slug-made" });
                  }}
                >
                  Make from title
                </button>
              </>
            }
          >
            {(c) => (
              <Input
                {...c}
                required
                maxLength={ARTICLE_SLUG_MAX}
                pattern="[a-z0-9]+(-[a-z0-9]+)*"
                defaultValue={value("slug")}
                className="font-mono"
              />
            )}
          </Field>
        </div>
        <Field
          label="Excerpt"
          name="excerpt"
          error={errors.excerpt}
          hint="One or two sentences under the title and on the article's card."
        >
          {(c) => <Textarea {...c} rows={2} maxLength={ARTICLE_EXCERPT_MAX} defaultValue={value("excerpt")} />}
        </Field>
        <div className="grid gap-x-4 md:grid-cols-2">
          <Field label="Tags" name="tags" error={errors.tags} hint="Separated by commas, like: winter, covered storage">
            {(c) => <Input {...c} maxLength={300} defaultValue={value("tags")} />}
          </Field>
          <Field
            label="Cover description"
            name="coverAlt"
            error={errors.coverAlt}
            hint="What the cover shows, for screen readers."
          >
            {(c) => <Input {...c} maxLength={ARTICLE_COVER_ALT_MAX} defaultValue={value("coverAlt")} />}
          </Field>
        </div>

        <div className="mb-2 flex items-center justify-between gap-2 lg:hidden" role="tablist" aria-label="Body">
          {(["write", "preview"] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              className={`flex-1 rounded-md px-3 py-2 text-sm font-medium ${tab === t ? "bg-brand-500 text-white" : "bg-slate-100 text-slate-700"}`}
              onClick={() => dispatch({ type: "tab", tab: t })}
            >
              {t === "write" ? "Write" : "Preview"}
            </button>
          ))}
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <div className={tab === "write" ? "" : "hidden lg:block"}>
            <Field
              label="Body (Markdown)"
              name="body"
              error={errors.body}
              hint={
                <>
                  ## for headings, **bold**, - lists. A link alone on its line to /rv-storage/… or /location/… shows as
                  a card.{" "}
                  <label className="cursor-pointer text-brand-700 underline">
                    Insert an image
                    <input
                      type="file"
                      accept={PHOTO_ACCEPT}
                      className="sr-only"
                      onChange={(event) => {
                        const file = event.currentTarget.files?.[0];
                        if (!file) return;
                        const form = new FormData();
                        form.set("image", file);
                        form.set("js", "1");
                        void uploader.submit(form, {
                          method: "post",
                          encType: "multipart/form-data",
                          action: `/admin/blog/edit/${encodeURIComponent(a.id)}/image`,
                        });
                        event.currentTarget.value = "";
                      }}
                    />
                  </label>
                </>
              }
            >
              {(c) => (
                <Textarea
                  {...c}
                  ref={bodyRef}
                  rows={24}
                  defaultValue={value("body")}
                  onInput={requestPreview}
                  className="font-mono text-sm"
                  spellCheck
                />
              )}
            </Field>
          </div>
          <div className={tab === "preview" ? "" : "hidden lg:block"}>
            <p className="mb-1 text-sm font-medium text-slate-800" id="preview-h">
              Preview {previewer.state !== "idle" && <span className="font-normal text-slate-500">(updating…)</span>}
            </p>
            {previewer.data && !previewer.data.ok && (
              <p role="alert" className="mb-2 text-sm text-red-700">
                {previewer.data.error}
              </p>
            )}
            <div
              aria-labelledby="preview-h"
              className="article-body max-h-[40rem] overflow-y-auto rounded-md border border-slate-200 p-4"
              // Rendered and sanitized by the server, as the public page is (server/blog/markdown.ts).
              dangerouslySetInnerHTML={{ __html: previewHtml }}
            />
          </div>
        </div>

        <fieldset className="mt-6 grid gap-x-4 md:grid-cols-2">
          <legend className="mb-2 text-base font-semibold text-slate-900">Search engines</legend>
          <Field
            label="SEO title"
            name="seoTitle"
            error={errors.seoTitle}
            hint={<LengthHint value={seoTitle} hint={SEO_TITLE_HINT} label="title" />}
          >
            {(c) => (
              <Input
                {...c}
                maxLength={SEO_TITLE_MAX}
                defaultValue={value("seoTitle")}
                placeholder="The title, unless you set one"
                onInput={(e) => dispatch({ type: "seo-typed", field: "seoTitle", value: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            label="SEO description"
            name="seoDescription"
            error={errors.seoDescription}
            hint={<LengthHint value={seoDescription} hint={SEO_DESCRIPTION_HINT} label="description" />}
          >
            {(c) => (
              <Textarea
                {...c}
                rows={2}
                maxLength={SEO_DESCRIPTION_MAX}
                defaultValue={value("seoDescription")}
                placeholder="The excerpt, unless you set one"
                onInput={(e) => dispatch({ type: "seo-typed", field: "seoDescription", value: e.currentTarget.value })}
              />
            )}
          </Field>
        </fieldset>

        <div className="mt-4 flex flex-col gap-4 border-t border-slate-200 pt-4 lg:flex-row lg:items-end lg:justify-between">
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              name="intent"
              value="save"
              variant="secondary"
              pending={saving && saver.formData?.get("intent") === "save"}
              disabled={Boolean(conflict)}
            >
              <Save className="size-4" aria-hidden="true" /> {status === "draft" ? "Save draft" : "Save changes"}
            </Button>
            {status !== "published" && (
              <Button
                type="submit"
                name="intent"
                value="publish"
                pending={saving && saver.formData?.get("intent") === "publish"}
                disabled={Boolean(conflict)}
              >
                <Send className="size-4" aria-hidden="true" /> Publish now
              </Button>
            )}
            {status !== "draft" && (
              <ConfirmDialog
                trigger={
                  <Button type="button" variant="ghost" disabled={Boolean(conflict)}>
                    <Undo2 className="size-4" aria-hidden="true" /> Unpublish
                  </Button>
                }
                title="Unpublish this article?"
                text="It becomes a draft: its page, its card and its place in the feed and sitemap go at once. You can publish it again."
                confirmLabel="Unpublish"
                tone="danger"
                onConfirm={() => submit("unpublish")}
              />
            )}
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor="publish-at" className="block text-sm font-medium text-slate-800">
                Publish at (your time)
              </label>
              <Input
                id="publish-at"
                name="publishAt"
                type="datetime-local"
                defaultValue={status === "scheduled" ? localInputValue(publishedAt) : values.publishAt}
                aria-describedby={errors.publishAt ? "publish-at-error" : undefined}
                invalid={Boolean(errors.publishAt)}
                className="mt-1"
              />
              {errors.publishAt && (
                <p id="publish-at-error" className="mt-1 text-sm text-red-700">
                  {errors.publishAt.join(" ")}
                </p>
              )}
            </div>
            <Button
              type="submit"
              name="intent"
              value="schedule"
              variant="secondary"
              pending={saving && saver.formData?.get("intent") === "schedule"}
              disabled={Boolean(conflict)}
            >
              <CalendarClock className="size-4" aria-hidden="true" />{" "}
              {status === "scheduled" ? "Reschedule" : "Schedule"}
            </Button>
          </div>
        </div>
      </Form>
    </>
  );
}
