/**
 * The people the browser and authorization tests act as. The global setup creates them in the
 * site's fresh database before the site starts (the embedded database admits one process at a
 * time), exactly as sign-up and `npm run user:create-admin` would.
 */
import { submitLead } from "../../server/leads/service";
import fs from "node:fs";
import path from "node:path";
import { asc, desc, eq } from "drizzle-orm";
import type { Role } from "../../domain/roles";
import { createAuth } from "../../server/auth/auth";
import { grantListing } from "../../server/auth/ownership";
import { resolveAuthSecret } from "../../server/auth/secret";
import { openDatabase } from "../../server/db/client";
import { claimEvidence, locations } from "../../server/db/schema";
import { fileClaim } from "../../server/claims/service";
import { CLAIM_INPUT, PDF_BYTES } from "../../server/claims/test-support";
import { createLocalPrivateStore } from "../../server/files/private-store";
import { parseConfig } from "../../server/config";
import { cancelAtPeriodEnd, issueInvoice, requestPromotion } from "../../server/promotions/service";
import { ensureDemoData } from "../../server/locations/demo-seed";
import { changeListingOwner } from "../../server/catalogue/service";
import { createAccount } from "../setup/auth";
import { writeReview } from "../../server/reviews/service";

export type Persona = "visitor" | "anonymous" | "user" | "business_owner" | "listing_owner" | "admin";
export const PERSONAS: readonly Persona[] = [
  "visitor",
  "anonymous",
  "user",
  "business_owner",
  "listing_owner",
  "admin",
];

export const PASSWORD = "e2e password 123";
export const ACCOUNTS: Record<Exclude<Persona, "visitor" | "anonymous">, { email: string; role: Role }> = {
  user: { email: "user@e2e.test", role: "user" },
  business_owner: { email: "owner@e2e.test", role: "business_owner" },
  listing_owner: { email: "listing-owner@e2e.test", role: "business_owner" },
  admin: { email: "admin@e2e.test", role: "admin" },
};

export interface Fixtures {
  /** The listing that `listing_owner` owns. */
  ownedLocationId: string;
  /** A pending claim by `user` on another listing, with one PDF as evidence. */
  claimId: string;
  evidenceId: string;
  /**
   * A promotion `listing_owner` requested for its listing, with its invoice, then cancelled (so
   * the listing has no live promotion): its pages are the owner's and admins' only.
   */
  promotionId: string;
  invoiceId: string;
  /** The `user` persona's account id (the admin accounts screens). */
  userId: string;
  /** A visitor's lead on the listing `listing_owner` owns. */
  leadId: string;
  /**
   * A listing `listing_owner` owned, with a promotion it requested, that promotion's invoice and a
   * visitor's lead, then transferred by an admin to `business_owner`: billing and leads stay with the
   * old owner (docs/operations.md "Listing transfers and billing").
   */
  movedLocationId: string;
  priorPromotionId: string;
  priorInvoiceId: string;
  priorLeadId: string;
  /** The slug of the listing `listing_owner` owns (its facility page). */
  ownedSlug: string;
  /** A published review of that listing, written by `user`. */
  reviewId: number;
}

/** Where the run's prepared data directory is (set by `prepareTemplate`, read in every test worker). */
const TEMPLATE_ENV = "E2E_PREPARED_DATA";

const demoCount = () => Number(process.env.DEMO_COUNT ?? 3000);

/**
 * Fills a site's fresh data directory with the demo catalogue and the fixtures. A copy of the
 * run's prepared directory when there is one for this catalogue size (the global setup makes it
 * once): preparing takes the better part of a minute on a busy 2-core machine, copying 2 s.
 */
export async function prepareAccounts(dataDir: string): Promise<Fixtures> {
  const template = process.env[TEMPLATE_ENV];
  if (template) {
    const saved = JSON.parse(fs.readFileSync(path.join(template, "fixtures.json"), "utf8")) as {
      demoCount: number;
      fixtures: Fixtures;
    };
    if (saved.demoCount === demoCount()) {
      fs.cpSync(path.join(template, "data"), dataDir, { recursive: true });
      return saved.fixtures;
    }
  }
  return prepareFresh(dataDir);
}

/**
 * Prepares `dir` once for the run (its data directory and its fixtures' ids) and points every
 * later `prepareAccounts`, in this process and in the test workers it starts, at a copy of it.
 */
export async function prepareTemplate(dir: string): Promise<void> {
  const data = path.join(dir, "data");
  fs.mkdirSync(data, { recursive: true });
  const fixtures = await prepareFresh(data);
  fs.writeFileSync(path.join(dir, "fixtures.json"), JSON.stringify({ demoCount: demoCount(), fixtures }));
  process.env[TEMPLATE_ENV] = dir;
}

