import { getConfig, publicOrigin } from "../config";
import type { Database } from "../db/client";
import { enqueueEmail } from "../email";

/**
 * The messages a claim sends (docs/product.md section 10), queued in the caller's transaction so
 * that they leave if and only if the decision committed. Plain text: read anywhere, no tracking.
 */
const site = () => publicOrigin(getConfig());

interface Party {
  email: string;
  name: string;
}

export function claimReceived(db: Database, to: Party, listing: { name: string }) {
  return enqueueEmail(db, {
    kind: "claim.received",
    to: to.email,
    subject: `We received your claim for ${listing.name}`,
    text: [
      `Hello ${to.name},`,
      "",
      `Thank you for claiming ${listing.name}. An administrator checks every claim, usually within two business days, and we will email you the decision.`,
      "",
      `Follow your claim: ${site()}/owner/claims`,
    ].join("\n"),
  });
}

/** One message per admin, sent one after another: a transaction's queries must not overlap. */
export async function claimFiledForAdmins(
  db: Database,
  admins: Party[],
  claim: { id: string; listingName: string; claimant: string },
) {
  for (const admin of admins)
    await enqueueEmail(db, {
      kind: "claim.filed",
      to: admin.email,
      subject: `New claim to review: ${claim.listingName}`,
      text: [
        `${claim.claimant} claimed ${claim.listingName}.`,
        "",
        `Review it: ${site()}/admin/claims/${encodeURIComponent(claim.id)}`,
      ].join("\n"),
    });
}

export function claimApproved(db: Database, to: Party, listing: { name: string; placeId: string }, leadsWaiting = 0) {
  return enqueueEmail(db, {
    kind: "claim.approved",
    to: to.email,
    subject: `Your claim for ${listing.name} was approved`,
    text: [
      `Hello ${to.name},`,
      "",
      `Your claim for ${listing.name} was approved: you now manage this listing, and its page shows a 'Verified owner' badge.`,
      "",
      `Open your owner console: ${site()}/owner`,
      `Update the listing: ${site()}/owner/locations/${encodeURIComponent(listing.placeId)}/update`,
      ...(leadsWaiting > 0
        ? [
            "",
            `${leadsWaiting === 1 ? "1 question" : `${leadsWaiting} questions`} from visitors, asked before your claim, ${leadsWaiting === 1 ? "is" : "are"} now yours to answer: ${site()}/owner/leads`,
          ]
        : []),
    ].join("\n"),
  });
}

export function claimRejected(db: Database, to: Party, listing: { name: string }, reason: string) {
  return enqueueEmail(db, {
    kind: "claim.rejected",
    to: to.email,
    subject: `Your claim for ${listing.name} was not approved`,
    text: [
      `Hello ${to.name},`,
      "",
      `We could not approve your claim for ${listing.name}.`,
      "",
      `Reason: ${reason}`,
      "",
      `You can file a new claim with more evidence (for example a utility bill or business licence showing the facility's address): ${site()}/owner/claims`,
    ].join("\n"),
  });
}

export function listingTransferred(db: Database, to: Party, listing: { name: string }) {
  return enqueueEmail(db, {
    kind: "claim.transferred",
    to: to.email,
    subject: `${listing.name} is now managed by another account`,
    text: [
      `Hello ${to.name},`,
      "",
      `An administrator verified another person's claim for ${listing.name}, so this listing has moved to their account.`,
      "",
      `If this is a mistake, reply to this message or contact us from ${site()}/about.`,
    ].join("\n"),
  });
}
