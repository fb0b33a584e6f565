import pino from "pino";
import { getConfig } from "./config";

/** One JSON logger for the whole server; request loggers are children carrying a request id. */
export const logger = pino({
  level: process.env.VITEST ? "silent" : getConfig().LOG_LEVEL,
  base: undefined,
});

/**
 * A request URL fit for the log: the value of any query parameter named like a token (the reset
 * and verification links carry one) is replaced, so a log reader cannot use a live link.
 */
export function urlForLog(url: string): string {
  const query = url.indexOf("?");
  if (query < 0) return url;
  const hash = url.indexOf("#", query);
  const end = hash < 0 ? url.length : hash;
  const pairs = url
    .slice(query + 1, end)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals < 0 || !pair.slice(0, equals).toLowerCase().includes("token")) return pair;
      return `${pair.slice(0, equals + 1)}[redacted]`;
    });
  return `${url.slice(0, query + 1)}${pairs.join("&")}${url.slice(end)}`;
}
