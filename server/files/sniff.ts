import { fileTypeFromBuffer } from "file-type";

/**
 * What a file is, judged by its content (magic numbers, via the `file-type` package), never by
 * its name or the type the browser claimed: a renamed executable stays an executable.
 */
export interface Sniffed {
  /** The detected media type, or null when the content matches no known format. */
  mime: string | null;
  /** A short human name for messages ("a Windows program", "a ZIP archive"). */
  description: string;
}

const NAMES: Record<string, string> = {
  "application/pdf": "a PDF document",
  "image/jpeg": "a JPEG image",
  "image/png": "a PNG image",
  "image/gif": "a GIF image",
  "image/webp": "a WebP image",
  "image/heic": "a HEIC image",
  "application/x-msdownload": "a Windows program",
  "application/x-elf": "a Linux program",
  "application/x-mach-binary": "a macOS program",
  "application/zip": "a ZIP archive",
  "application/x-rar-compressed": "a RAR archive",
  "application/x-7z-compressed": "a 7-Zip archive",
  "application/gzip": "a gzip archive",
};

export async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return { mime: null, description: "not a recognised file type" };
  return { mime: found.mime, description: NAMES[found.mime] ?? `a ${found.ext.toUpperCase()} file` };
}
