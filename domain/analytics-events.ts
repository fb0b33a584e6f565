import { z } from "zod";
import { CLICK_TYPES, EVENT_TYPES, INGEST_LIMITS, TRAFFIC_SOURCES, type AnalyticsEvent } from "./analytics-types";

/**
 * The zod schema of one analytics event (docs/product.md section 3), for the ingestion endpoint. Kept out
 * of the tracker so zod stays out of the browser bundle; `satisfies` keeps it equal to the type.
 */
const id = z
  .string()
  .min(1)
  .max(INGEST_LIMITS.maxId)
  .regex(/^[A-Za-z0-9_.:-]+$/, "must contain only letters, digits and _ . : -");

const text = (max: number) => z.string().max(max);

export const analyticsEventSchema = z
  .object({
    eventId: id,
    eventType: z.enum(EVENT_TYPES),
    timestamp: z.iso.datetime({ offset: true }),
    sessionId: id,
    url: text(INGEST_LIMITS.maxUrl),
    userAgent: text(INGEST_LIMITS.maxUserAgent).nullish(),
    referrer: text(INGEST_LIMITS.maxUrl).nullish(),
    trafficSource: z.enum(TRAFFIC_SOURCES).nullish(),
    samePath: z.boolean().nullish(),
    viewport: z
      .object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) })
      .nullish(),
    userId: id.nullish(),
    locationId: text(INGEST_LIMITS.maxId).min(1).nullish(),
    elementType: z.enum(CLICK_TYPES).nullish(),
  })
  .superRefine((event, ctx) => {
    if (event.eventType === "click" && !event.elementType) {
      ctx.addIssue({ code: "custom", path: ["elementType"], message: "a click needs an elementType" });
    }
    if (event.eventType !== "click" && event.elementType) {
      ctx.addIssue({ code: "custom", path: ["elementType"], message: "only a click has an elementType" });
    }
    if (event.eventType === "list_view" && !event.locationId) {
      ctx.addIssue({ code: "custom", path: ["locationId"], message: "a list_view needs a locationId" });
    }
  }) satisfies z.ZodType<AnalyticsEvent>;

export const analyticsBatchSchema = z.array(analyticsEventSchema).min(1).max(INGEST_LIMITS.maxBatch);

export type ValidatedAnalyticsEvent = z.infer<typeof analyticsEventSchema>;

/** "3.timestamp: Invalid ISO datetime": the first problems of a rejected batch, by path. */
export function describeIssues(error: z.ZodError, max = 5): string[] {
  return error.issues.slice(0, max).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
