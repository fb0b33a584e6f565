import type { UIMatch } from "react-router";
import { describe, expect, it } from "vitest";
import { currentItem, type ConsoleNavItem } from "./console-shell";
import { breadcrumbsOf } from "./handle";

const Icon = () => null;
const items: ConsoleNavItem[] = [
  { label: "Dashboard", to: "/owner", Icon },
  { label: "Claim a listing", to: "/owner/claim", Icon },
  { label: "My claims", to: "/owner/claims", Icon },
  { label: "Listings", to: "/owner/locations", Icon },
  { label: "Analytics", to: "/owner/locations/analytics", Icon },
  { label: "Promote", to: "/owner/promote", Icon, also: ["/owner/checkout"] },
];

describe("the current console menu item", () => {
  it("is the item with the longest path containing the page, and only that one", () => {
    const at = (path: string) => currentItem(items, path)?.label;
    expect(at("/owner")).toBe("Dashboard");
    expect(at("/owner/claim/abc")).toBe("Claim a listing");
    expect(at("/owner/claims")).toBe("My claims");
    expect(at("/owner/locations/analytics")).toBe("Analytics");
    expect(at("/owner/locations/xyz/update")).toBe("Listings");
    expect(at("/owner/checkout/success")).toBe("Promote");
    expect(at("/admin")).toBeUndefined();
  });
});

describe("breadcrumbs", () => {
  const match = (id: string, pathname: string, handle: unknown, data: unknown = null) =>
    ({ id, pathname, params: {}, data, loaderData: data, handle }) as UIMatch<unknown, unknown>;

  it("come from handle.breadcrumb, a string or a function of the match, skipping routes without one", () => {
    const crumbs = breadcrumbsOf([
      match("root", "/", undefined),
      match("owner-console", "/owner/", { breadcrumb: "Owner console" }),
      match(
        "owner-claim-location",
        "/owner/claim/abc",
        {
          breadcrumb: (m: UIMatch) => `Claim ${(m.data as { name: string }).name}`,
        },
        { name: "Brooks' RV Storage" },
      ),
    ]);
    expect(crumbs).toEqual([
      { label: "Owner console", to: "/owner" },
      { label: "Claim Brooks' RV Storage", to: "/owner/claim/abc" },
    ]);
  });
});
