import {
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
    return await parseFormData(request, {
      maxFiles: limits.maxFiles,
      maxFileSize: limits.maxFileBytes,
      maxTotalSize: limits.maxTotalBytes,
      maxParts: 50,
      maxHeaderSize: 8 * 1024,
    });
  } catch (error) {
    if (error instanceof MaxFilesExceededError)
      throw new AppError("bad_request", 400, `Attach at most ${limits.maxFiles} files.`);
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError)
      throw new AppError("too_large", 413, "The files are larger than this form accepts.");
    if (error instanceof MaxPartsExceededError || error instanceof MaxHeaderSizeExceededError)
      throw new AppError("bad_request", 400, "The form has more fields than this page accepts.");
    throw new AppError(
      "bad_request",
      400,
      "The form could not be read: send it as application/x-www-form-urlencoded, or as multipart/form-data with its boundary.",
    );
  }
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
