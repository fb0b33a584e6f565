import { createHash, randomUUID } from "node:crypto";
import {
  CLAIM_EVIDENCE_MAX_BYTES,
  CLAIM_EVIDENCE_MAX_FILES,
  CLAIM_EVIDENCE_TYPES,
  type ClaimEvidenceType,
} from "../../domain/claims";
import { sniff } from "../files/sniff";

/** One uploaded file as the form parser handed it over. */
export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** A file that passed the checks, ready to store. */
export interface CheckedEvidence {
  id: string;
  fileName: string;
  contentType: ClaimEvidenceType;
  sizeBytes: number;
  sha256: string;
  bytes: Uint8Array;
}

const MB = 1024 * 1024;

/**
 * A file name safe to show and to offer as a download name: the last path piece, printable
 * characters only, at most 120 characters. The stored file never uses it.
 */
export function displayFileName(name: string): string {
  const last = name.slice(-500).split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f"<>]/g, "").trim();
  return clean.slice(-120) || "evidence";
}

/**
 * Checks every evidence file by its content (docs/product.md section 10): at most 3, each at most
 * 10 MB, each a PDF, JPEG or PNG whatever its name says. Returns one message per bad file, naming
 * it, or the files ready to store.
 */
export async function checkEvidence(
  files: UploadedFile[],
): Promise<{ ok: true; files: CheckedEvidence[] } | { ok: false; errors: string[] }> {
  const present = files.filter((f) => f.bytes.length > 0 || f.name !== "");
  if (present.length > CLAIM_EVIDENCE_MAX_FILES)
    return {
      ok: false,
      errors: [`Attach at most ${CLAIM_EVIDENCE_MAX_FILES} files (you attached ${present.length}).`],
    };
  const errors: string[] = [];
  const checked: CheckedEvidence[] = [];
  for (const file of present) {
    const name = displayFileName(file.name);
    if (file.bytes.length === 0) {
      errors.push(`'${name}' is empty.`);
      continue;
    }
    if (file.bytes.length > CLAIM_EVIDENCE_MAX_BYTES) {
      const size = (file.bytes.length / MB).toFixed(1);
      errors.push(`'${name}' is ${size} MB; each file may be at most ${CLAIM_EVIDENCE_MAX_BYTES / MB} MB.`);
      continue;
    }
    const found = await sniff(file.bytes);
    if (!found.mime || !(CLAIM_EVIDENCE_TYPES as readonly string[]).includes(found.mime)) {
      errors.push(`'${name}' is ${found.description}, not a PDF, JPEG or PNG file.`);
      continue;
    }
    checked.push({
      id: randomUUID(),
      fileName: name,
      contentType: found.mime as ClaimEvidenceType,
      sizeBytes: file.bytes.length,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      bytes: file.bytes,
    });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, files: checked };
}

export const evidenceKey = (claimId: string, evidenceId: string) => `claims/${claimId}/${evidenceId}`;
