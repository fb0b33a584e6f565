import FileUp from "lucide-react/icons/file-up";
import Upload from "lucide-react/icons/upload";
import { useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ImportStatusBadge } from "../../components/catalogue/import-status-badge";
import { Button } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { FormError } from "../../components/ui/field";
import { IMPORT_ACCEPT } from "../../../domain/catalogue";
import { formatBytes, formatDateTime } from "../../lib/format";
import { privatePageMeta } from "../../lib/meta";
import { importListData } from "../../../server/catalogue/pages";
import type { Route } from "./+types/locations-import";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Import listings", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Import" };

export async function loader() {
  return importListData();
}

const UPLOAD_URL = "/admin/locations/import/upload";

/**
 * Import from the browser (docs/product.md section 12, "Import and export"): choose a file, watch
 * it upload, then read the check's report on the import's own page before applying it. Without
 * JavaScript the form posts the file directly.
 */
export default function ImportListings({ loaderData }: Route.ComponentProps) {
  const { imports, maxBytes } = loaderData;
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<number | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const file = input.current?.files?.[0];
    if (!file) return setError("Choose a file to import.");
    if (file.size > maxBytes)
      return setError(
        `${file.name} is ${formatBytes(file.size)}, larger than the ${formatBytes(maxBytes)} the browser import takes. Split it, or import it with npm run import on the server.`,
      );
    if (file.size === 0) return setError(`${file.name}: the file is empty.`);
    const body = new FormData();
    body.append("file", file);
    const request = new XMLHttpRequest();
    request.open("POST", UPLOAD_URL);
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (e) => e.lengthComputable && setSent(e.loaded / e.total);
    request.onerror = () => {
      setSent(null);
      setError("The upload failed: the connection was lost. Try again.");
    };
    request.onload = () => {
      setSent(null);
      let answer: { url?: string; error?: string } = {};
      try {
        answer = JSON.parse(request.responseText) as typeof answer;
      } catch {
        // A 413 from the body limit answers in plain text.
      }
      if (request.status === 200 && answer.url) return void navigate(answer.url);
      setError(
        answer.error ??
          (request.status === 413
            ? `${file.name} is larger than the browser import takes.`
            : `The upload failed (${request.status}). Try again.`),
      );
    };
    setSent(0);
    request.send(body);
  }

  return (
    <>
      <PageHeader
        title="Import listings"
        description="Add or update listings from a CSV, JSON or NDJSON file in the catalogue's import format."
      />
      <form
        method="post"
        action={UPLOAD_URL}
        encType="multipart/form-data"
        onSubmit={onSubmit}
        className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
        aria-describedby="import-help"
      >
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium text-slate-700">
            File
          </label>
          <input
            ref={input}
            id="import-file"
            name="file"
            type="file"
            accept={IMPORT_ACCEPT}
            required
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
          />
          <p id="import-help" className="mt-2 text-sm text-slate-600">
            Up to {formatBytes(maxBytes)}. Nothing is written yet: the file is checked first, and you see every row with
            a problem before you apply it. Rows are matched by place_id; existing listings are updated.
          </p>
        </div>
        {sent !== null && (
          <div>
            <progress
              className="h-2 w-full overflow-hidden rounded accent-brand-500"
              max={1}
              value={sent}
              aria-label="Upload progress"
            />
            <p className="mt-1 text-sm text-slate-600" aria-live="polite">
              Uploading… {Math.round(sent * 100)}%
            </p>
          </div>
        )}
        <FormError message={error} />
        <Button type="submit" pending={sent !== null}>
          <Upload className="size-4" aria-hidden="true" /> Upload and check
        </Button>
      </form>

      <h2 className="mt-8 text-lg font-semibold text-slate-900">Recent imports</h2>
      {imports.length === 0 ? (
        <EmptyState
          className="mt-3"
          icon={<FileUp />}
          title="No imports yet"
          text="Files you upload here are listed with their reports."
        />
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {imports.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 p-3 sm:p-4">
              <div className="min-w-0">
                <Link
                  to={`/admin/locations/import/${i.id}`}
                  className="font-medium [overflow-wrap:anywhere] text-brand-700 hover:underline"
                >
                  {i.fileName}
                </Link>
                <p className="text-sm text-slate-600">
                  {formatBytes(i.sizeBytes)} · {formatDateTime(i.createdAt)}
                  {i.createdByEmail ? ` · ${i.createdByEmail}` : ""}
                  {i.accepted !== null ? ` · ${i.accepted} good rows, ${i.rejectedRows} with problems` : ""}
                </p>
              </div>
              <ImportStatusBadge status={i.status} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
