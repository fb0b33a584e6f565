import type { Persona } from "./accounts";

/**
 * Who may do what, route by route: every route under /admin and /owner and every /api route that
 * changes data (tests/e2e/authorization.test.ts fails when one is missing here).
 *
 * An answer is an HTTP status, "login" / "business-login" for a redirect to that page with
 * `redirectTo` pointing back, or "redirect /path" for any other redirect.
 */
export type Answer = number | "login" | "business-login" | `redirect /${string}`;
export interface MatrixEntry {
  /** The route pattern as in app/routes.ts (`:param` placeholders). */
  route: string;
  method: "GET" | "POST";
  /**
   * A concrete path to request; LOCATION is replaced by the listing_owner's location id, CLAIM and
   * EVIDENCE by the fixture claim of tests/e2e/accounts.ts and its file, PROMOTION and INVOICE by
   * its fixture promotion and invoice, USER by the `user` persona's account id, LEAD by the fixture lead
   * on the listing_owner's listing (in the path and the body). Across a transfer: MOVED_LISTING is a
   * listing an admin moved from listing_owner (the old owner) to business_owner (the new owner);
   * PRIOR_PROMO, PRIOR_BILL and PRIOR_ASK are the promotion, invoice and lead listing_owner had on it.
   * OWNED_SLUG is the slug of listing_owner's listing and REVIEW a published review of it by `user`.
   */
  path: string;
  body?: string;
  contentType?: string;
  expect: Record<Persona, Answer>;
}

const admin: Record<Persona, Answer> = {
  visitor: "login",
  anonymous: "login",
  user: 403,
  business_owner: 403,
  listing_owner: 403,
  admin: 200,
};
const owner: Record<Persona, Answer> = {
  visitor: "business-login",
  anonymous: "business-login",
  user: 200,
  business_owner: 200,
  listing_owner: 200,
  admin: 200,
};
const listing: Record<Persona, Answer> = { ...owner, user: 403, business_owner: 403 };
/** A public route: the same answer for every persona. */
const everyone = (answer: Answer): Record<Persona, Answer> => ({
  visitor: answer,
  anonymous: answer,
  user: answer,
  business_owner: answer,
  listing_owner: answer,
  admin: answer,
});

/** A demo article every fresh site has (server/blog/demo.ts). */
const DEMO_ARTICLE = "demo-article-prepare-rv-for-winter-storage-checklist";

const page = (route: string, path: string, expect: Record<Persona, Answer>): MatrixEntry => ({
  route,
  method: "GET",
  path,
  expect,
});

