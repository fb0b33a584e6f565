import { describe, expect, it } from "vitest";
import { urlForLog } from "./logger";

describe("urlForLog", () => {
  it("hides token values and keeps the rest", () => {
    expect(urlForLog("/reset-password?token=abc123")).toBe("/reset-password?token=[redacted]");
    expect(urlForLog("/verify-email?x=1&token=ey.J.x&y=2")).toBe("/verify-email?x=1&token=[redacted]&y=2");
    expect(urlForLog("/a?resetToken=s#frag")).toBe("/a?resetToken=[redacted]#frag");
    expect(urlForLog("/rv-storage/austin?page=2")).toBe("/rv-storage/austin?page=2");
    expect(urlForLog("/token")).toBe("/token");
  });
});
