import { z } from "zod";
import {
  MAX_REVIEW_STARS,
  MIN_REVIEW_STARS,
  REVIEW_LIMITS,
  REVIEW_REPORT_KINDS,
  STORED_KINDS,
  SUB_RATINGS,
  stayMonths,
  type SubRating,
} from "../../domain/reviews";
import type { ReviewInput } from "./service";

/**
 * The review form's schema (docs/product.md section 16), with the words a person reads. Text is
 * trimmed and its line ends made "\n"; control characters other than line breaks and tabs are
 * refused (PostgreSQL refuses NUL, and an email or a spreadsheet cell should not carry them).
 */
// eslint-disable-next-line no-control-regex -- these very characters are what must be refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const text = (missing: string) => z.string({ error: missing });
const cleanText = (v: string) => v.replace(/\r\n?/g, "\n").trim();

const starsField = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(MIN_REVIEW_STARS, message).max(MAX_REVIEW_STARS, message);

const subRating = starsField("Choose 1 to 5 stars, or leave it blank.").optional();

export function reviewSchema(now: Date) {
  const months = new Set(stayMonths(now));
  return z.object({
    intent: z.literal("save"),
    stars: starsField("Choose 1 to 5 stars."),
    title: text("Give your review a title.")
      .transform(cleanText)
      .pipe(
        z
          .string()
          .min(1, "Give your review a title.")
          .max(REVIEW_LIMITS.titleMax, `Keep the title under ${REVIEW_LIMITS.titleMax} characters.`)
          .refine((v) => !CONTROL.test(v) && !v.includes("\n"), "Write the title on one line."),
      ),
    body: text(`Write at least ${REVIEW_LIMITS.textMin} characters about your stay.`)
      .transform(cleanText)
      .pipe(
        z
          .string()
          .min(REVIEW_LIMITS.textMin, `Write at least ${REVIEW_LIMITS.textMin} characters about your stay.`)
          .max(
            REVIEW_LIMITS.textMax,
            `Keep your review under ${REVIEW_LIMITS.textMax.toLocaleString("en-US")} characters.`,
          )
          .refine((v) => !CONTROL.test(v), "Remove the special characters from your review."),
      ),
    stayMonth: text("Choose the month of your stay.").refine(
      (v) => months.has(v),
      `Choose the month of your stay, from ${REVIEW_LIMITS.stayYearsBack} years ago to this month.`,
    ),
    storedKind: z.enum(STORED_KINDS, { error: "Choose what you stored." }),
    lengthFeet: z.coerce
      .number({ error: "Enter its length in feet." })
      .int("Enter a whole number of feet.")
      .min(
        REVIEW_LIMITS.lengthMinFeet,
        `Enter a length from ${REVIEW_LIMITS.lengthMinFeet} to ${REVIEW_LIMITS.lengthMaxFeet} feet.`,
      )
      .max(
        REVIEW_LIMITS.lengthMaxFeet,
        `Enter a length from ${REVIEW_LIMITS.lengthMinFeet} to ${REVIEW_LIMITS.lengthMaxFeet} feet.`,
      ),
    security: subRating,
    access: subRating,
    value: subRating,
    cleanliness: subRating,
  });
}

export type ReviewFormData = z.output<ReturnType<typeof reviewSchema>>;

export function reviewInputOf(data: ReviewFormData): ReviewInput {
  const subRatings: Partial<Record<SubRating, number | null>> = {};
  for (const key of SUB_RATINGS) subRatings[key] = data[key] ?? null;
  return {
    stars: data.stars,
    title: data.title,
    body: data.body,
    stayMonth: data.stayMonth,
    storedKind: data.storedKind,
    lengthFeet: data.lengthFeet,
    subRatings,
  };
}

export const reviewIdField = z.coerce
  .number({ error: "Reload the page and try again." })
  .int("Reload the page and try again.")
  .positive("Reload the page and try again.")
  .max(Number.MAX_SAFE_INTEGER, "Reload the page and try again.");

export const reportSchema = z.object({
  intent: z.literal("report-review"),
  reviewId: reviewIdField,
  kind: z.enum(REVIEW_REPORT_KINDS, { error: "Choose why you report this review." }),
  message: text("Write the details as text.")
    .max(
      REVIEW_LIMITS.reasonMax,
      `Keep the details under ${REVIEW_LIMITS.reasonMax.toLocaleString("en-US")} characters.`,
    )
    .optional()
    .transform((v) => (v === undefined ? null : cleanText(v) || null))
    .refine((v) => v === null || !CONTROL.test(v), "Remove the special characters from the details."),
});

export const replySchema = z.object({
  intent: z.literal("reply"),
  reviewId: reviewIdField,
  body: text("Write your reply.")
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, "Write your reply.")
        .max(
          REVIEW_LIMITS.replyMax,
          `Keep your reply under ${REVIEW_LIMITS.replyMax.toLocaleString("en-US")} characters.`,
        )
        .refine((v) => !CONTROL.test(v), "Remove the special characters from your reply."),
    ),
});

export const decisionSchema = z
  .object({
    intent: z.enum(["review-approve", "review-reject", "review-remove"]),
    reviewId: reviewIdField,
    status: z.enum(["held", "published"], { error: "Reload the page and try again." }),
    reason: text("Write the reason as text.")
      .max(
        REVIEW_LIMITS.reasonMax,
        `Keep the reason under ${REVIEW_LIMITS.reasonMax.toLocaleString("en-US")} characters.`,
      )
      .optional()
      .transform((v) => (v === undefined ? null : cleanText(v) || null)),
  })
  .superRefine((value, ctx) => {
    if (value.intent !== "review-approve" && !value.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "Give a reason: the author is told." });
  });
