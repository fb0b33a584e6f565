import { describe, expect, it } from "vitest";
import { INGEST_CAPS, capKind, capOf, hourOf, ipBudgetKey, storedPath, storedReferrer } from "./caps";

describe("ipBudgetKey", () => {
  it("keys IPv6 by its /64 and IPv4 by the address, mapped or not, and stores no address", () => {
    const a = ipBudgetKey("2001:db8:1:2::1");
    expect(ipBudgetKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(a);
    expect(ipBudgetKey("2001:0DB8:0001:0002:0:0:0:7")).toBe(a);
    expect(ipBudgetKey("2001:db8:1:3::1")).not.toBe(a);
    expect(ipBudgetKey("::ffff:203.0.113.9")).toBe(ipBudgetKey("203.0.113.9"));
    expect(ipBudgetKey("::ffff:cb00:7109")).toBe(ipBudgetKey("203.0.113.9"));
    expect(ipBudgetKey("203.0.113.9")).not.toBe(ipBudgetKey("203.0.113.10"));
    expect(ipBudgetKey("::1")).not.toBe(ipBudgetKey("::2:0:0:0:1"));
    expect(ipBudgetKey("fe80::1:2:3:4:5:6")).toBe(ipBudgetKey("fe80:0:1:2::"));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toContain("2001");
    expect(ipBudgetKey("unknown")).toBe(ipBudgetKey("unknown"));
  });
});

describe("stored urls", () => {
  const site = "https://rv.example";
  it("keeps a page's path only, without query string or fragment, capped", () => {
    expect(storedPath(`${site}/location/x?email=a%40b.c&t=1#photos`, site)).toBe("/location/x");
    expect(storedPath("/rv-storage/austin-tx?size=40", site)).toBe("/rv-storage/austin-tx");
    expect(storedPath(`${site}/${"a".repeat(3000)}`, site)).toHaveLength(INGEST_CAPS.storedUrlChars);
    expect(storedPath("http://[", site)).toBe("");
  });
  it("keeps a referrer's origin and path only", () => {
    expect(storedReferrer("https://www.google.com/search?q=private#x")).toBe("https://www.google.com/search");
    expect(storedReferrer("http://localhost:3000/rv-storage/austin-tx?size=40")).toBe(
      "http://localhost:3000/rv-storage/austin-tx",
    );
    expect(storedReferrer("android-app://com.google.android.gm/path?x=1")).toBe(
      "android-app://com.google.android.gm/path",
    );
    expect(storedReferrer("not a url")).toBeNull();
    expect(storedReferrer(null)).toBeNull();
  });
});

describe("cap kinds and windows", () => {
  it("caps each click type apart, and counts in UTC hours", () => {
    expect(capKind("click", "phone")).toBe("click:phone");
    expect(capKind("page_view", null)).toBe("page_view");
    expect(capOf("click:phone")).toBe(INGEST_CAPS.clicksPerTypePerHour);
    expect(capOf("list_view")).toBe(INGEST_CAPS.listViewsPerHour);
    expect(capOf("page_view")).toBe(INGEST_CAPS.pageViewsPerHour);
    expect(hourOf(new Date("2025-06-30T12:59:59.999Z"))).toBe("2025-06-30T12:00:00.000Z");
  });
});
