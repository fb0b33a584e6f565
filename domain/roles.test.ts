import { describe, expect, it } from "vitest";
import { isRole, roleFlags } from "./roles";

describe("role flags (docs/product.md section 4)", () => {
  it("gives user and business_owner the owner flag, admin both", () => {
    expect(roleFlags("user")).toEqual({ isAdmin: false, isOwner: true });
    expect(roleFlags("business_owner")).toEqual({ isAdmin: false, isOwner: true });
    expect(roleFlags("admin")).toEqual({ isAdmin: true, isOwner: true });
  });

  it("turns everything off for a missing, unknown or unreadable role", () => {
    for (const role of [undefined, null, "", "superuser", "Admin", 1, {}]) {
      expect(roleFlags(role)).toEqual({ isAdmin: false, isOwner: false });
      expect(isRole(role)).toBe(false);
    }
  });
});
