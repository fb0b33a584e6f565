import path from "node:path";
import { z } from "zod";

/**
 * The whole environment, parsed once. Every variable has a default that works on a fresh
 * machine, so `npm start` needs no configuration; a bad value stops start-up with a message
 * naming the variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PUBLIC_URL: z.url({ error: "must be an absolute URL such as https://example.com" }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DEMO_DATA: z
    .enum(["auto", "off"], { error: "must be auto or off" })
    .default("auto")
    .describe("auto: load the demo catalogue when the database is empty"),
  DEMO_COUNT: z.coerce.number().int().min(0).max(100_000).default(3000),
  AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)")
    .optional()
    .describe("signs session cookies; generated into DATA_DIR/auth-secret when unset"),
  TRUST_PROXY: z
    .string()
    .optional()
    .describe("Express 'trust proxy' (e.g. 1, loopback): set behind a load balancer so client IPs are right"),
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/.*\{z\}.*\{x\}.*\{y\}/, "must be an http(s) URL template containing {z}, {x} and {y}")
    .default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  MAP_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string };

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset", as they do in most shells and .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) };
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
