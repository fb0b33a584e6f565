import { afterEach, beforeEach, vi, type MockInstance } from "vitest";

// An unexpected console.error fails the test that logged it (a habit of the Epic Stack):
// errors that matter must be asserted, not scrolled past.
let errorSpy: MockInstance<typeof console.error>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0) {
    throw new Error(
      `console.error was called during the test:\n${calls.map((c) => c.map((part: unknown) => String(part)).join(" ")).join("\n")}`,
    );
  }
});