async function prepareFresh(dataDir: string): Promise<Fixtures> {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    await handle.migrate();
    await ensureDemoData(handle.db, { mode: "auto", count: demoCount() });
    const auth = createAuth({
      db: handle.db,
      secret: resolveAuthSecret({ dataDir, AUTH_SECRET: process.env.AUTH_SECRET, DATABASE_URL: undefined }),
      baseURL: "http://localhost:3000",
    });
    const ids: Record<string, string> = {};
    for (const [persona, { email, role }] of Object.entries(ACCOUNTS)) {
      ids[persona] = (await createAccount(auth, handle.db, { email, role, password: PASSWORD, name: persona })).userId;
    }
    const [first] = await handle.db
      .select({ id: locations.placeId })
      .from(locations)
      .orderBy(asc(locations.placeId))
      .limit(1);
    if (!first) throw new Error("The demo catalogue is empty");
    await grantListing(handle.db, ids.listing_owner!, first.id);
    const [second] = await handle.db
      .select({ id: locations.placeId })
      .from(locations)
      .orderBy(desc(locations.placeId))
      .limit(1);
    const filed = await fileClaim(handle.db, createLocalPrivateStore(path.join(dataDir, "private")), {
      actor: { userId: ids.user!, email: ACCOUNTS.user.email, name: "user", isAdmin: false },
      locationId: second!.id,
      input: CLAIM_INPUT,
      files: [{ name: "licence.pdf", bytes: PDF_BYTES }],
    });
    if (!filed.ok) throw new Error(`The fixture claim was refused: ${filed.fileErrors.join(" ")}`);
    const [evidence] = await handle.db
      .select({ id: claimEvidence.id })
      .from(claimEvidence)
      .where(eq(claimEvidence.claimId, filed.claimId));
    const ownerActor = { userId: ids.listing_owner!, email: ACCOUNTS.listing_owner.email, isAdmin: false };
    const settings = parseConfig({});
    const { promotion } = await requestPromotion(handle.db, {
      actor: ownerActor,
      locationId: first.id,
      tier: "Basic",
      interval: "month",
      idempotencyKey: "fixture-promotion",
      settings,
    });
    const { invoice } = await issueInvoice(handle.db, { actor: ownerActor, promotionId: promotion.id, settings });
    await cancelAtPeriodEnd(handle.db, { actor: ownerActor, promotionId: promotion.id });
    const lead = await submitLead(handle.db, {
      locationId: first.id,
      input: {
        rvType: "class_a",
        rvLengthFeet: 38,
        cover: "covered",
        moveIn: null,
        name: "Fixture Visitor",
        email: "fixture-visitor@example.com",
        phone: null,
        message: "Do you have a covered space?",
      },
      visitorUserId: null,
    });
    // A transfer: listing_owner's second listing, with its billing and a lead, moved to business_owner.
    const [moved] = await handle.db
      .select({ id: locations.placeId })
      .from(locations)
      .orderBy(asc(locations.placeId))
      .limit(1)
      .offset(1);
    await grantListing(handle.db, ids.listing_owner!, moved!.id);
    const prior = await requestPromotion(handle.db, {
      actor: ownerActor,
      locationId: moved!.id,
      tier: "Basic",
      interval: "month",
      idempotencyKey: "fixture-prior-promotion",
      settings,
    });
    const priorInvoice = await issueInvoice(handle.db, {
      actor: ownerActor,
      promotionId: prior.promotion.id,
      settings,
    });
    const priorLead = await submitLead(handle.db, {
      locationId: moved!.id,
      input: {
        rvType: "fifth_wheel",
        rvLengthFeet: 34,
        cover: "any",
        moveIn: null,
        name: "Prior Visitor",
        email: "prior-visitor@example.com",
        phone: null,
        message: "Is there a space for a fifth wheel?",
      },
      visitorUserId: null,
    });
    await changeListingOwner(handle.db, {
      actor: { userId: ids.admin!, email: ACCOUNTS.admin.email },
      locationId: moved!.id,
      email: ACCOUNTS.business_owner.email,
      settings,
    });
    const [owned] = await handle.db
      .select({ slug: locations.slug })
      .from(locations)
      .where(eq(locations.placeId, first.id));
    const review = await writeReview(handle.db, {
      author: { userId: ids.user! },
      locationId: first.id,
      review: {
        stars: 4,
        title: "Fixture review",
        body: "A fixture review of the owned listing, written by the user persona.",
        stayMonth: "2026-01",
        storedKind: "class_c",
        lengthFeet: 30,
        subRatings: {},
      },
      ipHash: null,
    });
    if (review.status !== "published") throw new Error("The fixture review was held");
    return {
      ownedSlug: owned!.slug,
      reviewId: review.id,
      movedLocationId: moved!.id,
      priorPromotionId: prior.promotion.id,
      priorInvoiceId: priorInvoice.invoice.id,
      priorLeadId: priorLead.id,
      ownedLocationId: first.id,
      claimId: filed.claimId,
      evidenceId: evidence!.id,
      promotionId: promotion.id,
      invoiceId: invoice.id,
      userId: ids.user!,
      leadId: lead.id,
    };
  } finally {
    await handle.close();
  }
}
