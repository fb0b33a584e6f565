import { describe, expect, it } from "vitest";
import { onFirstUse } from "./s3-settings";

describe("onFirstUse", () => {
  it("loads once however often and however concurrently it is asked", async () => {
    let loads = 0;
    const load = onFirstUse(async () => ++loads);
    expect(await Promise.all([load(), load(), load()])).toEqual([1, 1, 1]);
    expect(await load()).toBe(1);
    expect(loads).toBe(1);
  });

  it("tries again after a failed load", async () => {
    let calls = 0;
    const load = onFirstUse(async () => {
      calls++;
      if (calls === 1) throw new Error("SDK missing");
      return "driver";
    });
    await expect(load()).rejects.toThrow("SDK missing");
    expect(await load()).toBe("driver");
    expect(calls).toBe(2);
  });
});
