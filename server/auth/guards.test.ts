import { describe, expect, it } from "vitest";
import { loginPathFor } from "./guards";

describe("login pages for guarded screens", () => {
  it("sends owner screens to the business login and the rest to /login", () => {
    expect(loginPathFor(new URL("http://x/owner/claim/abc?y=2"))).toBe(
      "/business/login?redirectTo=%2Fowner%2Fclaim%2Fabc%3Fy%3D2",
    );
    expect(loginPathFor(new URL("http://x/owner"))).toBe("/business/login?redirectTo=%2Fowner");
    expect(loginPathFor(new URL("http://x/business/dashboard"))).toBe(
      "/business/login?redirectTo=%2Fbusiness%2Fdashboard",
    );
    expect(loginPathFor(new URL("http://x/ownership"))).toBe("/login?redirectTo=%2Fownership");
    expect(loginPathFor(new URL("http://x/admin"))).toBe("/login?redirectTo=%2Fadmin");
  });
});
