import { requireListingOwner } from "../auth/guards";
import { getDatabase } from "../db";
import { getLocationReport } from "./queries";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

type Problem = { parameter: string; message: string };

function parseDate(value: string | null, parameter: string, problems: Problem[]): string | undefined {
  if (value === null || value === "") return undefined;
  const time = Date.parse(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    problems.push({ parameter, message: `${parameter} must be a date as YYYY-MM-DD` });
    return undefined;
  }
  return value;
}

/** from/to of the report: the last 30 days to today (UTC) by default, at most 366 days. */
export function parsePeriod(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; from: string; to: string } | { ok: false; errors: Problem[] } {
  const errors: Problem[] = [];
  const rawTo = parseDate(params.get("to"), "to", errors);
  const rawFrom = parseDate(params.get("from"), "from", errors);
  if (errors.length > 0) return { ok: false, errors };
  const to = rawTo ?? now.toISOString().slice(0, 10);
  const from = rawFrom ?? new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  if (from > to) return { ok: false, errors: [{ parameter: "from", message: "from must not be after to" }] };
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS) {
    return { ok: false, errors: [{ parameter: "from", message: `the period must be at most ${MAX_DAYS} days` }] };
  }
  return { ok: true, from, to };
}

/** GET /api/metrics/locations/{locationId}?from=&to=: the listing's owner or an admin only. */
export async function handleLocationMetricsRequest(request: Request, locationId: string): Promise<Response> {
  await requireListingOwner(request, locationId);
  const period = parsePeriod(new URL(request.url).searchParams);
  if (!period.ok) return Response.json({ error: "invalid_parameters", errors: period.errors }, { status: 400 });
  const report = await getLocationReport(getDatabase(), locationId, period.from, period.to);
  // docs/product.md section 9: metrics are cached for 5 minutes (in the viewer's browser only: private).
  return Response.json(report, { headers: { "Cache-Control": "private, max-age=300", Vary: "Cookie" } });
}
