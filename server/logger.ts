import pino from "pino";
import { getConfig } from "./config";

/** One JSON logger for the whole server; request loggers are children carrying a request id. */
export const logger = pino({
  level: process.env.VITEST ? "silent" : getConfig().LOG_LEVEL,
  base: undefined,
});
