/**
 * A local nginx in front of running instances of the site, configured from the reference
 * configuration (deploy/nginx/nginx.conf.template) with its own temporary prefix: pid file, logs,
 * temp paths and cache directory. For `npm run bench:site` and the browser tests, so that what they
 * measure and check is the shared cache production runs (docs/operations.md, "A shared cache in
 * front (nginx)"). Needs nginx at /usr/sbin/nginx (scripts/ensure-nginx.ts installs Debian's) or
 * NGINX_PATH.
 *
 * The proxy is a child process of this one. stop() asks it to finish its requests and exit
 * (SIGQUIT), then kills it and its workers after a timeout; an exit of this process, or a SIGINT,
 * SIGTERM or SIGHUP that would end it, stops every proxy still running.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { NGINX_PATH } from "./debian-package";

export const TEMPLATE_PATH = path.resolve(import.meta.dirname, "../../deploy/nginx/nginx.conf.template");

/** The placeholders of the template, each replaced by render(). */
export const PLACEHOLDERS = [
  "USER_DIRECTIVE",
  "WORKER_PROCESSES",
  "PID_FILE",
  "ERROR_LOG",
  "TEMP_DIR",
  "ACCESS_LOG",
  "CACHE_DIR",
  "UPSTREAM_SERVERS",
  "LISTEN",
  "SERVER_NAME",
  "PUBLIC_URL",
  "CACHE_PURGE_TOKEN",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** The header that asks for a refresh (deploy/nginx/nginx.conf.template, "PURGE IS A REFRESH"). */
export const PURGE_HEADER = "X-Cache-Purge";

/** The encodings the cache keeps a copy for: a refresh of a path is sent once with each. */
export const CACHED_ENCODINGS = ["br", "gzip", "identity"] as const;

/**
 * The template with every placeholder replaced. Throws when a value is missing or a placeholder
 * is left over (a template and a renderer out of step), never writes half a configuration.
 */
export function renderConfig(values: Record<Placeholder, string>, template = fs.readFileSync(TEMPLATE_PATH, "utf8")) {
  // Split on the braces rather than matched with a pattern: one pass, and a stray "{{" stays text.
  const pieces = template.split("{{");
  let text = pieces[0]!;
  for (const piece of pieces.slice(1)) {
    const end = piece.indexOf("}}");
    const name = end < 0 ? "" : piece.slice(0, end);
    if (!/^[A-Z_]+$/.test(name)) {
      text += `{{${piece}`;
      continue;
    }
    const value = (values as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`nginx template: no value for the placeholder {{${name}}}`);
    text += value + piece.slice(end + 2);
  }
  return text;
}

/**
 * A token nginx can hold as a map key in double quotes: printable ASCII (as the site's
 * CACHE_PURGE_TOKEN) without the characters that would end or change that string, and not starting
 * with '~' (a regex key). Between 16 and 200 characters.
 */
export function checkPurgeToken(token: string): void {
  if (!/^[\x21-\x7e]{16,200}$/.test(token))
    throw new Error("purgeToken: must be 16 to 200 printable ASCII characters without spaces");
  if (/["'\\$;{}]/.test(token) || token.startsWith("~"))
    throw new Error("purgeToken: must not contain quotes, '\\', '$', ';', braces, or start with '~' (use hex)");
}

/** `http://host:port` to nginx's `host:port`. */
function upstreamAddress(upstream: string): string {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new Error(`upstreams: "${upstream}" is not a URL (expected http://127.0.0.1:PORT)`);
  }
  if (url.protocol !== "http:" || (url.pathname !== "/" && url.pathname !== "") || url.search || !url.port)
    throw new Error(`upstreams: "${upstream}" must be http://HOST:PORT, without a path`);
  return url.host;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The end of a file, or "" when it does not exist. */
function tail(file: string, bytes = 3000): string {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.slice(-bytes).trimEnd();
  } catch {
    return "";
  }
}

/** Whether a process is still there (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The processes whose parent is `pid` (nginx's workers and cache processes), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

export interface CachingProxy {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** The directory holding the configuration, logs, temp files and the cache. */
  dir: string;
  cacheDir: string;
  /** One line per request (log_format rvs_cache; parseAccessLog reads it), complete after stop(). */
  accessLog: string;
  errorLog: string;
  /** nginx's master process. */
  pid: number;
  /** Graceful stop (SIGQUIT: requests under way finish, logs are flushed), SIGKILL after the timeout. */
  stop(): Promise<void>;
}

export interface CachingProxyOptions {
  /** The instances, `http://127.0.0.1:PORT` each. */
  upstreams: string[];
  /** The X-Cache-Purge value that refreshes a page (the site's CACHE_PURGE_TOKEN). */
  purgeToken: string;
  /** The port to listen on (127.0.0.1); a free one when omitted. */
  port?: number;
  /** A directory to use and keep (the access log stays readable after stop()); a fresh temporary one, removed on stop(), when omitted. */
  dir?: string;
  /** The site's PUBLIC_URL, which names the cache's entries; the proxy's own address when omitted. */
  publicUrl?: string;
  /** nginx worker processes; "auto" (one per core) when omitted. */
  workerProcesses?: number | "auto";
  /** The nginx binary; NGINX_PATH or /usr/sbin/nginx when omitted. */
  nginxPath?: string;
  /** How long to wait for nginx to answer (10 s) and, on stop(), to exit before it is killed (5 s). */
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
}

// ---------------------------------------------------------------- stopping on exit

/** Running proxies, and the directory to remove when this process ends (undefined: the caller's). */
const live = new Set<{ pid: number; child: ChildProcess; ownDir?: string }>();
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Fast shutdown of every proxy (SIGTERM: nginx stops its workers and exits), without waiting. */
function stopAllNow(): void {
  for (const { pid } of live) signal(pid, "SIGTERM");
}

/** At exit: the proxies stop themselves after this process is gone; their own directories go now. */
function stopAllAtExit(): void {
  stopAllNow();
  for (const { ownDir } of live) if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
}

function onSignal(name: NodeJS.Signals): void {
  // Ours was the only handler: the signal would have ended the process, so let it (no exit event
  // follows a death by signal, so this is the last word). Otherwise the process's own handler
  // decides when it ends, and may stop() its proxies itself.
  if (process.listenerCount(name) === 1) {
    stopAllAtExit();
    uninstall();
    process.kill(process.pid, name);
  } else {
    stopAllNow();
  }
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", stopAllAtExit);
  for (const name of SIGNALS) process.on(name, onSignal);
}
function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", stopAllAtExit);
  for (const name of SIGNALS) process.off(name, onSignal);
}

