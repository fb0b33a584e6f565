/**
 * The server half of /admin/locations and its import and export (docs/product.md section 12,
 * "The catalogue"; docs/api.md). The admin guard ran in the layout's middleware before any of this.
 */
import { MaxFileSizeExceededError, MaxFilesExceededError, parseFormData } from "@remix-run/form-data-parser";
import { data, redirect } from "react-router";
import { z } from "zod";
import { IMPORT_MAX_BYTES } from "../../domain/catalogue";
import { clampPage, parseTableParams } from "../../domain/table-params";
import { TIERS } from "../../domain/tiers";
import type { SignedInViewer } from "../auth/viewer";
import { getDatabase } from "../db";
import { AppError, CLIENT_ERROR_CODES } from "../errors";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { flashRefusal, formRefusal, refusalOf } from "../http/refusal";
import { STATES } from "../geo/states";
import { csvText, geoJsonText } from "../locations/export";
import { catalogueFilterParams, catalogueWhere, parseCatalogueFilters } from "./filters";
import { applyImport, getImport, recentImports, startImport, tooLargeMessage, type UploadedFile } from "./imports";
import {
  BULK_ACTIONS,
  BULK_MAX_IDS,
  CATALOGUE_PAGE_SIZE,
  CATALOGUE_SORTS,
  applyBulkAction,
  cataloguePage,
  countCatalogue,
  type BulkAction,
  type CatalogueSort,
} from "./service";
import { actorOf } from "../auth/actor";

const MAX_ID = 300;

/** /admin/locations: the table, its filters and the export links. */
export async function cataloguePageData(request: Request) {
  const params = new URL(request.url).searchParams;
  const filters = parseCatalogueFilters(params);
  const table = parseTableParams<CatalogueSort>(params, { sortable: CATALOGUE_SORTS, defaultSort: "name" });
  const db = getDatabase();
  const total = await countCatalogue(db, filters);
  const page = clampPage(table.page, total, CATALOGUE_PAGE_SIZE);
  const rows = await cataloguePage(db, { filters, sort: table.sort, dir: table.dir, page });
  const query = catalogueFilterParams(filters).toString();
  return {
    filters,
    rows: rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() })),
    total,
    page,
    pageSize: CATALOGUE_PAGE_SIZE,
    sort: table.sort,
    dir: table.dir,
    states: STATES.map((s) => ({ code: s.code, name: s.name })),
    tiers: TIERS,
    exportQuery: query,
  };
}

const bulkSchema = z.object({
  intent: z.literal("bulk"),
  action: z.enum(BULK_ACTIONS, { message: "Choose what to do with the selected listings." }),
  ids: z
    .array(z.string().trim().min(1).max(MAX_ID))
    .max(BULK_MAX_IDS, `Select at most ${BULK_MAX_IDS} listings for one action.`)
    .default([]),
  tier: z.enum(TIERS).optional(),
});

const PAST: Record<BulkAction, string> = {
  hide: "Hid",
  show: "Showed",
  delete: "Deleted",
  restore: "Restored",
  tier: "Changed the tier of",
};
const plural = (n: number) => `${n} listing${n === 1 ? "" : "s"}`;

/** POST /admin/locations: a bulk action on the listings ticked in the table. */
export async function catalogueAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const form = await readForm(request);
  const result = parseFormSubmission(bulkSchema, form);
  if (!result.ok) return formFailure(result);
  const { action, ids, tier } = result.data;
  if (action === "tier" && !tier) return formFailure(result, 400, { formError: "Choose the tier to set." });
  try {
    const done = await applyBulkAction(getDatabase(), { actor: actorOf(viewer), action, ids, tier, requestId });
    const url = new URL(request.url);
    const unchanged = done.selected - done.changed;
    const what = action === "tier" ? ` to ${tier}` : "";
    return redirectWithFlash(`${url.pathname}${url.search}`, {
      kind: "success",
      text: `${PAST[action]} ${plural(done.changed)}${what}.${unchanged > 0 ? ` ${plural(unchanged)} already ${unchanged === 1 ? "was" : "were"} so.` : ""}`,
    });
  } catch (error) {
    return formRefusal(result, error, ["bad_request", "conflict"]);
  }
}

