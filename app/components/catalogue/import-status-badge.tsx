import { Badge, type BadgeTone } from "../ui/badge";
import { IMPORT_STATUS_LABELS, type ImportStatus } from "../../../domain/catalogue";

const TONE: Record<ImportStatus, BadgeTone> = {
  checking: "info",
  checked: "warning",
  applying: "info",
  applied: "success",
  failed: "danger",
};

export function ImportStatusBadge({ status }: { status: ImportStatus }) {
  return <Badge tone={TONE[status]}>{IMPORT_STATUS_LABELS[status]}</Badge>;
}
