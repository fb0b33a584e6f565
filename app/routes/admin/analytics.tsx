import ChartNoAxesColumn from "lucide-react/icons/chart-no-axes-column";
import Download from "lucide-react/icons/download";
import type { ReactNode } from "react";
import { data, Form, Link, useSubmit } from "react-router";
import { DailyChart } from "../../components/analytics/daily-chart";
import { DailyTable } from "../../components/analytics/daily-table";
import { DateRangeFields, PeriodPresets } from "../../components/analytics/period-fields";
import { CLICK_SERIES, SOURCE_LABELS, VIEW_SERIES } from "../../components/analytics/series";
import { ShareBar } from "../../components/analytics/share-bar";
import { Growth, Stat, Was } from "../../components/analytics/stat";
import { StateMap } from "../../components/analytics/state-map";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { FormError } from "../../components/ui/field";
import { ADMIN_ANALYTICS_PRESETS, CUSTOM_RANGE, MAX_ANALYTICS_DAYS } from "../../../domain/analytics-period";
import { cn } from "../../lib/cn";
import { formatFullDay, formatNumber, formatPercent, formatShortDayTime } from "../../lib/format";
import { privatePageMeta } from "../../lib/meta";
import { adminAnalyticsPage, type AdminAnalyticsPage, type AdminReport } from "../../../server/analytics/admin-pages";
import type { DemandRow, TopListingMetric } from "../../../server/analytics/admin-report";
import type { Route } from "./+types/analytics";

/**
 * docs/product.md section 10, "Platform analytics": the whole site over a period, for admins (the
 * admin console's middleware has run the guard). Every chart has its numbers as a table, and every
 * table a CSV (/admin/analytics.csv, docs/api.md).
 */

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Analytics", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Analytics" };

export async function loader({ request }: Route.LoaderArgs) {
  const { status, data: page } = await adminAnalyticsPage(request);
  return data(page, { status });
}

