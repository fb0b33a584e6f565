import ChartNoAxesColumn from "lucide-react/icons/chart-no-axes-column";
import Download from "lucide-react/icons/download";
import Store from "lucide-react/icons/store";
import { data, Form, Link, useSubmit } from "react-router";
import { DailyChart } from "../../components/analytics/daily-chart";
import { DailyTable } from "../../components/analytics/daily-table";
import { DateRangeFields, PeriodPresets } from "../../components/analytics/period-fields";
import { CLICK_SERIES, SOURCE_LABELS, VIEW_SERIES } from "../../components/analytics/series";
import { ShareBar } from "../../components/analytics/share-bar";
import { Growth, Stat, Was } from "../../components/analytics/stat";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { Field, FormError } from "../../components/ui/field";
import { Select } from "../../components/ui/select";
import { ALL_LISTINGS, ANALYTICS_PRESETS, CUSTOM_RANGE, MAX_ANALYTICS_DAYS } from "../../../domain/analytics-period";
import { formatDate, formatFullDay, formatNumber, formatPercent } from "../../lib/format";
import { privatePageMeta } from "../../lib/meta";
import { ownerAnalyticsPage } from "../../../server/analytics/owner-pages";
import type { OwnerReport } from "../../../server/analytics/owner-report";
import { viewerContext } from "../../../server/auth/console";
import type { Route } from "./+types/analytics";

/** docs/product.md section 10, "Analytics": how the viewer's listings do, per listing or all together. */

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Analytics", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Analytics" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { status, data: page } = await ownerAnalyticsPage(request, context.get(viewerContext));
  return data(page, { status });
}

// The owner's click chart adds the leads the contact form sent.
const OWNER_CLICK_SERIES = [...CLICK_SERIES, { key: "leads", label: "Leads", color: "#0f766e" }] as const;

export default function OwnerAnalytics({ loaderData }: Route.ComponentProps) {
  const page = loaderData;
  const { selection, values } = page;
  if (selection.options.length === 0) {
    return (
      <>
        <PageHeader title="Analytics" description="How people find and contact your listings." />
        <EmptyState
          className="mt-6"
          icon={<Store />}
          title="No listings yet"
          text="Analytics appear here once you manage a listing. Claim your facility's listing to see how many RV owners view and contact it."
          action={
            <Link to="/owner/claim" className={buttonClasses("primary")}>
              Claim your listing
            </Link>
          }
        />
      </>
    );
  }
  const report = page.ok ? page.report : null;
  const csvHref = report
    ? `/owner/locations/analytics.csv?${new URLSearchParams({ listing: values.listing, from: report.from, to: report.to })}`
    : null;
  const subject = selection.selected ? selection.selected.name : "All my listings";
  return (
    <>
      <PageHeader
        title="Analytics"
        description={
          report ? (
            <>
              {subject}, {formatFullDay(report.from)} to {formatFullDay(report.to)} ({report.days} days, UTC)
            </>
          ) : (
            "How people find and contact your listings."
          )
        }
        actions={
          csvHref && (
            <a href={csvHref} download className={buttonClasses("secondary")}>
              <Download className="size-4" aria-hidden="true" /> Download CSV
            </a>
          )
        }
      />
      <PeriodForm page={page} />
      {page.ok && <ReviewTotals reviews={page.reviews} />}
      {report && (report.everSeen ? <Report report={report} several={selection.selected === null} /> : <NoTraffic />)}
    </>
  );
}

