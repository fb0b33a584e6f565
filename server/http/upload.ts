import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { AppError } from "../errors";

/**
 * A form with files, parsed by a streaming multipart parser (`@remix-run/form-data-parser`) with
 * limits on parts, files and sizes. The body limit has capped the whole request before this
 * runs (server/http/body-limit.ts); a file over its own size is let through here up to
 * `maxFileBytes` so that the service can name it in a field error and keep the other answers.
 */
export interface UploadLimits {
  maxFiles: number;
  /** The parser's hard stop per file; keep it above the size the service reports on. */
  maxFileBytes: number;
  maxTotalBytes: number;
}

export async function readUploadForm(request: Request, limits: UploadLimits): Promise<FormData> {
  try {
    return await parseFormData(request, parserOptions(limits));
  } catch (error) {
    throw uploadError(error, limits);
  }
}

function parserOptions(limits: UploadLimits) {
  return {
    maxFiles: limits.maxFiles,
    maxFileSize: limits.maxFileBytes,
    maxTotalSize: limits.maxTotalBytes,
    maxParts: 50,
    maxHeaderSize: 8 * 1024,
  };
}

/** The parser's refusal as the AppError a person can act on; `details.limit` says which cap. */
function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof MaxFilesExceededError)
    return new AppError("too_many_files", 400, `Attach at most ${limits.maxFiles} files.`);
  if (error instanceof MaxFileSizeExceededError)
    return new AppError("too_large", 413, "The files are larger than this form accepts.", { limit: "file" });
  if (error instanceof MaxTotalSizeExceededError)
    return new AppError("too_large", 413, "The files are larger than this form accepts.", { limit: "request" });
  if (error instanceof MaxPartsExceededError || error instanceof MaxHeaderSizeExceededError)
    return new AppError("bad_request", 400, "The form has more fields than this page accepts.");
  if (!(error instanceof FormDataParseError)) return error;
  return new AppError(
    "bad_request",
    400,
    "The form could not be read: send it as application/x-www-form-urlencoded, or as multipart/form-data with its boundary.",
  );
}

/** One uploaded file, waiting in a temporary file until it is read. */
export interface DiskUpload {
  /** The form field it came in. */
  field: string;
  name: string;
  size: number;
  /** Its bytes, read from disk when asked for (one file in memory at a time). */
  read(): Promise<Uint8Array>;
}

/** Temporary upload folders older than this are a crashed process's leftovers. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * A form with files, each file written to its own temporary file under `dir` as soon as the
 * parser has it, then `work` runs with the text fields and the files on disk. The parser stops at
 * the first byte over `maxFileBytes` for one file or `maxTotalBytes` for the request (a 413 whose
 * `details.limit` is "file" or "request"), so a request holds at most one file in memory (this
 * parser gathers a part before handing it over) and never more than the cap on disk. The
 * request's folder is removed however this ends: answered, refused, or `work` throwing; folders a
 * crashed process left behind are removed by the next upload once they are an hour old.
 */
export async function withUploadedFiles<T>(
  request: Request,
  limits: UploadLimits,
  dir: string,
  work: (form: FormData, files: DiskUpload[]) => Promise<T>,
): Promise<T> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await removeStaleUploads(dir);
  const folder = await fs.mkdtemp(path.join(dir, "upload-"));
  try {
    const files: DiskUpload[] = [];
    let form: FormData;
    try {
      form = await parseFormData(request, parserOptions(limits), async (upload) => {
        // An empty part is a file input left empty (see filesFrom), not a file.
        if (upload.size === 0) return null;
        const target = path.join(folder, String(files.length));
        await pipeline(
          Readable.fromWeb(upload.stream() as NodeReadableStream<Uint8Array>),
          createWriteStream(target, { mode: 0o600 }),
        );
        files.push({
          field: upload.fieldName,
          name: upload.name,
          size: upload.size,
          read: async () => new Uint8Array(await fs.readFile(target)),
        });
        return null;
      });
    } catch (error) {
      throw uploadError(error, limits);
    }
    return await work(form, files);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

async function removeStaleUploads(dir: string, now = Date.now()): Promise<void> {
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((name) => name.startsWith("upload-"))
      .map(async (name) => {
        const where = path.join(dir, name);
        const stat = await fs.stat(where).catch(() => null);
        if (stat && now - stat.mtimeMs > STALE_UPLOAD_MS) await fs.rm(where, { recursive: true, force: true });
      }),
  );
}

/**
 * The files a form sent under `name`, as bytes. Empty parts are skipped: a browser sends one for
 * a file input left empty (its name varies by sender), and an empty file proves nothing.
 */
export async function filesFrom(form: FormData, name: string): Promise<{ name: string; bytes: Uint8Array }[]> {
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const value of form.getAll(name)) {
    if (typeof value === "string") continue;
    if (value.size === 0) continue;
    files.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return files;
}
