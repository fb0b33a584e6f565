import type { ImportReport, Rejection } from "./import";

export interface ReportFormatOptions {
  /** The file the report is about, for the first line. */
  source?: string;
  /** At most this many rejections are listed; the rest are counted. */
  limit?: number;
}

export function formatRejection({ row, placeId, field, reason }: Rejection): string {
  return `row ${row}${placeId === undefined ? "" : ` (place_id ${placeId})`}: ${field}: ${reason}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The import report as the command line prints it. */
export function formatImportReport(report: ImportReport, { source, limit = 50 }: ReportFormatOptions = {}): string {
  const lines: string[] = [];
  const subject = source ? ` ${source}` : "";
  lines.push(report.dryRun ? `Dry run of${subject}: nothing was written.` : `Imported${subject}.`);
  const verb = report.dryRun ? "would be " : "";
  lines.push(
    `${plural(report.read, "row")} read: ${report.accepted} accepted (${report.inserted} ${verb}new, ${report.updated} ${verb}updated), ${report.rejectedRows} rejected.`,
  );
  if (report.rejected.length > 0) {
    lines.push("", `Rejected (${plural(report.rejected.length, "problem")} in ${plural(report.rejectedRows, "row")}):`);
    for (const rejection of report.rejected.slice(0, limit)) lines.push(`  ${formatRejection(rejection)}`);
    if (report.rejected.length > limit) lines.push(`  ... and ${report.rejected.length - limit} more`);
  }
  if (report.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const warning of report.warnings) lines.push(`  ${warning}`);
  }
  return lines.join("\n");
}

/** 0 when every row was accepted, 2 when any was rejected (1 is left for fatal errors). */
export function importExitCode(report: ImportReport): 0 | 2 {
  return report.rejectedRows === 0 ? 0 : 2;
}