function PeriodForm({ page }: { page: Route.ComponentProps["loaderData"] }) {
  const submit = useSubmit();
  const { selection, values } = page;
  const error = page.ok ? null : page.error;
  return (
    <Form
      method="get"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="Listing and period"
      onChange={(event) => {
        // With JavaScript, picking a listing or a preset shows it at once; dates wait for "Show".
        const target = event.target as unknown as HTMLInputElement | HTMLSelectElement;
        if (target.name === "listing" || (target.name === "days" && target.value !== CUSTOM_RANGE))
          void submit(event.currentTarget);
      }}
    >
      <FormError message={error?.field === "days" ? error.message : null} />
      <div className="flex flex-wrap items-start gap-x-6 gap-y-2">
        <Field label="Listing" name="listing" className="min-w-56 flex-1">
          {(control) => (
            <Select {...control} defaultValue={values.listing} key={values.listing}>
              <option value={ALL_LISTINGS}>All my listings ({selection.options.length})</option>
              {selection.options.map((o) => (
                <option key={o.placeId} value={o.placeId}>
                  {o.name}
                  {o.city ? ` — ${[o.city, o.state].filter(Boolean).join(", ")}` : ""}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <PeriodPresets presets={ANALYTICS_PRESETS} days={values.days} className="rounded-md" />
      </div>
      <DateRangeFields from={values.from} to={values.to} error={error} fieldClassName="w-44" />
      <p className="text-sm text-slate-600">
        Dates are whole days in UTC. A custom range uses From and To (at most {MAX_ANALYTICS_DAYS} days); the address of
        this page keeps your choice, so you can bookmark or share it.
      </p>
    </Form>
  );
}

function NoTraffic() {
  return (
    <EmptyState
      className="mt-6"
      icon={<ChartNoAxesColumn />}
      title="No visits recorded yet"
      text="Nobody has viewed this listing on the site since we started counting. Counts appear here the day after the first visit at the latest; complete photos, hours and prices help people pick your facility in the search results."
    />
  );
}

function Report({ report, several }: { report: OwnerReport; several: boolean }) {
  const t = report.totals;
  const prev = `${formatFullDay(report.previous.from)} to ${formatFullDay(report.previous.to)}`;
  return (
    <>
      <section aria-labelledby="totals-heading" className="mt-8">
        <h2 id="totals-heading" className="text-lg font-semibold text-slate-900">
          Totals
        </h2>
        <p className="text-sm text-slate-600">
          Changes are against the {report.days} days before: {prev}.
        </p>
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat
            label="Page views"
            value={formatNumber(t.pageViews)}
            extra={<Growth value={report.growth.pageViews} />}
          />
          <Stat
            label="List views"
            value={formatNumber(t.listViews)}
            extra={<Growth value={report.growth.listViews} />}
          />
          <Stat
            label="Unique visitors"
            value={formatNumber(t.uniqueVisitors)}
            extra={<Growth value={report.growth.uniqueVisitors} />}
          />
          <Stat label="Clicks" value={formatNumber(t.clicks)} extra={<Growth value={report.growth.clicks} />} />
          <Stat label="Website clicks" value={formatNumber(t.websiteClicks)} />
          <Stat label="Phone clicks" value={formatNumber(t.phoneClicks)} />
          <Stat label="Directions clicks" value={formatNumber(t.directionsClicks)} />
          <Stat
            label="Leads"
            value={formatNumber(t.leads)}
            extra={<Was>{formatNumber(report.previousTotals.leads)}</Was>}
          />
          <Stat
            label="Reservation requests"
            value={formatNumber(t.reservations)}
            extra={<Was>{formatNumber(report.previousTotals.reservations)}</Was>}
          />
          <Stat
            label="Reservations accepted"
            value={formatNumber(t.reservationsAccepted)}
            extra={<Was>{formatNumber(report.previousTotals.reservationsAccepted)}</Was>}
          />
          <Stat
            label="Conversion"
            value={formatPercent(t.conversionRate)}
            extra={<Was>{formatPercent(report.previousTotals.conversionRate)}</Was>}
          />
        </dl>
        <details className="mt-3 text-sm text-slate-700">
          <summary className="cursor-pointer text-brand-700">What these numbers mean</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>
              <strong>Page views</strong>: times someone opened the listing's page. <strong>List views</strong>: times
              the listing was shown as a card in search results.
            </li>
            <li>
              <strong>Unique visitors</strong>: different visitors who opened the page, counted once per day (someone
              who comes back on another day counts again).
            </li>
            <li>
              <strong>Clicks</strong>: taps on the website link, the phone number or Contact button, and Directions.
            </li>
            <li>
              <strong>Leads</strong>: questions and reservation requests sent from the listing's page.{" "}
              <strong>Reservation requests</strong>: those asking to reserve a space;{" "}
              <strong>Reservations accepted</strong>: the ones you accepted, on the day you answered.
            </li>
            <li>
              <strong>Conversion</strong>: clicks divided by page views, as a percentage (at most 100%): how often a
              visit turns into a call, a website visit or a trip.
            </li>
            <li>Bots are not counted, and one visitor cannot add more than a few views or clicks an hour.</li>
          </ul>
        </details>
      </section>

      <section aria-labelledby="daily-heading" className="mt-8">
        <h2 id="daily-heading" className="text-lg font-semibold text-slate-900">
          Day by day
        </h2>
        <div className="mt-3 grid gap-6 lg:grid-cols-2">
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <DailyChart
              title="Views per day"
              summary={`Page views and list views per day, ${formatFullDay(report.from)} to ${formatFullDay(report.to)}: ${formatNumber(t.pageViews)} page views and ${formatNumber(t.listViews)} list views in all. The table below has each day.`}
              kind="lines"
              series={VIEW_SERIES}
              rows={report.daily}
            />
            <DailyTable
              caption="Views per day"
              rows={report.daily}
              columns={[...VIEW_SERIES, { key: "uniqueVisitors", label: "Unique visitors" }]}
            />
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <DailyChart
              title="Clicks per day"
              summary={`Website, phone and directions clicks per day: ${formatNumber(t.clicks)} clicks in all. The table below has each day.`}
              kind="stacked-bars"
              series={OWNER_CLICK_SERIES}
              rows={report.daily}
            />
            <DailyTable
              caption="Clicks per day"
              rows={report.daily}
              columns={[...OWNER_CLICK_SERIES, { key: "conversionRate", label: "Conversion", format: formatPercent }]}
            />
          </div>
        </div>
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Sources report={report} />
        <Scores report={report} several={several} />
      </div>

      {several && report.listings.length > 1 && <ListingsTable report={report} />}
    </>
  );
}

function Sources({ report }: { report: OwnerReport }) {
  const total = report.sources.reduce((sum, s) => sum + s.pageViews, 0);
  return (
    <section aria-labelledby="sources-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="sources-heading" className="text-lg font-semibold text-slate-900">
        Where visitors came from
      </h2>
      <p className="text-sm text-slate-600">
        Page views by the site that sent the visitor.
        {report.sourcesFrom && (
          <> Counted from {formatFullDay(report.sourcesFrom)}: older visit details are not kept.</>
        )}
      </p>
      {total === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No page views in this period.</p>
      ) : (
        <table className="mt-3 w-full text-sm tabular-nums">
          <caption className="sr-only">Page views by traffic source</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-1 pr-3 font-medium">
                Source
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Page views
              </th>
              <th scope="col" className="w-2/5 py-1 font-medium">
                <span className="sr-only">Share</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.sources.map((s) => {
              const share = (s.pageViews / total) * 100;
              return (
                <tr key={s.source} className="border-b border-slate-100">
                  <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                    {SOURCE_LABELS[s.source] ?? s.source}
                  </th>
                  <td className="py-1.5 pr-3 text-right">{formatNumber(s.pageViews)}</td>
                  <td className="py-1.5">
                    <ShareBar share={share} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Scores({ report, several }: { report: OwnerReport; several: boolean }) {
  const { engagement, performance } = report.scores;
  return (
    <section aria-labelledby="scores-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="scores-heading" className="text-lg font-semibold text-slate-900">
        Scores
      </h2>
      <p className="text-sm text-slate-600">
        Over this period{several ? ", for your listings together" : ""}. Higher is better.
      </p>
      <dl className="mt-3 space-y-4">
        <div>
          <dt className="font-medium text-slate-900">
            Performance: <span className="tabular-nums">{performance}</span> of 100
          </dt>
          <dd className="mt-1">
            <Meter value={performance} max={100} label="Performance score" />
            <p className="mt-1 text-sm text-slate-700">
              Four equal parts of up to 25 points: page views (1 point per 10), conversion (2.5 points per percent),
              unique visitors (1 per 5) and clicks (1 per 5). A listing seen by 250 people who call or click 125 times
              scores 100.
            </p>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">
            Engagement: <span className="tabular-nums">{engagement}</span>
          </dt>
          <dd className="mt-1">
            <p className="text-sm text-slate-700">
              40% of the conversion percentage, plus 30% of how recently the listing was last viewed (10 points if
              within a day, down to 2 after 90 days
              {report.lastViewed ? `; last viewed ${formatDate(report.lastViewed)}` : ""}), plus 30% of the page views
              (1 point per 10, up to 10).
            </p>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function Meter({ value, max, label }: { value: number; max: number; label: string }) {
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-2 rounded-full bg-slate-100"
    >
      <div className="h-2 rounded-full bg-brand-500" style={{ width: `${Math.min(100, (value / max) * 100)}%` }} />
    </div>
  );
}

function ListingsTable({ report }: { report: OwnerReport }) {
  return (
    <section aria-labelledby="listings-heading" className="mt-8">
      <h2 id="listings-heading" className="text-lg font-semibold text-slate-900">
        By listing
      </h2>
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-sm tabular-nums">
          <caption className="sr-only">Totals by listing, most page views first</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="px-4 py-2 font-medium">
                Listing
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Page views
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                List views
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Clicks
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Conversion
              </th>
            </tr>
          </thead>
          <tbody>
            {report.listings.map((l) => (
              <tr key={l.locationId} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="px-4 py-2 text-left font-normal">
                  <Link
                    to={`?${new URLSearchParams({ listing: l.locationId, from: report.from, to: report.to, days: "custom" })}`}
                    className="text-brand-700 hover:underline"
                  >
                    {l.name}
                  </Link>
                </th>
                <td className="px-4 py-2 text-right">{formatNumber(l.pageViews)}</td>
                <td className="px-4 py-2 text-right">{formatNumber(l.listViews)}</td>
                <td className="px-4 py-2 text-right">{formatNumber(l.clicks)}</td>
                <td className="px-4 py-2 text-right">{formatPercent(l.conversionRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Reviews published in the period (docs/product.md section 16), read on /owner/reviews. */
function ReviewTotals({ reviews }: { reviews: { count: number; average: number | null } }) {
  return (
    <section aria-labelledby="review-totals-heading" className="mt-8">
      <h2 id="review-totals-heading" className="text-lg font-semibold text-slate-900">
        Reviews
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="New reviews" value={formatNumber(reviews.count)} />
        <Stat
          label="Average rating of new reviews"
          value={reviews.average === null ? "None yet" : `${reviews.average.toFixed(1)} / 5`}
        />
      </dl>
      <p className="mt-2 text-sm">
        <Link to="/owner/reviews" className="text-brand-700 underline">
          Read and answer your reviews
        </Link>
      </p>
    </section>
  );
}