function minutes(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ""}`;
}

const AUDIENCE_SERIES = [
  { key: "visitors", label: "Visitors", color: "#4668f2" },
  { key: "searches", label: "Searches", color: "#d97706" },
] as const;

const TOP_LABELS: Record<TopListingMetric, string> = {
  pageViews: "Page views",
  listViews: "List views",
  uniqueVisitors: "Unique visitors",
  clicks: "Clicks",
  conversionRate: "Conversion",
};

type Values = AdminAnalyticsPage["values"];

/** A CSV link for one table of the period shown. */
function csvHref(table: string, values: Values, extra: Record<string, string> = {}): string {
  return `/admin/analytics.csv?${new URLSearchParams({ table, from: values.from, to: values.to, days: "custom", ...extra })}`;
}

function CsvLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} download className={buttonClasses("secondary", "sm")}>
      <Download className="size-4" aria-hidden="true" /> {label}
    </a>
  );
}

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const page = loaderData;
  const report = page.ok ? page.report : null;
  return (
    <>
      <PageHeader
        title="Analytics"
        description={
          report ? (
            <>
              The whole site, {formatFullDay(report.from)} to {formatFullDay(report.to)} ({formatNumber(report.days)}{" "}
              days, UTC)
            </>
          ) : (
            "Traffic, listings and search demand across the whole site."
          )
        }
        actions={page.ok && <CsvLink href={csvHref("daily", page.values)} label="Daily CSV" />}
      />
      <PeriodForm page={page} />
      {page.ok && <Report page={page} />}
    </>
  );
}

function PeriodForm({ page }: { page: AdminAnalyticsPage }) {
  const submit = useSubmit();
  const { values } = page;
  const error = page.ok ? null : page.error;
  return (
    <Form
      method="get"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="Period"
      onChange={(event) => {
        // With JavaScript a preset shows at once; dates wait for "Show".
        const target = event.target as unknown as HTMLInputElement;
        if (target.name === "days" && target.value !== CUSTOM_RANGE) void submit(event.currentTarget);
      }}
    >
      <FormError message={error && (error.field === "days" || error.field === "top") ? error.message : null} />
      {page.ok && <input type="hidden" name="top" value={page.values.top} />}
      <div className="flex flex-wrap items-start gap-x-6 gap-y-2">
        <PeriodPresets
          presets={ADMIN_ANALYTICS_PRESETS}
          days={values.days}
          label={(days) => (days === "365" ? "A year" : `${days} days`)}
        />
        <DateRangeFields from={values.from} to={values.to} error={error} fieldClassName="w-40" />
      </div>
      <p className="text-sm text-slate-600">
        Whole days in UTC. A custom range uses From and To (at most {MAX_ANALYTICS_DAYS} days); the page address keeps
        your choice, so you can bookmark or share it.
      </p>
    </Form>
  );
}

function Section({
  id,
  title,
  description,
  actions,
  children,
  className,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={cn("mt-8", className)}>
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {description && <p className="text-sm text-slate-600">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

function Report({ page }: { page: Extract<AdminAnalyticsPage, { ok: true }> }) {
  const { report, values } = page;
  const { trend } = report;
  const t = trend.totals;
  const seen = t.pageViews + t.listViews + t.visitors + t.searches > 0;
  return (
    <>
      <Section
        id="totals"
        title="Totals"
        description={`Changes are against the ${formatNumber(report.days)} days before: ${formatFullDay(trend.previous.from)} to ${formatFullDay(trend.previous.to)}.`}
      >
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat
            label="Page views"
            value={formatNumber(t.pageViews)}
            extra={<Growth value={trend.growth.pageViews} />}
          />
          <Stat
            label="List views"
            value={formatNumber(t.listViews)}
            extra={<Growth value={trend.growth.listViews} />}
          />
          <Stat
            label="Visitors"
            value={formatNumber(t.visitors)}
            extra={<Growth value={trend.growth.visitors} compared={trend.visitorsCompared} />}
          />
          <Stat label="Clicks" value={formatNumber(t.clicks)} extra={<Growth value={trend.growth.clicks} />} />
          <Stat label="Website clicks" value={formatNumber(t.websiteClicks)} />
          <Stat label="Phone clicks" value={formatNumber(t.phoneClicks)} />
          <Stat label="Directions clicks" value={formatNumber(t.directionsClicks)} />
          <Stat
            label="Conversion"
            value={formatPercent(t.conversionRate)}
            extra={<Was>{formatPercent(trend.previousTotals.conversionRate)}</Was>}
          />
          <Stat label="Searches" value={formatNumber(t.searches)} extra={<Growth value={trend.growth.searches} />} />
          <Stat label="Listings seen" value={formatNumber(report.listingsSeen)} />
          <Stat
            label="Leads"
            value={formatNumber(report.conversions.current.leads)}
            extra={<Was>{formatNumber(report.conversions.previous.leads)}</Was>}
          />
          <Stat
            label="Reservation requests"
            value={formatNumber(report.conversions.current.reservations)}
            extra={<Was>{formatNumber(report.conversions.previous.reservations)}</Was>}
          />
          <Stat
            label="Reservations accepted"
            value={formatNumber(report.conversions.current.reservationsAccepted)}
            extra={<Was>{formatNumber(report.conversions.previous.reservationsAccepted)}</Was>}
          />
        </dl>
        {trend.visitorsFrom && (
          <p className="mt-2 text-sm text-slate-600">
            Visitors are counted from {formatFullDay(trend.visitorsFrom)}: visit records are kept 90 days.
          </p>
        )}
        <details className="mt-3 text-sm text-slate-700">
          <summary className="cursor-pointer text-brand-700">What these numbers mean</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>
              <strong>Page views</strong>: listing pages opened. <strong>List views</strong>: listings shown as cards in
              search results.
            </li>
            <li>
              <strong>Visitors</strong>: different browsers (each visitor's session, signed in or not) that opened any
              page of the site in the period, each counted once.
            </li>
            <li>
              <strong>Clicks</strong>: taps on a listing's website link, phone number or Contact button, and Directions.{" "}
              <strong>Conversion</strong>: clicks divided by page views (at most 100%).
            </li>
            <li>
              <strong>Searches</strong>: results pages people opened for a place (not re-sorting, filtering or paging
              the same place). <strong>Listings seen</strong>: listings with any view or click in the period.
            </li>
            <li>
              <strong>Leads</strong>: questions and reservation requests sent from listing pages.{" "}
              <strong>Reservation requests</strong>: those asking to reserve a space;{" "}
              <strong>Reservations accepted</strong>: the ones their owners accepted, on the day of the answer.
            </li>
            <li>Bots are not counted, and one visitor cannot add more than a few views or clicks an hour.</li>
          </ul>
        </details>
      </Section>

      {!seen ? (
        <EmptyState
          className="mt-6"
          icon={<ChartNoAxesColumn />}
          title="Nothing recorded in this period"
          text="No views, visits or searches were counted in these days. Choose a longer period, or come back once visitors have used the site."
        />
      ) : (
        <>
          <Section id="daily" title="Day by day">
            <div className="mt-3 grid gap-6 lg:grid-cols-3">
              <ChartCard>
                <DailyChart
                  title="Views per day"
                  summary={`Page views and list views per day: ${formatNumber(t.pageViews)} page views and ${formatNumber(t.listViews)} list views in all. The table below has each day.`}
                  kind="lines"
                  series={VIEW_SERIES}
                  rows={trend.daily}
                />
                <DailyTable caption="Views per day" rows={trend.daily} columns={VIEW_SERIES} />
              </ChartCard>
              <ChartCard>
                <DailyChart
                  title="Clicks per day"
                  summary={`Website, phone and directions clicks per day: ${formatNumber(t.clicks)} clicks in all. The table below has each day.`}
                  kind="stacked-bars"
                  series={CLICK_SERIES}
                  rows={trend.daily}
                />
                <DailyTable
                  caption="Clicks per day"
                  rows={trend.daily}
                  columns={[...CLICK_SERIES, { key: "conversionRate", label: "Conversion", format: formatPercent }]}
                />
              </ChartCard>
              <ChartCard>
                <DailyChart
                  title="Visitors and searches per day"
                  summary={`Visitors whose visit started each day, and results-page searches: ${formatNumber(t.searches)} searches in all. The table below has each day.`}
                  kind="lines"
                  series={AUDIENCE_SERIES}
                  rows={trend.daily}
                />
                <DailyTable caption="Visitors and searches per day" rows={trend.daily} columns={AUDIENCE_SERIES} />
              </ChartCard>
            </div>
          </Section>

          <StatesSection report={report} map={page.map} values={values} />
          <TopSection report={report} values={values} />
          <SourcesSection report={report} values={values} />
          <SessionsSection report={report} values={values} />
        </>
      )}
      <SearchSection report={report} values={values} />
    </>
  );
}

function ChartCard({ children }: { children: ReactNode }) {
  return <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">{children}</div>;
}

const th = "px-2 py-2 font-medium whitespace-nowrap sm:px-3";
const td = "px-2 py-2 text-right tabular-nums sm:px-3";

/** A table in a bordered box that scrolls sideways on a phone rather than squeezing its columns. */
function TableBox({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn("mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white", className)}>{children}</div>
  );
}

function StatesSection({
  report,
  map,
  values,
}: {
  report: AdminReport;
  map: Extract<AdminAnalyticsPage, { ok: true }>["map"];
  values: Values;
}) {
  const pageViews = Object.fromEntries(report.states.map((s) => [s.state, s.pageViews]));
  const leaders = report.states.filter((s) => s.pageViews > 0).slice(0, 3);
  const summary =
    leaders.length === 0
      ? "No listing page views in this period."
      : `Listing page views by state, darker for more. Most: ${leaders.map((s) => `${s.name} ${formatNumber(s.pageViews)}`).join(", ")}. The table lists every state.`;
  return (
    <Section
      id="states"
      title="Views by state"
      description="Listing page views in the period, by the listing's state; Listings counts those with any view or click."
      actions={<CsvLink href={csvHref("states", values)} label="States CSV" />}
    >
      <div className="mt-3 grid gap-6 lg:grid-cols-5">
        <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 lg:col-span-3">
          <StateMap
            title="Page views by state"
            summary={summary}
            width={map.width}
            height={map.height}
            states={map.states}
            values={pageViews}
            format={(n) => `${formatNumber(n)} page ${n === 1 ? "view" : "views"}`}
          />
        </div>
        {/* A scrolling box: focusable, so keyboard users can scroll it too. */}
        <div
          tabIndex={0}
          role="region"
          aria-label="Listing page views and clicks by state"
          className="max-h-[30rem] min-w-0 overflow-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-brand-500 lg:col-span-2"
        >
          <table className="w-full text-sm">
            <caption className="sr-only">
              Listing page views and clicks by state, most page views first (list views are in the CSV)
            </caption>
            <thead className="sticky top-0 bg-slate-50">
              <tr className="border-b border-slate-200 text-left text-slate-700">
                <th scope="col" className={th}>
                  State
                </th>
                <th scope="col" className={cn(th, "text-right")}>
                  Page views
                </th>
                <th scope="col" className={cn(th, "text-right")}>
                  Clicks
                </th>
                <th scope="col" className={cn(th, "text-right")}>
                  Listings
                </th>
              </tr>
            </thead>
            <tbody>
              {report.states.map((s) => (
                <tr key={s.state} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="px-2 py-1.5 sm:px-3 text-left font-normal">
                    {s.name}
                  </th>
                  <td className={cn(td, "py-1.5")}>{formatNumber(s.pageViews)}</td>
                  <td className={cn(td, "py-1.5")}>{formatNumber(s.clicks)}</td>
                  <td className={cn(td, "py-1.5")}>{formatNumber(s.listings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </Section>
  );
}

function TopSection({ report, values }: { report: AdminReport; values: Values }) {
  const metric = report.topMetric;
  const link = (top: TopListingMetric) =>
    `?${new URLSearchParams({ days: values.days, from: values.from, to: values.to, top })}`;
  return (
    <Section
      id="top"
      title="Top listings"
      description={
        metric === "conversionRate"
          ? "By conversion, among listings with at least 20 page views in the period."
          : `The ${report.top.length === 1 ? "listing" : `${report.top.length} listings`} with the most ${TOP_LABELS[metric].toLowerCase()} in the period.`
      }
      actions={<CsvLink href={csvHref("top", values, { top: metric })} label="Top 100 CSV" />}
    >
      <nav aria-label="Rank listings by" className="mt-3 flex flex-wrap gap-1">
        {(Object.keys(TOP_LABELS) as TopListingMetric[]).map((m) => (
          <Link
            key={m}
            to={link(m)}
            preventScrollReset
            aria-current={m === metric ? "true" : undefined}
            className={cn(
              "rounded-md border px-3 py-1.5 text-sm",
              m === metric
                ? "border-brand-500 bg-brand-50 font-medium text-brand-700"
                : "border-slate-300 text-slate-700 hover:bg-slate-50",
            )}
          >
            {TOP_LABELS[m]}
          </Link>
        ))}
      </nav>
      {report.top.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
          No listing qualifies in this period.
        </p>
      ) : (
        <TableBox>
          <table className="w-full text-sm">
            <caption className="sr-only">Top listings by {TOP_LABELS[metric].toLowerCase()}</caption>
            <thead className="bg-slate-50">
              <tr className="border-b border-slate-200 text-left text-slate-700">
                <th scope="col" className={cn(th, "text-right")}>
                  #
                </th>
                <th scope="col" className={th}>
                  Listing
                </th>
                {(Object.keys(TOP_LABELS) as TopListingMetric[]).map((m) => (
                  <th key={m} scope="col" className={cn(th, "text-right", m !== metric && "hidden md:table-cell")}>
                    {TOP_LABELS[m]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.top.map((l, i) => (
                <tr key={l.locationId} className="border-b border-slate-100 last:border-0">
                  <td className={td}>{i + 1}</td>
                  <th scope="row" className="px-2 py-2 text-left font-normal sm:px-3">
                    <Link to={`/location/${l.slug}`} className="text-brand-700 hover:underline">
                      {l.name}
                    </Link>
                    <span className="block text-xs text-slate-600">
                      {l.state ?? "No state"} ·{" "}
                      <Link
                        to={`/owner/locations/analytics?${new URLSearchParams({ listing: l.locationId, days: "custom", from: values.from, to: values.to })}`}
                        className="text-brand-700 hover:underline"
                      >
                        Listing analytics
                      </Link>
                    </span>
                  </th>
                  {(Object.keys(TOP_LABELS) as TopListingMetric[]).map((m) => (
                    <td key={m} className={cn(td, m !== metric && "hidden md:table-cell")}>
                      {m === "conversionRate" ? formatPercent(l[m]) : formatNumber(l[m])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </Section>
  );
}

function SourcesSection({ report, values }: { report: AdminReport; values: Values }) {
  const total = report.sources.reduce((sum, s) => sum + s.pageViews, 0);
  return (
    <Section
      id="sources"
      title="Traffic sources"
      description="Listing page views by the site that sent the visitor, on the day they were counted."
      actions={<CsvLink href={csvHref("sources", values)} label="Sources CSV" />}
    >
      {total === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No listing page views in this period.</p>
      ) : (
        <TableBox>
          <table className="w-full text-sm tabular-nums">
            <caption className="sr-only">Listing page views by traffic source</caption>
            <thead className="bg-slate-50">
              <tr className="border-b border-slate-200 text-left text-slate-700">
                <th scope="col" className={th}>
                  Source
                </th>
                <th scope="col" className={cn(th, "text-right")}>
                  Page views
                </th>
                <th scope="col" className={cn(th, "w-2/5")}>
                  <span className="sr-only">Share</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {report.sources.map((s) => {
                const share = (s.pageViews / total) * 100;
                return (
                  <tr key={s.source} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="px-2 py-1.5 sm:px-3 text-left font-normal">
                      {SOURCE_LABELS[s.source] ?? s.source}
                    </th>
                    <td className={cn(td, "py-1.5")}>{formatNumber(s.pageViews)}</td>
                    <td className="px-2 py-1.5 sm:px-3">
                      <ShareBar share={share} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableBox>
      )}
    </Section>
  );
}

function SessionsSection({ report, values }: { report: AdminReport; values: Values }) {
  return (
    <Section
      id="sessions"
      title="Recent visits"
      description="The latest visits in the period (times in UTC). No names, addresses or devices are shown."
      actions={<CsvLink href={csvHref("sessions", values)} label="Visits CSV" />}
    >
      {report.sessions.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No visits recorded in this period.</p>
      ) : (
        <TableBox className="max-h-[30rem] overflow-y-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">The latest visits, most recent first</caption>
            <thead className="sticky top-0 bg-slate-50">
              <tr className="border-b border-slate-200 text-left text-slate-700">
                <th scope="col" className={th}>
                  Last active
                </th>
                <th scope="col" className={cn(th, "hidden text-right sm:table-cell")}>
                  Length
                </th>
                <th scope="col" className={cn(th, "hidden text-right sm:table-cell")}>
                  Pages
                </th>
                <th scope="col" className={th}>
                  Visitor
                </th>
                <th scope="col" className={th}>
                  Last listing
                </th>
              </tr>
            </thead>
            <tbody>
              {report.sessions.map((s) => (
                <tr key={`${s.lastActivity}-${s.startTime}`} className="border-b border-slate-100 last:border-0">
                  <td className="px-2 py-1.5 sm:px-3 whitespace-nowrap">
                    <time dateTime={s.lastActivity}>{formatShortDayTime(s.lastActivity)}</time>
                  </td>
                  <td className={cn(td, "hidden py-1.5 whitespace-nowrap sm:table-cell")}>{minutes(s.duration)}</td>
                  <td className={cn(td, "hidden py-1.5 sm:table-cell")}>{formatNumber(s.pageViews)}</td>
                  <td className="px-2 py-1.5 sm:px-3 whitespace-nowrap">
                    {s.isNewVisitor ? "New" : "Returning"}
                    {s.signedIn ? ", signed in" : ""}
                  </td>
                  <td className="px-2 py-1.5 sm:px-3">
                    {s.listing ? (
                      <Link to={`/location/${s.listing.slug}`} className="text-brand-700 hover:underline">
                        {s.listing.name}
                      </Link>
                    ) : (
                      <span className="text-slate-600">None</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </Section>
  );
}

function SearchSection({ report, values }: { report: AdminReport; values: Values }) {
  const { totals, places, gaps } = report.search;
  const share = (n: number) =>
    totals.searches > 0 ? ` (${formatPercent(Math.round((n / totals.searches) * 1000) / 10)})` : "";
  return (
    <Section
      id="search"
      title="Search demand"
      description={
        totals.searches === 0
          ? "No searches in this period."
          : `${formatNumber(totals.searches)} ${totals.searches === 1 ? "search" : "searches"} for ${formatNumber(totals.places)} ${totals.places === 1 ? "place" : "places"}; ${formatNumber(totals.emptySearches)} found nothing${share(totals.emptySearches)}, ${formatNumber(totals.noneWithin100)} had no listing within 100 miles${share(totals.noneWithin100)}.`
      }
    >
      <p className="mt-1 text-sm text-slate-600">
        The place each visitor chose (a “near me” search counts under its nearest town), counted per day: no typed text,
        addresses or people are kept.
      </p>
      <div className="grid gap-x-6 lg:grid-cols-2">
        <DemandTable
          id="searched"
          title="Most searched places"
          caption="Most searched places"
          rows={places}
          empty="No searches in this period."
          csv={csvHref("searches", values)}
        />
        <DemandTable
          id="gaps"
          title="Nothing within 100 miles"
          caption="Places searched with no listing within 100 miles, most such searches first"
          rows={gaps}
          empty="Every search found listings within 100 miles."
          csv={csvHref("gaps", values)}
          gaps
        />
      </div>
    </Section>
  );
}

function DemandTable({
  id,
  title,
  caption,
  rows,
  empty,
  csv,
  gaps = false,
}: {
  id: string;
  title: string;
  caption: string;
  rows: readonly DemandRow[];
  empty: string;
  csv: string;
  gaps?: boolean;
}) {
  return (
    <div className="mt-4 min-w-0" role="group" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h3 id={`${id}-title`} className="font-medium text-slate-900">
          {title}
        </h3>
        <CsvLink href={csv} label={`${gaps ? "Gaps" : "Places"} CSV`} />
      </div>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">{empty}</p>
      ) : (
        <TableBox>
          <table className="w-full text-sm">
            <caption className="sr-only">{caption}</caption>
            <thead className="bg-slate-50">
              <tr className="border-b border-slate-200 text-left text-slate-700">
                <th scope="col" className={th}>
                  Place
                </th>
                <th scope="col" className={cn(th, "text-right")}>
                  Searches
                </th>
                {!gaps && (
                  <th scope="col" className={cn(th, "hidden text-right sm:table-cell")}>
                    Avg results
                  </th>
                )}
                <th scope="col" className={cn(th, "text-right whitespace-normal sm:whitespace-nowrap")}>
                  {gaps ? "Nothing within 100 mi" : "Found nothing"}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.placeKey} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="px-2 py-1.5 sm:px-3 text-left font-normal">
                    {r.placeKey === "?" ? (
                      <span className="text-slate-600">{r.placeLabel}</span>
                    ) : (
                      <Link to={`/rv-storage/${r.placeKey}`} className="text-brand-700 hover:underline">
                        {r.placeLabel}
                      </Link>
                    )}
                  </th>
                  <td className={cn(td, "py-1.5")}>{formatNumber(r.searches)}</td>
                  {!gaps && <td className={cn(td, "hidden py-1.5 sm:table-cell")}>{formatNumber(r.averageResults)}</td>}
                  <td className={cn(td, "py-1.5")}>{formatNumber(gaps ? r.noneWithin100 : r.emptySearches)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </div>
  );
}
