import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Every screen of SPEC.md section 2, one line each. Screens that later work builds share the
 * placeholder module under their own route id, so each URL exists and answers 200 today.
 */
const placeholder = (path: string, id: string) => route(path, "routes/placeholder.tsx", { id });

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

  placeholder("blog", "blog"),
  placeholder("blog/:slug", "blog-post"),

  placeholder("login", "login"),
  placeholder("signup", "signup"),
  placeholder("business/login", "business-login"),
  placeholder("business/dashboard", "business-dashboard"),

  placeholder("admin", "admin"),
  placeholder("admin/analytics", "admin-analytics"),
  placeholder("admin/claims", "admin-claims"),
  placeholder("admin/locations", "admin-locations"),
  placeholder("admin/manage", "admin-manage"),
  placeholder("admin/manage/:locationId", "admin-manage-location"),
  placeholder("admin/users", "admin-users"),
  placeholder("admin/blog", "admin-blog"),
  placeholder("admin/blog/new", "admin-blog-new"),
  placeholder("admin/blog/edit/:id", "admin-blog-edit"),

  placeholder("owner", "owner"),
  placeholder("owner/claim", "owner-claim"),
  placeholder("owner/claim/:locationId", "owner-claim-location"),
  placeholder("owner/claims", "owner-claims"),
  placeholder("owner/locations", "owner-locations"),
  placeholder("owner/locations/analytics", "owner-locations-analytics"),
  placeholder("owner/locations/:locationId/update", "owner-location-update"),
  placeholder("owner/promote", "owner-promote"),
  placeholder("owner/checkout", "owner-checkout"),
  placeholder("owner/checkout/success", "owner-checkout-success"),
  placeholder("owner/settings", "owner-settings"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
