import { describe, expect, it } from "vitest";
import { originOf, summarizeProfile } from "./cpu-profile";

describe("CPU profile summary", () => {
  it("names a script's package, scoped or not, the build or Node", () => {
    expect(originOf("file:///w/node_modules/react-dom/cjs/server.js")).toBe("react-dom");
    expect(originOf("file:///w/node_modules/.pnpm/x/node_modules/@electric-sql/pglite/dist/index.js")).toBe(
      "@electric-sql/pglite",
    );
    expect(originOf("file:///w/build/server/index.js")).toBe("build/server/index.js");
    expect(originOf("node:internal/http")).toBe("node (built-in)");
    expect(originOf("")).toBe("(native or V8)");
  });

  it("sums self time by function and origin as a share of the busy time, idle apart", () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
    const profile = {
      startTime: 0,
      nodes: [
        { id: 1, callFrame: frame("(idle)", "") },
        { id: 2, callFrame: frame("render", "file:///w/node_modules/react-dom/server.js") },
        { id: 3, callFrame: frame("(garbage collector)", "") },
      ],
      samples: [1, 2, 2, 3],
      timeDeltas: [5000, 3000, 3000, 2000],
    };
    const summary = summarizeProfile(profile);
    expect(summary.idleMs).toBe(5);
    expect(summary.busyMs).toBe(8);
    expect(summary.functions[0]).toEqual({ name: "render react-dom:10", ms: 6, share: 0.75 });
    expect(summary.origins.map((o) => o.name)).toEqual(["react-dom", "(garbage collector)"]);
    // Samples within 9 ms of the start (the idle one and the first render) left out.
    expect(summarizeProfile(profile, 25, 9).busyMs).toBe(5);
  });
});