/** GET /admin/locations/export?format=csv|geojson&…filters: the rows the filters keep, streamed. */
export function catalogueExport(request: Request): Response {
  const params = new URL(request.url).searchParams;
  const format = params.get("format") ?? "csv";
  if (format !== "csv" && format !== "geojson")
    throw new AppError("bad_request", 400, "Choose format=csv or format=geojson.");
  const filter = catalogueWhere(parseCatalogueFilters(params));
  const db = getDatabase();
  const chunks = format === "csv" ? csvText(db, { filter }) : geoJsonText(db, { filter });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(streamOf(chunks), {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/geo+json; charset=utf-8",
      "Content-Disposition": `attachment; filename="locations-${stamp}.${format === "csv" ? "csv" : "geojson"}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Text pulled from the generator only as fast as the client reads it. */
function streamOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");
export const importPath = (id: string) => `/admin/locations/import/${encodeURIComponent(id)}`;

/**
 * POST /admin/locations/import/upload: one file in the `file` field of a multipart form. JSON
 * `{ id, url }` for the page's script (which shows the upload's progress), a redirect to the
 * import's page for a plain form; errors as JSON `{ error }` or the import page's message.
 */
export async function importUploadAction(request: Request, viewer: SignedInViewer, requestId: string | null) {
  const json = wantsJson(request);
  try {
    let upload: UploadedFile | undefined;
    const contentType = request.headers.get("Content-Type") ?? "";
    if (!contentType.startsWith("multipart/form-data"))
      throw new AppError("bad_request", 400, "Send the file as multipart/form-data in a field named file.");
    let started: Promise<{ id: string }> | undefined;
    try {
      await parseFormData(
        request,
        { maxFiles: 1, maxFileSize: IMPORT_MAX_BYTES, maxParts: 10, maxHeaderSize: 8 * 1024 },
        (file) => {
          if (file.fieldName !== "file" || upload) return;
          upload = { name: file.name, stream: file.stream() };
          started = startImport(getDatabase(), actorOf(viewer), upload, requestId);
          // Wait for the file to be stored before the parser goes on.
          return started.then(() => null);
        },
      );
    } catch (error) {
      if (error instanceof MaxFileSizeExceededError)
        throw new AppError("too_large", 413, tooLargeMessage(upload?.name ?? "The file"));
      if (error instanceof MaxFilesExceededError) throw new AppError("bad_request", 400, "Upload one file at a time.");
      if (error instanceof AppError) throw error;
      throw new AppError("bad_request", 400, "The upload could not be read. Choose the file again.");
    }
    if (!started || !upload) throw new AppError("bad_request", 400, "Choose a file to import.");
    const { id } = await started;
    return json
      ? Response.json({ id, url: importPath(id) })
      : redirectWithFlash(importPath(id), { kind: "success", text: "Uploaded." });
  } catch (error) {
    if (!json) return flashRefusal("/admin/locations/import", error, CLIENT_ERROR_CODES);
    const refusal = refusalOf(error, CLIENT_ERROR_CODES);
    return Response.json({ error: refusal.message }, { status: refusal.status });
  }
}

/** /admin/locations/import: the upload form and the recent imports. */
export async function importListData() {
  const rows = await recentImports(getDatabase());
  return {
    imports: rows.map((r) => ({
      id: r.id,
      fileName: r.fileName,
      status: r.status,
      sizeBytes: r.sizeBytes,
      createdAt: r.createdAt.toISOString(),
      createdByEmail: r.createdByEmail,
      accepted: r.checkReport?.accepted ?? null,
      rejectedRows: r.checkReport?.rejectedRows ?? null,
    })),
    maxBytes: IMPORT_MAX_BYTES,
  };
}

/** /admin/locations/import/{id}: one import's progress and reports. */
export async function importPageData(id: string) {
  if (id.length > MAX_ID) throw new AppError("not_found", 404, "No such import.");
  const row = await getImport(getDatabase(), id);
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    sizeBytes: row.sizeBytes,
    status: row.status,
    rowsRead: row.rowsRead,
    check: row.checkReport,
    applied: row.applyReport,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
    createdByEmail: row.createdByEmail,
  };
}

/** POST /admin/locations/import/{id} (intent=apply). */
export async function importAction(request: Request, viewer: SignedInViewer, id: string, requestId: string | null) {
  const form = await readForm(request);
  if (form.get("intent") !== "apply") return data({ ok: false, formError: "Unknown action." }, { status: 400 });
  if (id.length > MAX_ID) throw new AppError("not_found", 404, "No such import.");
  try {
    await applyImport(getDatabase(), actorOf(viewer), id, requestId);
  } catch (error) {
    return data({ ok: false, formError: refusalOf(error, ["conflict"]).message }, { status: 409 });
  }
  // No flash: the page itself says "Writing the good rows…" and then "Applied", in a live region;
  // a toast saying "Applying" would outlive the work, which often ends before the page loads.
  return redirect(importPath(id), 303);
}
