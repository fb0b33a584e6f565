import { describe, expect, it } from "vitest";
import { photoRevisionState } from "./admin-pages";

/**
 * docs/product.md section 10: a photo change in the admin history says what the listing shows of
 * it today. It used to read "The listing shows the values from before this change" (the text for a
 * field restore that would change nothing) while the facility page showed the new order.
 */
describe("photoRevisionState", () => {
  const change = { before: { photos: ["/a", "/b"] }, after: { photos: ["/b", "/a"] } };

  it("is 'after' when the listing shows the change's photos", () => {
    expect(photoRevisionState(["/b", "/a"], change)).toBe("after");
  });

  it("is 'before' when a later change put the earlier photos back", () => {
    expect(photoRevisionState(["/a", "/b"], change)).toBe("before");
  });

  it("is 'later' when later changes made another list, order included", () => {
    expect(photoRevisionState(["/b"], change)).toBe("later");
    expect(photoRevisionState(["/b", "/a", "/c"], change)).toBe("later");
    expect(photoRevisionState([], { before: { photos: [] }, after: { photos: ["/x"] } })).toBe("before");
  });
});
