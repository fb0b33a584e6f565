import { describe, expect, it } from "vitest";
import { ACCOUNT_COOKIE, accountMarkerCookie, hasAccountMarker, mendedAccountMarker } from "./account-marker";

const request = (cookie?: string) => new Request("http://localhost/", cookie ? { headers: { cookie } } : {});

describe("the account marker", () => {
  it("is set for a signed-in browser and cleared for any other, holding nothing secret", () => {
    expect(accountMarkerCookie(true)).toMatch(
      new RegExp(`^${ACCOUNT_COOKIE}=1; Max-Age=\\d+; Path=/; SameSite=Lax; HttpOnly`),
    );
    expect(accountMarkerCookie(false)).toMatch(new RegExp(`^${ACCOUNT_COOKIE}=; Max-Age=0; Path=/`));
  });

  it("is found by name only", () => {
    expect(hasAccountMarker(null)).toBe(false);
    expect(hasAccountMarker("rvs.session_token=a; rvs_account=1")).toBe(true);
    expect(hasAccountMarker("x=rvs_account; rvs_accounts=1")).toBe(false);
  });

  it("is mended when it says otherwise than the session, and left alone when it agrees", () => {
    expect(mendedAccountMarker(request(), false)).toBeUndefined();
    expect(mendedAccountMarker(request("rvs_account=1"), true)).toBeUndefined();
    expect(mendedAccountMarker(request(), true)).toBe(accountMarkerCookie(true));
    expect(mendedAccountMarker(request("rvs_account=1"), false)).toBe(accountMarkerCookie(false));
  });
});
