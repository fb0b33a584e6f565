import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error fails the test that logged it (a habit of the Epic Stack):
// errors that matter must be asserted, not scrolled past.
let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0) {
    throw new Error(`console.error was called during the test:\n${calls.map((c) => c.map(String).join(" ")).join("\n")}`);
  }
});
