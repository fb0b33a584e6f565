import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Every screen of docs/product.md section 2, one line each.
 *
 * The consoles are two layout routes, /admin and /owner, whose middleware runs the area's guard
 * once before any child loader or action and puts the viewer in the context (ADR 009): a screen
 * belongs to an area by being listed inside it, and cannot opt out. Paths inside are relative.
 */

export default [
  index("routes/home.tsx"),
  route("rv-storage/:slug?", "routes/rv-storage.tsx"),
  route("location/:slug", "routes/location.tsx"),
  route("location/:slug/review", "routes/location-review.tsx"),
  route("location/:slug/waitlist", "routes/location-waitlist.tsx"),
  route("saved", "routes/saved.tsx"),
  route("compare", "routes/compare.tsx"),
  route("about", "routes/about.tsx"),
  route("place-images/:placeId/:file", "routes/place-images.ts"),
  route("map/us-states.json", "routes/map-us-states.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap-index.ts"),
  route("sitemaps/:name", "routes/sitemap-child.ts"),

  route("api/places/suggest", "routes/api.places-suggest.ts"),
  route("api/places/reverse", "routes/api.places-reverse.ts"),
  route("api/analytics/events", "routes/api.analytics-events.ts"),
  route("api/metrics/locations/:locationId", "routes/api.metrics-location.ts"),
  route("api/stripe/webhook", "routes/api.stripe-webhook.ts"),
  route("api/saved", "routes/api.saved.ts"),
  route("api/session", "routes/api.session.ts"),

  route("leads/withdraw", "routes/leads-withdraw.tsx"),
  route("availability/confirm", "routes/availability-confirm.tsx"),
  route("waitlist/confirm", "routes/waitlist-confirm.tsx"),
  route("waitlist/leave", "routes/waitlist-leave.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/rss.xml", "routes/blog-rss.ts"),
  route("blog/:slug", "routes/blog-post.tsx"),
  route("blog-images/:imageId/:file", "routes/blog-images.ts"),

  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("logout", "routes/logout.ts"),
  route("business/login", "routes/business-login.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("business/dashboard", "routes/business-dashboard.tsx"),

  route("admin", "routes/admin/layout.tsx", { id: "admin-console" }, [
    index("routes/admin/index.tsx", { id: "admin" }),
    route("analytics", "routes/admin/analytics.tsx", { id: "admin-analytics" }),
    route("analytics.csv", "routes/admin/analytics-csv.ts", { id: "admin-analytics-csv" }),
    route("claims", "routes/admin/claims.tsx", { id: "admin-claims" }),
    route("claims/:claimId", "routes/admin/claim.tsx", { id: "admin-claim" }),
    route("locations", "routes/admin/locations.tsx", { id: "admin-locations" }),
    route("locations/export", "routes/admin/locations-export.ts", { id: "admin-locations-export" }),
    route("locations/import", "routes/admin/locations-import.tsx", { id: "admin-locations-import" }),
    route("locations/import/upload", "routes/admin/locations-import-upload.ts", {
      id: "admin-locations-import-upload",
    }),
    route("locations/import/:importId", "routes/admin/locations-import-status.tsx", {
      id: "admin-locations-import-status",
    }),
    route("manage", "routes/admin/manage.tsx", { id: "admin-manage" }),
    route("manage/:locationId", "routes/admin/manage-location.tsx", { id: "admin-manage-location" }),
    route("manage/:locationId/edit", "routes/admin/manage-location-edit.tsx", { id: "admin-manage-location-edit" }),
    route("manage/:locationId/photos", "routes/admin/manage-location-photos.tsx", {
      id: "admin-manage-location-photos",
    }),
    route("promotions", "routes/admin/promotions.tsx", { id: "admin-promotions" }),
    route("users", "routes/admin/users.tsx", { id: "admin-users" }),
    route("users/:userId", "routes/admin/user.tsx", { id: "admin-user" }),
    route("blog", "routes/admin/blog.tsx", { id: "admin-blog" }),
    route("blog/new", "routes/admin/blog-new.tsx", { id: "admin-blog-new" }),
    route("blog/edit/:id", "routes/admin/blog-edit.tsx", { id: "admin-blog-edit" }),
    route("blog/edit/:id/image", "routes/admin/blog-image.ts", { id: "admin-blog-image" }),
    route("blog/preview", "routes/admin/blog-preview.ts", { id: "admin-blog-preview" }),
  ]),

  route("owner", "routes/owner/layout.tsx", { id: "owner-console" }, [
    index("routes/owner/index.tsx", { id: "owner" }),
    route("claim", "routes/owner/claim.tsx", { id: "owner-claim" }),
    route("claim/:locationId", "routes/owner/claim-location.tsx", { id: "owner-claim-location" }),
    route("claims", "routes/owner/claims.tsx", { id: "owner-claims" }),
    route("claims/:claimId/evidence/:evidenceId", "routes/owner/claim-evidence.ts", { id: "owner-claim-evidence" }),
    route("locations", "routes/owner/locations.tsx", { id: "owner-locations" }),
    route("locations/analytics", "routes/owner/analytics.tsx", { id: "owner-locations-analytics" }),
    route("locations/analytics.csv", "routes/owner/analytics-csv.ts", { id: "owner-locations-analytics-csv" }),
    route("locations/:locationId/update", "routes/owner/location-update.tsx", { id: "owner-location-update" }),
    route("locations/:locationId/availability", "routes/owner/location-availability.tsx", {
      id: "owner-location-availability",
    }),
    route("locations/:locationId/photos", "routes/owner/location-photos.tsx", { id: "owner-location-photos" }),
    route("locations/:locationId/photos/upload", "routes/owner/location-photos-upload.ts", {
      id: "owner-location-photos-upload",
    }),
    route("leads", "routes/owner/leads.tsx", { id: "owner-leads" }),
    route("reviews", "routes/owner/reviews.tsx", { id: "owner-reviews" }),
    route("leads.csv", "routes/owner/leads-csv.ts", { id: "owner-leads-csv" }),
    route("promote", "routes/owner/promote.tsx", { id: "owner-promote" }),
    route("checkout", "routes/owner/checkout.tsx", { id: "owner-checkout" }),
    route("checkout/success", "routes/owner/checkout-success.tsx", { id: "owner-checkout-success" }),
    route("invoices/:invoiceId", "routes/owner/invoice.tsx", { id: "owner-invoice" }),
    route("settings", "routes/owner/settings.tsx", { id: "owner-settings" }),
    route("verify-email/resend", "routes/owner/verify-email-resend.ts", { id: "owner-verify-email-resend" }),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
