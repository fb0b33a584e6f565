import CheckCircle2 from "lucide-react/icons/circle-check";
import CircleAlert from "lucide-react/icons/circle-exclamation-point";
import { useEffect } from "react";
import { Form, Link, useRevalidator } from "react-router";
import { ImportStatusBadge } from "../../components/catalogue/import-status-badge";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { SubmitButton } from "../../components/ui/submit-button";
import { applySummary, type StoredImportReport } from "../../../domain/catalogue";
import { formatBytes, formatDateTime, formatNumber } from "../../lib/format";
import { useFormState } from "../../lib/forms";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { importAction, importPageData } from "../../../server/catalogue/pages";
import { requestIdContext } from "../../../server/http/request-context";
import type { Route } from "./+types/locations-import-status";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Import of ${args.data.fileName}` : "Import", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => (match.data as { fileName?: string } | undefined)?.fileName ?? "Import",
};

export async function loader({ params }: Route.LoaderArgs) {
  return importPageData(params.importId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return importAction(request, context.get(viewerContext), params.importId, context.get(requestIdContext));
}

const POLL_MS = 1000;
const APPLY_FORM = "apply-import";
const rows = (n: number) => `${formatNumber(n)} row${n === 1 ? "" : "s"}`;

/** Reloads the page's data while a step runs, so the count and then the report appear by themselves. */
function usePolling(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

function Report({ report, applied }: { report: StoredImportReport; applied: boolean }) {
  const figures = [
    ["Rows read", report.read],
    [applied ? "Written" : "Good rows", report.accepted],
    [applied ? "New listings" : "Would add", report.inserted],
    [applied ? "Updated" : "Would update", report.updated],
    ["Rows with problems", report.rejectedRows],
  ] as const;
  return (
    <>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900">{formatNumber(value)}</dd>
          </div>
        ))}
      </dl>
      {report.warnings.length > 0 && (
        <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-amber-800">
          {report.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {report.rejected.length > 0 && (
        <div className="mt-6">
          <h2 className="text-lg font-semibold text-slate-900">Rows with problems</h2>
          <p className="mt-1 text-sm text-slate-600">
            {applied ? "These rows were not written." : "These rows will be skipped; the others can be applied."}
            {report.rejectedTotal > report.rejected.length &&
              ` The first ${report.rejected.length} of ${formatNumber(report.rejectedTotal)} problems are shown.`}
          </p>
          <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Rows with problems</caption>
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Row
                  </th>
                  <th scope="col" className="px-3 py-2">
                    place_id
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Field
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Problem
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {report.rejected.map((r, i) => (
                  <tr key={`${r.row}-${r.field}-${i}`}>
                    <td className="px-3 py-2 tabular-nums">{r.row}</td>
                    <td className="px-3 py-2 break-all">{r.placeId ?? "—"}</td>
                    <td className="px-3 py-2">{r.field}</td>
                    <td className="px-3 py-2">{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </>
  );
}

export default function ImportStatus({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  const form = useFormState();
  const running = data.status === "checking" || data.status === "applying";
  usePolling(running);
  const good = data.check?.accepted ?? 0;
  return (
    <>
      <PageHeader
        title={data.fileName}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <ImportStatusBadge status={data.status} />
            <span>
              {formatBytes(data.sizeBytes)} · uploaded {formatDateTime(data.createdAt)}
              {data.createdByEmail ? ` by ${data.createdByEmail}` : ""}
            </span>
          </span>
        }
        actions={
          <Link to="/admin/locations/import" className={buttonClasses("secondary", "sm")}>
            Import another file
          </Link>
        }
      />

      {/* One live region for the whole run, always in the page: "Checking…", "Writing…" and then
          "Applied" are read out as they replace each other (a region that appears with its text
          often is not). */}
      <div aria-live="polite">
        {running && (
          <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
            <p className="font-medium text-slate-900">
              {data.status === "checking" ? "Checking the file…" : "Writing the good rows…"}
            </p>
            <progress className="mt-2 h-2 w-full accent-brand-500" aria-label="Import progress" />
            <p className="mt-1 text-sm text-slate-600">
              {rows(data.rowsRead)} read so far. You can leave this page; the work goes on.
            </p>
          </div>
        )}

        {data.status === "failed" && (
          <div role="alert" className="mt-6 flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
            <CircleAlert className="size-5 shrink-0" aria-hidden="true" />
            <div>
              <p className="font-medium">The file could not be imported. Nothing was written.</p>
              {data.error && <p className="mt-1 text-sm">{data.error}</p>}
            </div>
          </div>
        )}

        {data.status === "checked" && data.check && (
          <Form id={APPLY_FORM} method="post" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
            <input type="hidden" name="intent" value="apply" />
            <p className="text-slate-800">
              The check found {rows(good)} to write
              {data.check.rejectedRows > 0
                ? ` and ${rows(data.check.rejectedRows)} with problems, which will be skipped`
                : ""}
              .
            </p>
            <FormError message={form.formError} className="mt-2" />
            <div className="mt-4 flex flex-wrap gap-2">
              {good > 0 ? (
                <>
                  <ConfirmDialog
                    trigger={
                      <button type="button" className={buttonClasses("primary")}>
                        Apply {rows(good)}
                      </button>
                    }
                    title={`Write ${rows(good)} to the catalogue?`}
                    text={`${applySummary(data.check.inserted, data.check.updated)} Listings that were hidden or deleted stay so.`}
                    confirmLabel={`Apply ${rows(good)}`}
                    form={APPLY_FORM}
                  />
                  <noscript>
                    <SubmitButton>Apply {rows(good)}</SubmitButton>
                  </noscript>
                </>
              ) : (
                <p className="text-sm text-slate-600">There is nothing to apply: fix the file and upload it again.</p>
              )}
            </div>
          </Form>
        )}

        {data.status === "applied" && data.applied && (
          <div className="mt-6 flex gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-800">
            <CheckCircle2 className="size-5 shrink-0" aria-hidden="true" />
            <p>
              Applied {data.appliedAt ? formatDateTime(data.appliedAt) : ""}: {rows(data.applied.accepted)} written.
              Search shows them now.
            </p>
          </div>
        )}
      </div>

      {data.applied ? (
        <Report report={data.applied} applied />
      ) : (
        data.check && <Report report={data.check} applied={false} />
      )}
    </>
  );
}
