/**
 * Reads a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) and sums the self time of its
 * samples by function and by where the code comes from (a package, an app folder, Node itself),
 * as a share of the busy time (every sample but the idle ones).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  /** Microseconds, on the profiled process's clock; the first sample is this plus timeDeltas[0]. */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Share of the busy time, 0 to 1. */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  functions: SelfTime[];
  origins: SelfTime[];
}

/** Where a script comes from: `pkg` for node_modules/pkg (scoped too), else its folder in the project. */
export function originOf(url: string): string {
  if (url === "") return "(native or V8)";
  if (url.startsWith("node:")) return "node (built-in)";
  const path = url.replace(/^file:\/\//, "");
  const marker = "/node_modules/";
  const at = path.lastIndexOf(marker);
  if (at >= 0) {
    const parts = path.slice(at + marker.length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const build = path.indexOf("/build/");
  if (build >= 0) return path.slice(build + 1);
  return path.split("/").slice(-2).join("/");
}

function ranked(totals: Map<string, number>, busyMs: number, top: number): SelfTime[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }));
}

/** `skipMs`: samples within that long of the profile's start are left out (a server's start-up, say). */
export function summarizeProfile(profile: CpuProfile, top = 25, skipMs = 0): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const origins = new Map<string, number>();
  let busyMs = 0;
  let idleMs = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    at += ms;
    if (at < skipMs) return;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    if (frame.functionName === "(idle)") {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    // (program) and (garbage collector) have no script: each is its own origin.
    const origin = !frame.url && frame.functionName.startsWith("(") ? frame.functionName : originOf(frame.url);
    const name = `${frame.functionName || "(anonymous)"} ${origin}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    origins.set(origin, (origins.get(origin) ?? 0) + ms);
  });
  return { busyMs, idleMs, functions: ranked(functions, busyMs, top), origins: ranked(origins, busyMs, top) };
}
