import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Every screen of docs/product.md section 2, one line each. Screens that later work builds share a
 * placeholder module under their own route id, so each URL exists today; console screens share
 * guarded ones (admin, owner, listing owner), so their access rules hold before their content.
 */
const placeholder = (path: string, id: string) => route(path, "routes/placeholder.tsx", { id });
/** Console screens not built yet, already behind their server-side guard. */
const adminScreen = (path: string, id: string) => route(path, "routes/admin-placeholder.tsx", { id });
const ownerScreen = (path: string, id: string) => route(path, "routes/owner-placeholder.tsx", { id });
const listingScreen = (path: string, id: string) => route(path, "routes/owner-listing-placeholder.tsx", { id });

export default [
  index("routes/home.tsx"),
  route("rv-storage/:slug?", "routes/rv-storage.tsx"),
  route("location/:slug", "routes/location.tsx"),
  route("about", "routes/about.tsx"),
  route("place-images/:placeId/:file", "routes/place-images.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap-index.ts"),
  route("sitemaps/:name", "routes/sitemap-child.ts"),

  route("api/places/suggest", "routes/api.places-suggest.ts"),
  route("api/places/reverse", "routes/api.places-reverse.ts"),
  route("api/analytics/events", "routes/api.analytics-events.ts"),
  route("api/metrics/locations/:locationId", "routes/api.metrics-location.ts"),

  placeholder("blog", "blog"),
  placeholder("blog/:slug", "blog-post"),

  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("logout", "routes/logout.ts"),
  route("business/login", "routes/business-login.tsx"),
  route("business/dashboard", "routes/business-dashboard.tsx"),

  adminScreen("admin", "admin"),
  adminScreen("admin/analytics", "admin-analytics"),
  adminScreen("admin/claims", "admin-claims"),
  adminScreen("admin/locations", "admin-locations"),
  adminScreen("admin/manage", "admin-manage"),
  adminScreen("admin/manage/:locationId", "admin-manage-location"),
  adminScreen("admin/users", "admin-users"),
  adminScreen("admin/blog", "admin-blog"),
  adminScreen("admin/blog/new", "admin-blog-new"),
  adminScreen("admin/blog/edit/:id", "admin-blog-edit"),

  ownerScreen("owner", "owner"),
  ownerScreen("owner/claim", "owner-claim"),
  ownerScreen("owner/claim/:locationId", "owner-claim-location"),
  ownerScreen("owner/claims", "owner-claims"),
  ownerScreen("owner/locations", "owner-locations"),
  ownerScreen("owner/locations/analytics", "owner-locations-analytics"),
  listingScreen("owner/locations/:locationId/update", "owner-location-update"),
  ownerScreen("owner/promote", "owner-promote"),
  ownerScreen("owner/checkout", "owner-checkout"),
  ownerScreen("owner/checkout/success", "owner-checkout-success"),
  ownerScreen("owner/settings", "owner-settings"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
