import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { CLAIM_FIELD_LIMITS, CLAIMANT_ROLES } from "./claims";

/**
 * The claim form (docs/product.md section 10): the one schema the action parses with. Server
 * side only in practice: the form itself takes its limits from ./claims, so that zod and the
 * phone metadata stay out of the page's bundle. Evidence files are checked apart (server/claims/evidence.ts),
 * by their content.
 */

const text = (label: string, max: number) =>
  z
    .string({ error: `Enter ${label}.` })
    .trim()
    .min(1, `Enter ${label}.`)
    .max(max, `${label[0]!.toUpperCase()}${label.slice(1)} must be at most ${max} characters.`);

/** The number in E.164 form when it is a valid US number (libphonenumber-js's metadata), else null. */
export function normalizeUsPhone(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.slice(0, 40), "US");
  return parsed?.isValid() && parsed.country === "US" ? parsed.number : null;
}

/**
 * A phone number as the site shows it (docs/product.md section 9): a US number in its national
 * form, "(512) 555-0111", whether it was stored as "+15125550111" or typed any other way; a number
 * libphonenumber-js cannot read is shown as it is. The listing editor stores this form too.
 */
export function displayUsPhone(value: string): string {
  return parsePhoneNumberFromString(value.slice(0, 40), "US")?.formatNational() ?? value;
}

export const claimFormSchema = z.object({
  claimantName: text("your name", CLAIM_FIELD_LIMITS.name),
  claimantRole: z.enum(CLAIMANT_ROLES, { error: "Choose your role at the business." }),
  businessPhone: text("the business phone number", CLAIM_FIELD_LIMITS.phone).refine(
    (v) => normalizeUsPhone(v) !== null,
    "Enter a US phone number with area code, e.g. (512) 555-0142.",
  ),
  businessEmail: z
    .string({ error: "Enter the business email address." })
    .trim()
    .min(1, "Enter the business email address.")
    .max(CLAIM_FIELD_LIMITS.email, `The email address must be at most ${CLAIM_FIELD_LIMITS.email} characters.`)
    .pipe(z.email("Enter an email address such as manager@yourfacility.com.")),
  message: z
    .string()
    .trim()
    .max(CLAIM_FIELD_LIMITS.message, `The message must be at most ${CLAIM_FIELD_LIMITS.message} characters.`)
    .default(""),
  consent: z.literal("on", { error: "Confirm that you are authorised to manage this business." }),
});

export type ClaimFormInput = z.infer<typeof claimFormSchema>;

/** docs/product.md section 10: a rejection's reason is required (the claimant reads it); an approval's is optional. */
export const CLAIM_REASON_MIN = 3;
export const CLAIM_REASON_MAX = 1000;
export const CLAIM_REJECTION_REASON_TEXT = `Give the claimant a reason for the rejection (at least ${CLAIM_REASON_MIN} characters).`;

export const claimDecisionSchema = z
  .object({
    decision: z.enum(["approve", "reject"], { error: "Choose approve or reject." }),
    reason: z
      .string()
      .trim()
      .max(CLAIM_REASON_MAX, `The reason must be at most ${CLAIM_REASON_MAX} characters.`)
      .default(""),
  })
  .superRefine((value, ctx) => {
    if (value.decision === "reject" && value.reason.length < CLAIM_REASON_MIN)
      ctx.addIssue({ code: "custom", path: ["reason"], message: CLAIM_REJECTION_REASON_TEXT });
  });

export type ClaimDecisionInput = z.infer<typeof claimDecisionSchema>;
