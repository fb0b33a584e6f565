/** Screens named by docs/product.md whose content later work builds; each route id gets its own title. */
const SCREENS: Record<string, string> = {
  blog: "Articles",
  "blog-post": "Article",
  login: "Sign in",
  signup: "Create an account",
  "business-login": "Business owner sign in",
  admin: "Admin Console",
  "admin-analytics": "Platform analytics",
  "admin-claims": "Listing claims",
  "admin-locations": "Locations",
  "admin-manage": "Manage listings",
  "admin-manage-location": "Manage listing",
  "admin-users": "Users",
  "admin-blog": "Blog posts",
  "admin-blog-new": "New blog post",
  "admin-blog-edit": "Edit blog post",
  owner: "Owner Console",
  "owner-claim": "Claim a listing",
  "owner-claim-location": "Claim this business",
  "owner-claims": "Your claims",
  "owner-locations": "Your listings",
  "owner-locations-analytics": "Listing analytics",
  "owner-location-update": "Update listing",
  "owner-promote": "Promote your listing",
  "owner-checkout": "Checkout",
  "owner-checkout-success": "Payment received",
  "owner-invoice": "Invoice",
  "admin-promotions": "Promotions",
  "owner-settings": "Settings",
};

/** The title of a screen by its route id. */
export function screenName(routeId: string): string {
  return SCREENS[routeId] ?? "Coming soon";
}