export const MATRIX: MatrixEntry[] = [
  page("admin", "/admin", admin),
  {
    // Purging a page from the shared cache: admins only (to validation: no page given, 400). The
    // overview is an index route: its form posts to /admin?index (a POST to /admin is the layout's).
    route: "admin",
    method: "POST",
    path: "/admin?index",
    body: "intent=purge-cache",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/analytics", "/admin/analytics", admin),
  page("admin/analytics", "/admin/analytics?days=365&top=clicks", admin),
  // The screen's tables as CSV: admins only.
  page("admin/analytics.csv", "/admin/analytics.csv?table=states&days=30", admin),
  page("admin/claims", "/admin/claims", admin),
  page("admin/claims/:claimId", "/admin/claims/CLAIM", admin),
  {
    // Deciding a claim: only admins get past the guard (to validation: a rejection needs a
    // reason, 400; an approval needs none, and would change the fixture claim).
    route: "admin/claims/:claimId",
    method: "POST",
    path: "/admin/claims/CLAIM",
    body: "decision=reject",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/locations", "/admin/locations", admin),
  {
    // A bulk action: admins only (to validation: no listing ticked, 400).
    route: "admin/locations",
    method: "POST",
    path: "/admin/locations",
    body: "intent=bulk&action=hide",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/locations/export", "/admin/locations/export?format=geojson&q=no-such-listing", admin),
  page("admin/locations/import", "/admin/locations/import", admin),
  {
    // An upload that is not multipart: admins only (to validation, 400 as JSON).
    route: "admin/locations/import/upload",
    method: "POST",
    path: "/admin/locations/import/upload",
    body: "file=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 303 },
  },
  // An import nobody made: admins only (to 404).
  page("admin/locations/import/:importId", "/admin/locations/import/00000000-0000-4000-8000-000000000000", {
    ...admin,
    admin: 404,
  }),
  {
    // Applying an import: admins only (to validation: no intent, 400).
    route: "admin/locations/import/:importId",
    method: "POST",
    path: "/admin/locations/import/00000000-0000-4000-8000-000000000000",
    body: "intent=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/manage/:locationId/edit", "/admin/manage/LOCATION/edit", admin),
  {
    // The administrator's editor: admins only (to validation: no version, 400).
    route: "admin/manage/:locationId/edit",
    method: "POST",
    path: "/admin/manage/LOCATION/edit",
    body: "name=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/manage/:locationId/photos", "/admin/manage/LOCATION/photos", admin),
  {
    // A photo action from the admin console: admins only (to validation: no intent, 400).
    route: "admin/manage/:locationId/photos",
    method: "POST",
    path: "/admin/manage/LOCATION/photos",
    body: "intent=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/manage", "/admin/manage", admin),
  {
    // Deciding an owner's change from the queue: only admins get past the guard (to validation:
    // no listing named, 400).
    route: "admin/manage",
    method: "POST",
    path: "/admin/manage",
    body: "intent=approve",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/manage/:locationId", "/admin/manage/LOCATION", admin),
  {
    // Deciding a listing's change on its page: admins only (to validation: no reason to reject, 400).
    route: "admin/manage/:locationId",
    method: "POST",
    path: "/admin/manage/LOCATION",
    body: "intent=reject&locationId=x&submittedAt=2026-01-01T00%3A00%3A00.000Z",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // Resolving a report or a data problem from the queue: admins only (to validation: no item, 400).
    route: "admin/manage",
    method: "POST",
    path: "/admin/manage",
    body: "intent=resolve",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // Hiding, deleting, setting the tier: admins only (to validation: no action named, 400).
    route: "admin/manage/:locationId",
    method: "POST",
    path: "/admin/manage/LOCATION",
    body: "intent=visibility",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // Assigning an owner: admins only (to validation: no email, 400).
    route: "admin/manage/:locationId",
    method: "POST",
    path: "/admin/manage/LOCATION",
    body: "intent=owner-assign",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // Restoring a revision: admins only (to validation: no revision named, 400).
    route: "admin/manage/:locationId",
    method: "POST",
    path: "/admin/manage/LOCATION",
    body: "intent=restore",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/promotions", "/admin/promotions", admin),
  page("admin/promotions", "/admin/promotions?view=promotions", admin),
  {
    // Marking an invoice paid, voiding, ending, granting: admins only (to validation: no invoice, 400).
    route: "admin/promotions",
    method: "POST",
    path: "/admin/promotions",
    body: "intent=paid",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/users", "/admin/users", admin),
  page("admin/users", "/admin/users?role=admin&banned=no&q=e2e", admin),
  page("admin/users/:userId", "/admin/users/USER", admin),
  {
    // Banning an account: admins only (to validation: no reason given, 400; nobody is banned).
    route: "admin/users/:userId",
    method: "POST",
    path: "/admin/users/USER",
    body: "intent=ban",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // Changing a role: admins only (to validation: an unknown role, 400).
    route: "admin/users/:userId",
    method: "POST",
    path: "/admin/users/USER",
    body: "intent=role&role=superuser",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/blog", "/admin/blog", admin),
  page("admin/blog", "/admin/blog?status=published&q=winter&sort=title&dir=asc", admin),
  {
    // Delete or restore an article: admins only (to validation: no such intent, 400).
    route: "admin/blog",
    method: "POST",
    path: "/admin/blog",
    body: "intent=publish-everything&id=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/blog/new", "/admin/blog/new", admin),
  {
    // A new draft: admins only (to validation: no title, 400).
    route: "admin/blog/new",
    method: "POST",
    path: "/admin/blog/new",
    body: "title=",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  page("admin/blog/edit/:id", `/admin/blog/edit/${DEMO_ARTICLE}`, admin),
  {
    // Saving an article: admins only (to validation: no version, 400).
    route: "admin/blog/edit/:id",
    method: "POST",
    path: `/admin/blog/edit/${DEMO_ARTICLE}`,
    body: "intent=save&js=1&title=Hijacked",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // An article image: admins only (to validation: no file, 400).
    route: "admin/blog/edit/:id/image",
    method: "POST",
    path: `/admin/blog/edit/${DEMO_ARTICLE}/image`,
    body: "js=1&cover=1",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...admin, admin: 400 },
  },
  {
    // The editor's preview renders for admins only.
    route: "admin/blog/preview",
    method: "POST",
    path: "/admin/blog/preview",
    body: "body=%23%23+Hello",
    contentType: "application/x-www-form-urlencoded",
    expect: admin,
  },

  page("owner", "/owner", owner),
  page("owner/claim", "/owner/claim", owner),
  page("owner/claim/:locationId", "/owner/claim/LOCATION", owner),
  page("owner/claims", "/owner/claims", owner),
  // Evidence: the claimant (the `user` persona filed the fixture claim) and admins, nobody else.
  page("owner/claims/:claimId/evidence/:evidenceId", "/owner/claims/CLAIM/evidence/EVIDENCE", {
    ...owner,
    business_owner: 403,
    listing_owner: 403,
  }),
  page("owner/locations", "/owner/locations", owner),
  page("owner/locations/analytics", "/owner/locations/analytics", owner),
  // A listing's analytics: its owner and admins; another account is refused (403), on the screen and in the CSV.
  page("owner/locations/analytics", "/owner/locations/analytics?listing=LOCATION&days=7", listing),
  page("owner/locations/analytics.csv", "/owner/locations/analytics.csv?days=7", owner),
  page("owner/locations/analytics.csv", "/owner/locations/analytics.csv?listing=LOCATION&days=7", listing),
  page("owner/locations/:locationId/update", "/owner/locations/LOCATION/update", listing),
  {
    // Saving a listing: its owner and admins get past the listing rule, to validation (no version, 400).
    route: "owner/locations/:locationId/update",
    method: "POST",
    path: "/owner/locations/LOCATION/update",
    body: "name=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  page("owner/locations/:locationId/photos", "/owner/locations/LOCATION/photos", listing),
  {
    // A photo action: its owner and admins get past the listing rule, to validation (no intent, 400).
    route: "owner/locations/:locationId/photos",
    method: "POST",
    path: "/owner/locations/LOCATION/photos",
    body: "intent=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  // Availability (docs/product.md section 17): the listing's owner and admins.
  page("owner/locations/:locationId/availability", "/owner/locations/LOCATION/availability", listing),
  {
    // Past the listing rule to validation (no intent, 400).
    route: "owner/locations/:locationId/availability",
    method: "POST",
    path: "/owner/locations/LOCATION/availability",
    body: "version=1",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  {
    // An upload without files: its owner and admins are sent back to the manager with a message.
    route: "owner/locations/:locationId/photos/upload",
    method: "POST",
    path: "/owner/locations/LOCATION/photos/upload",
    body: '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--b--\r\n',
    contentType: "multipart/form-data; boundary=b",
    expect: { ...listing, listing_owner: 303, admin: 303 },
  },
  // Leads: each owner sees the leads sent to them only (a foreign `listing` filter is ignored).
  page("owner/leads", "/owner/leads", owner),
  page("owner/leads", "/owner/leads?listing=LOCATION&status=new", owner),
  // Reservation requests (docs/product.md section 17): a tab of the same screen.
  page("owner/leads", "/owner/leads?kind=reservation", owner),
  page("owner/leads.csv", "/owner/leads.csv", owner),
  {
    // Another owner's lead is answered as if it did not exist; its owner and admins act on it.
    route: "owner/leads",
    method: "POST",
    path: "/owner/leads",
    body: "intent=status&leadId=LEAD&status=new",
    contentType: "application/x-www-form-urlencoded",
    expect: {
      ...listing,
      user: 404,
      business_owner: 404,
      listing_owner: 303,
      admin: 303,
    },
  },
  {
    // Accepting or declining a reservation request: another owner's lead does not exist for them;
    // its owner and admins get past the guard (the fixture lead is a question: refused with a
    // message on the screen, a 303 back, and nothing changes).
    route: "owner/leads",
    method: "POST",
    path: "/owner/leads",
    body: "intent=accept&leadId=LEAD",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, user: 404, business_owner: 404, listing_owner: 303, admin: 303 },
  },
  {
    route: "owner/leads",
    method: "POST",
    path: "/owner/leads",
    body: "intent=decline&leadId=LEAD&note=Full",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, user: 404, business_owner: 404, listing_owner: 303, admin: 303 },
  },
  // Reviews (docs/product.md section 16): every owner sees the reviews of their own listings; only
  // the listing's owner answers, confirms or reports one (anyone else: as if it did not exist).
  page("owner/reviews", "/owner/reviews", owner),
  page("owner/reviews", "/owner/reviews?page=99999", owner),
  {
    route: "owner/reviews",
    method: "POST",
    path: "/owner/reviews",
    body: "intent=reply&reviewId=REVIEW&body=Thanks%20for%20storing%20with%20us",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...owner, user: 404, business_owner: 404, listing_owner: 303, admin: 404 },
  },
  {
    route: "owner/reviews",
    method: "POST",
    path: "/owner/reviews",
    body: "intent=confirm-stay&reviewId=REVIEW",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...owner, user: 404, business_owner: 404, listing_owner: 303, admin: 404 },
  },
  {
    // An empty reply is the form's error (400), after the guard.
    route: "owner/reviews",
    method: "POST",
    path: "/owner/reviews",
    body: "intent=reply&reviewId=REVIEW&body=",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...owner, user: 400, business_owner: 400, listing_owner: 400, admin: 400 },
  },
  // The review form: any signed-in account opens it; writing needs a confirmed email (the fixtures are).
  {
    route: "location/:slug/review",
    method: "GET",
    path: "/location/OWNED_SLUG/review",
    expect: { visitor: "login", anonymous: "login", user: 200, business_owner: 200, listing_owner: 200, admin: 200 },
  },
  {
    // A form without its fields: the guard, then validation (400) for everyone signed in.
    route: "location/:slug/review",
    method: "POST",
    path: "/location/OWNED_SLUG/review",
    body: "intent=save&stars=9",
    contentType: "application/x-www-form-urlencoded",
    expect: { visitor: "login", anonymous: "login", user: 400, business_owner: 400, listing_owner: 400, admin: 400 },
  },
  {
    // "Helpful" needs an account; the author cannot vote for their own review (403).
    route: "location/:slug",
    method: "POST",
    path: "/location/OWNED_SLUG",
    body: "intent=helpful&reviewId=REVIEW",
    contentType: "application/x-www-form-urlencoded",
    expect: { visitor: "login", anonymous: "login", user: 403, business_owner: 200, listing_owner: 200, admin: 200 },
  },
  // The waitlist (docs/product.md section 17): open to everyone, signed in or not; the links of its
  // emails carry their own signed token, so a wrong one is a page saying so, never someone's entry.
  page("location/:slug/waitlist", "/location/OWNED_SLUG/waitlist", everyone(200)),
  {
    route: "location/:slug/waitlist",
    method: "POST",
    path: "/location/OWNED_SLUG/waitlist",
    body: "size=99x99&email=matrix%40example.com&rvLengthFeet=30",
    contentType: "application/x-www-form-urlencoded",
    expect: everyone(400),
  },
  page("waitlist/confirm", "/waitlist/confirm?token=not-a-token", everyone(200)),
  {
    route: "waitlist/confirm",
    method: "POST",
    path: "/waitlist/confirm",
    body: "token=not-a-token",
    contentType: "application/x-www-form-urlencoded",
    expect: everyone(200),
  },
  page("waitlist/leave", "/waitlist/leave?token=not-a-token", everyone(200)),
  {
    route: "waitlist/leave",
    method: "POST",
    path: "/waitlist/leave",
    body: "token=not-a-token",
    contentType: "application/x-www-form-urlencoded",
    expect: everyone(200),
  },
  page("owner/promote", "/owner/promote", owner),
  // Plans for one listing: its owner and admins; anyone else is refused.
  page("owner/promote", "/owner/promote?listing=LOCATION", listing),
  {
    // Buying for a listing: its owner and admins get past the listing rule to validation (no such
    // plan, 400); nobody else may buy for it (403).
    route: "owner/promote",
    method: "POST",
    path: "/owner/promote",
    body: "intent=request&locationId=LOCATION&tier=Gold&interval=month&key=matrix-key",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  {
    // Cancelling or changing a listing's promotion: the same rule, named by the promotion.
    route: "owner/promote",
    method: "POST",
    path: "/owner/promote",
    body: "intent=change&promotionId=PROMOTION&tier=Gold&interval=month",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  // Checkout without a promotion sends owners to choose a plan first.
  page("owner/checkout", "/owner/checkout", {
    ...owner,
    user: "redirect /owner/promote",
    business_owner: "redirect /owner/promote",
    listing_owner: "redirect /owner/promote",
    admin: "redirect /owner/promote",
  }),
  page("owner/checkout", "/owner/checkout?promotion=PROMOTION", listing),
  {
    // Paying for a promotion: its listing's owner and admins reach validation (no intent, 400).
    route: "owner/checkout",
    method: "POST",
    path: "/owner/checkout?promotion=PROMOTION",
    body: "intent=x",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 400, admin: 400 },
  },
  page("owner/checkout/success", "/owner/checkout/success?promotion=PROMOTION", listing),
  // An invoice: its listing's owner and admins only.
  page("owner/invoices/:invoiceId", "/owner/invoices/INVOICE", listing),
  // Across a transfer (MOVED_LISTING went from listing_owner to business_owner): billing and leads
  // belong to the account that bought or received them, the listing to its new owner.
  page("owner/promote", "/owner/promote?listing=MOVED_LISTING", {
    ...listing,
    business_owner: 200,
    listing_owner: 403,
  }),
  // The old owner keeps the receipt; the new owner never sees it.
  page("owner/invoices/:invoiceId", "/owner/invoices/PRIOR_BILL", listing),
  page("owner/checkout", "/owner/checkout?promotion=PRIOR_PROMO", { ...listing, listing_owner: 403 }),
  {
    // The old owner's billing portal, plan and cancellation: never the new owner's to open or change.
    route: "owner/promote",
    method: "POST",
    path: "/owner/promote",
    body: "intent=portal&promotionId=PRIOR_PROMO",
    contentType: "application/x-www-form-urlencoded",
    // The admin gets past every rule to "card payments are not configured" (the site runs on invoices).
    expect: { ...listing, listing_owner: 403, admin: 404 },
  },
  {
    route: "owner/promote",
    method: "POST",
    path: "/owner/promote",
    body: "intent=change&promotionId=PRIOR_PROMO&tier=Pro&interval=year",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 403, admin: 409 },
  },
  {
    route: "owner/promote",
    method: "POST",
    path: "/owner/promote",
    body: "intent=cancel&promotionId=PRIOR_PROMO",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, listing_owner: 403, admin: 409 },
  },
  {
    // The lead stays with the old owner it was sent to; the new owner is answered as if it did not exist.
    route: "owner/leads",
    method: "POST",
    path: "/owner/leads",
    body: "intent=status&leadId=PRIOR_ASK&status=new",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...listing, user: 404, business_owner: 404, listing_owner: 303, admin: 303 },
  },
  // A claim of the moved listing: the new owner already owns it; anyone else may ask for it.
  page("owner/claim/:locationId", "/owner/claim/MOVED_LISTING", owner),
  page("owner/settings", "/owner/settings", owner),
  {
    // Any settings form: signed-in people get past the guard to validation (no name given, 400).
    route: "owner/settings",
    method: "POST",
    path: "/owner/settings",
    body: "intent=name",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...owner, user: 400, business_owner: 400, listing_owner: 400, admin: 400 },
  },
  {
    // "Send the link again": fixture accounts are confirmed, so signed-in people get 303 back with a toast.
    route: "owner/verify-email/resend",
    method: "POST",
    path: "/owner/verify-email/resend",
    body: "returnTo=%2Fowner",
    contentType: "application/x-www-form-urlencoded",
    expect: { ...owner, user: 303, business_owner: 303, listing_owner: 303, admin: 303 },
  },
  // The owner dashboard moved to /owner: its old address sends signed-in people there.
  page("business/dashboard", "/business/dashboard", {
    ...owner,
    user: "redirect /owner",
    business_owner: "redirect /owner",
    listing_owner: "redirect /owner",
    admin: "redirect /owner",
  }),

  {
    route: "api/analytics/events",
    method: "POST",
    path: "/api/analytics/events",
    body: "[]",
    contentType: "application/json",
    // Any session (anonymous or signed in) gets past the session check to validation, which refuses
    // an empty batch (400); without a session, 401. Accepted batches: tests/e2e/analytics.test.ts.
    expect: { visitor: 401, anonymous: 400, user: 400, business_owner: 400, listing_owner: 400, admin: 400 },
  },
  {
    // Stripe's webhook is signed, not signed in: without Stripe configured it does not exist for anyone.
    route: "api/stripe/webhook",
    method: "POST",
    path: "/api/stripe/webhook",
    body: "{}",
    contentType: "application/json",
    expect: { visitor: 404, anonymous: 404, user: 404, business_owner: 404, listing_owner: 404, admin: 404 },
  },
  {
    route: "api/metrics/locations/:locationId",
    method: "GET",
    path: "/api/metrics/locations/LOCATION",
    expect: { visitor: 401, anonymous: 401, user: 403, business_owner: 403, listing_owner: 200, admin: 200 },
  },
  {
    // Saving is for any session, anonymous too, and only ever for the session's own person; without
    // one, 401. Removing a facility nobody saved changes nothing. Saves: tests/e2e/compare.test.ts.
    route: "api/saved",
    method: "POST",
    path: "/api/saved",
    body: "placeId=LOCATION&saved=false",
    contentType: "application/x-www-form-urlencoded",
    expect: { visitor: 401, anonymous: 200, user: 200, business_owner: 200, listing_owner: 200, admin: 200 },
  },
  {
    // Who is looking, for the header of a page a shared cache keeps: anyone may ask, and the
    // answer is only ever about the asker's own session (tests/e2e/shared-cache.test.ts).
    route: "api/session",
    method: "GET",
    path: "/api/session",
    expect: { visitor: 200, anonymous: 200, user: 200, business_owner: 200, listing_owner: 200, admin: 200 },
  },
  {
    route: "api/auth/sign-in/anonymous",
    method: "POST",
    path: "/api/auth/sign-in/anonymous",
    body: "{}",
    contentType: "application/json",
    // A visitor gets a session; an anonymous one cannot start another; a signed-in person keeps theirs.
    expect: { visitor: 200, anonymous: 400, user: 400, business_owner: 400, listing_owner: 400, admin: 400 },
  },
  {
    route: "api/auth/sign-out",
    method: "POST",
    path: "/api/auth/sign-out",
    body: "{}",
    contentType: "application/json",
    expect: { visitor: 200, anonymous: 200, user: 200, business_owner: 200, listing_owner: 200, admin: 200 },
  },
];
