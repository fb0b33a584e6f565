import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { describeError } from "./error-display";

describe("the error page's words", () => {
  it("shows a route error's own message with its status", () => {
    expect(describeError(new ErrorResponse(404, "Not Found", "Location not found"))).toEqual({
      status: 404,
      title: "Page not found",
      text: "Location not found",
    });
    expect(describeError(new ErrorResponse(409, "", "Already claimed"))).toMatchObject({
      status: 409,
      text: "Already claimed",
    });
  });

  it("falls back to the status's text without a message", () => {
    expect(describeError(new ErrorResponse(403, "", ""))).toMatchObject({ title: "Not allowed" });
  });

  it("never shows an unexpected error's message", () => {
    const shown = describeError(new Error("password=hunter2"));
    expect(shown.status).toBe(500);
    expect(JSON.stringify(shown)).not.toContain("hunter2");
    expect(shown.text).toMatch(/unexpected error/i);
  });
});