// ---------------------------------------------------------------- start

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function stopProcess(child: ChildProcess, timeoutMs: number): Promise<void> {
  const pid = child.pid!;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  signal(pid, "SIGQUIT");
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    done.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    // The workers would outlive a killed master: take them first.
    const workers = childrenOf(pid);
    signal(pid, "SIGKILL");
    for (const worker of workers) signal(worker, "SIGKILL");
    await done;
  }
}

/**
 * The status of nginx's own health check on `port`, or 0 when nothing answers within a second.
 * A connection of its own, closed after the answer: no socket to the proxy is left in a pool.
 */
function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/nginx-health", agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(0));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
  });
}

/** Starts nginx once on `port`; resolves when it answers, rejects naming why it did not. */
async function startOnce(
  options: CachingProxyOptions,
  nginxPath: string,
  dir: string,
  port: number,
): Promise<{ child: ChildProcess; url: string }> {
  const url = `http://127.0.0.1:${port}`;
  const files = {
    conf: path.join(dir, "nginx.conf"),
    pid: path.join(dir, "nginx.pid"),
    errorLog: path.join(dir, "error.log"),
    accessLog: path.join(dir, "access.log"),
    tmp: path.join(dir, "tmp"),
    cache: path.join(dir, "cache"),
    output: path.join(dir, "nginx.out"),
  };
  fs.mkdirSync(files.tmp, { recursive: true });
  fs.mkdirSync(files.cache, { recursive: true });
  const values: Record<Placeholder, string> = {
    // As root, nginx would run its workers as "nobody", who cannot write into this directory.
    USER_DIRECTIVE: process.getuid?.() === 0 ? "user root;" : "",
    WORKER_PROCESSES: String(options.workerProcesses ?? "auto"),
    PID_FILE: files.pid,
    ERROR_LOG: files.errorLog,
    TEMP_DIR: files.tmp,
    ACCESS_LOG: files.accessLog,
    CACHE_DIR: files.cache,
    UPSTREAM_SERVERS: options.upstreams.map((upstream) => `server ${upstreamAddress(upstream)};`).join("\n        "),
    LISTEN: `listen 127.0.0.1:${port};`,
    SERVER_NAME: "127.0.0.1 localhost",
    PUBLIC_URL: (options.publicUrl ?? url).replace(/\/$/, ""),
    CACHE_PURGE_TOKEN: options.purgeToken,
  };
  fs.writeFileSync(files.conf, renderConfig(values));
  fs.rmSync(files.errorLog, { force: true });

  const output = fs.openSync(files.output, "w");
  const child = spawn(
    nginxPath,
    ["-p", `${dir}/`, "-c", files.conf, "-e", files.errorLog, "-g", "daemon off; master_process on;"],
    { stdio: ["ignore", output, output] },
  );
  fs.closeSync(output);
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const why = (what: string) => {
    const log = [tail(files.errorLog), tail(files.output)].filter(Boolean).join("\n");
    return new Error(`nginx (${nginxPath}) ${what}${log ? `; the end of its log:\n${log}` : ""}`);
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  for (;;) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((r) => setImmediate(() => r(undefined)))]);
    if (failed) throw why(`could not be started: ${failed.message}`);
    if (child.exitCode !== null || child.signalCode !== null)
      throw why(`exited at start (${child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode})`);
    if ((await healthStatus(port)) === 200) return { child, url };
    if (Date.now() > deadline) {
      await stopProcess(child, 1000);
      throw why(`did not answer on ${url} within ${options.startTimeoutMs ?? 10_000} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startCachingProxy(options: CachingProxyOptions): Promise<CachingProxy> {
  const nginxPath = options.nginxPath ?? NGINX_PATH;
  if (!fs.existsSync(nginxPath))
    throw new Error(
      `nginx not found at ${nginxPath}: run 'npx tsx scripts/ensure-nginx.ts' (installs Debian's nginx when run as root) ` +
        `or 'sudo apt-get install -y nginx', or set NGINX_PATH`,
    );
  if (options.upstreams.length === 0) throw new Error("upstreams: at least one instance is needed");
  options.upstreams.forEach(upstreamAddress);
  checkPurgeToken(options.purgeToken);

  const ownDir = options.dir === undefined;
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "rv-nginx-"));
  fs.mkdirSync(dir, { recursive: true });
  let started: { child: ChildProcess; url: string; port: number } | undefined;
  try {
    // A free port can be taken between our check and nginx's bind: try another, twice.
    for (let attempt = 1; !started; attempt++) {
      const port = options.port ?? (await freePort());
      try {
        started = { ...(await startOnce(options, nginxPath, dir, port)), port };
      } catch (error) {
        const taken = error instanceof Error && error.message.includes("Address already in use");
        if (!taken || options.port !== undefined || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const { child, url, port } = started;
  const entry = { pid: child.pid!, child, ownDir: ownDir ? dir : undefined };
  live.add(entry);
  install();
  child.once("exit", () => {
    live.delete(entry);
    if (live.size === 0) uninstall();
  });
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    dir,
    cacheDir: path.join(dir, "cache"),
    accessLog: path.join(dir, "access.log"),
    errorLog: path.join(dir, "error.log"),
    pid: child.pid!,
    stop: () =>
      (stopping ??= (async () => {
        await stopProcess(child, options.stopTimeoutMs ?? 5_000);
        // Its workers too: a worker still finishing a request when the master was killed.
        for (let deadline = Date.now() + 2_000; childrenOf(entry.pid).some(alive) && Date.now() < deadline;)
          await new Promise((r) => setTimeout(r, 20));
        if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

// ---------------------------------------------------------------- the access log

export interface AccessLogLine {
  /** Seconds since the epoch, with milliseconds, when the answer was sent. */
  time: number;
  status: number;
  /** HIT, STALE, UPDATING, REVALIDATED, MISS, EXPIRED, BYPASS, or "-" (no cache involved). */
  cacheStatus: string;
  method: string;
  uri: string;
  /** Seconds nginx spent on the request. */
  requestTime: number;
}

/**
 * The lines of an access log in the rvs_cache format (`$msec $status $upstream_cache_status
 * "$request_method $request_uri" $request_time ...`); other lines are skipped. Read by position:
 * the request is the one quoted field before the first field that may hold spaces.
 */
export function parseAccessLog(text: string): AccessLogLine[] {
  const lines: AccessLogLine[] = [];
  for (const line of text.split("\n")) {
    const [time, status, cacheStatus] = line.split(" ", 3);
    const open = line.indexOf(' "');
    const close = open < 0 ? -1 : line.indexOf('" ', open + 2);
    if (close < 0 || !time || !status || !cacheStatus) continue;
    const request = line.slice(open + 2, close);
    const space = request.indexOf(" ");
    const requestTime = line.slice(close + 2).split(" ", 1)[0]!;
    const parsed = {
      time: Number(time),
      status: Number(status),
      cacheStatus,
      method: space < 0 ? request : request.slice(0, space),
      uri: space < 0 ? "" : request.slice(space + 1),
      requestTime: Number(requestTime),
    };
    if (Number.isFinite(parsed.time) && Number.isInteger(parsed.status)) lines.push(parsed);
  }
  return lines;
}

/** Answers nginx took from its cache: fresh (HIT) or stale while it refreshed them (STALE, UPDATING). */
export const FROM_CACHE = new Set(["HIT", "STALE", "UPDATING"]);
