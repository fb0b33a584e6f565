import { data } from "react-router";
import { z } from "zod";
import type { FormFailure } from "../../domain/forms";
import { LISTING_REPORT_KINDS, REPORT_MESSAGE_MAX } from "../../domain/work-queue";
import { getDatabase } from "../db";
import { notFound } from "../errors";
import { readForm } from "../http/form";
import { parseFormSubmission } from "../http/form-action";
import { isRefusal } from "../http/refusal";
import { clientIp } from "../http/rate-limit";
import { createSharedRateLimiter } from "../http/shared-rate-limit";
import { submitReport } from "./reports";

/** Reports a visitor may send (docs/product.md section 12): per address, and per listing from one address. */
export const REPORT_LIMITS = {
  perIp: { name: "report-ip", windowMs: 60 * 60_000, max: 5 },
  perListing: { name: "report-listing-ip", windowMs: 24 * 60 * 60_000, max: 2 },
} as const;

const reportSchema = z.object({
  kind: z.enum(LISTING_REPORT_KINDS, { error: "Choose what is wrong with the listing." }),
  message: z
    .string()
    .max(REPORT_MESSAGE_MAX, `Keep the details under ${REPORT_MESSAGE_MAX.toLocaleString("en-US")} characters.`)
    .optional()
    .transform((v) => v?.replace(/\r\n?/g, "\n").trim() || null),
});

const failure = (status: number, message: string, values: Record<string, string>, headers?: HeadersInit) =>
  data({ report: "error" as const, message, values }, { status, headers });

const firstMessage = (failed: FormFailure) =>
  failed.formError ?? Object.values(failed.fieldErrors).flat()[0] ?? "Check the report and send it again.";

/** The facility page's POST `intent=report` for the listing `locationId`. */
export async function reportListingAction(request: Request, locationId: string, given?: FormData) {
  const form = given ?? (await readForm(request));
  const values = {
    kind: String(form.get("kind") ?? "").slice(0, 50),
    message: String(form.get("message") ?? "").slice(0, REPORT_MESSAGE_MAX + 100),
  };
  if (form.get("intent") !== "report") return failure(400, "Unknown action.", values);
  // The console's form pipeline (server/http/form-action.ts); the page shows one message, the first.
  const parsed = parseFormSubmission(reportSchema, form);
  if (!parsed.ok) return failure(400, firstMessage(parsed), values);
  const db = getDatabase();
  const ip = clientIp(request);
  for (const [limit, key] of [
    [REPORT_LIMITS.perIp, ip],
    [REPORT_LIMITS.perListing, `${ip}:${locationId}`],
  ] as const) {
    const hit = await createSharedRateLimiter(db, limit).hit(key);
    if (!hit.ok)
      return failure(429, "You have sent several reports already. Please try again later.", values, {
        "Retry-After": String(hit.retryAfterSeconds),
      });
  }
  try {
    await submitReport(db, { locationId, kind: parsed.data.kind, message: parsed.data.message, reporterId: null });
  } catch (error) {
    throw isRefusal(error, ["not_found"]) ? notFound("Location not found") : error;
  }
  return { report: "sent" as const };
}
