import path from "node:path";
import { z } from "zod";
import { DEFAULT_PLANS_FILE, loadPromotionPlans, PlansFileError, type PromotionPlans } from "./promotions/plans";

/** "http(s)://" then {z}, {x} and {y} in that order (index look-ups: linear on any input). */
function isTileTemplate(url: string): boolean {
  if (!url.startsWith("http://") && !url.startsWith("https://")) return false;
  const z = url.indexOf("{z}");
  const x = z < 0 ? -1 : url.indexOf("{x}", z + 3);
  return x >= 0 && url.indexOf("{y}", x + 3) >= 0;
}

const emailAddress = z.email();

/**
 * `address` or `Name <address>`, where the address is one zod accepts as an email. A comma or
 * semicolon in the name would make it a list of addresses to a mail client, so neither is allowed.
 */
function isMailbox(value: string): boolean {
  const text = value.trim();
  const open = text.indexOf("<");
  if (open < 0) return emailAddress.safeParse(text).success;
  const name = text.slice(0, open);
  const address = text.endsWith(">") ? text.slice(open + 1, -1) : "";
  return !/[,;>]/.test(name) && emailAddress.safeParse(address).success;
}

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
  // On SIGTERM: finish in-flight requests for at most this long (docs/operations.md, "Deployment").
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 600000")
    .max(600_000, "must be between 0 and 600000")
    .default(10_000),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL such as https://example.com" })
    .optional()
    .describe("the site's address for canonical links, sitemaps and cookies; http://localhost:PORT when unset"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DEMO_DATA: z
    .enum(["auto", "off"], { error: "must be auto or off" })
    .default("auto")
    .describe("auto: load the demo catalogue when the database is empty"),
  DEMO_COUNT: z.coerce.number().int().min(0).max(100_000).default(3000),
  SEARCH_SNAPSHOT: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("on")
    .describe("on: the search index is saved to DATA_DIR/search-index.snapshot and read from it at start-up"),
  DAILY_JOBS: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("on")
    .describe("off: this instance never runs the daily jobs (another instance with on does)"),
  AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)")
    .optional()
    .describe("signs session cookies; generated into DATA_DIR/auth-secret when unset"),
  TRUST_PROXY: z
    .string()
    .optional()
    .describe("Express 'trust proxy' (e.g. 1, loopback): set behind a load balancer so client IPs are right"),
  TRUST_PROXY_REQUEST_ID: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .default(false)
    .describe("log the X-Request-Id of a proxy TRUST_PROXY trusts as upstreamRequestId, beside our own id"),
  MAP_TILE_URL: z
    .string()
    .refine(
      (value) => value === "none" || isTileTemplate(value),
      "must be an http(s) URL template containing {z}, {x} and {y}, or none",
    )
    .default("https://tile.openstreetmap.org/{z}/{x}/{y}.png")
    // none: maps draw the state outlines and markers without tiles (docs/operations.md).
    .transform((value) => (value === "none" ? "" : value)),
  MAP_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      hostname: /./,
      error: "must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example:587",
    })
    .optional()
    .describe("where email is sent; unset, each message is written as an .eml file under DATA_DIR/mail"),
  MAIL_FROM: z
    .string()
    .refine(isMailbox, 'must be an address or "Name <address>", e.g. RV Storage <no-reply@rvstorage.example>')
    .optional()
    .describe("the From of every email; RV Storage Directory <no-reply@PUBLIC_URL's host> when unset"),
  PROMOTION_PLANS_FILE: z
    .string()
    .optional()
    .describe("the paid plans (docs/operations.md); config/promotion-plans.json when unset"),
  INVOICE_PAYMENT_INSTRUCTIONS: z
    .string()
    .max(2000, "must be at most 2000 characters")
    .default(
      "Pay by bank transfer, with the invoice number as the payment reference. Ask our billing contact for the bank details.",
    )
    .describe("how to pay an invoice, printed on it and in its email"),
  INVOICE_DUE_DAYS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 90")
    .max(90, "must be between 1 and 90")
    .default(14),
  INVOICE_ISSUER: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .default("RV Storage Directory")
    .describe("the business name printed on invoices as their issuer"),
  INVOICE_ISSUER_ADDRESS: z
    .string()
    .max(500, "must be at most 500 characters")
    .optional()
    .describe(
      'the issuer\'s postal address on invoices, lines separated by " | " (e.g. "100 Main St | Austin, TX 78701")',
    ),
  INVOICE_BILLING_EMAIL: z
    .email("must be an email address, e.g. billing@rvstorage.example")
    .max(254, "must be at most 254 characters")
    .optional()
    .describe("the billing contact printed on invoices; billing@PUBLIC_URL's host when unset"),
  INVOICE_TAX_ID: z
    .string()
    .trim()
    .max(50, "must be at most 50 characters")
    .optional()
    .describe("the issuer's tax ID (EIN), printed on invoices when set"),
  PROMOTION_GRACE_DAYS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 60")
    .max(60, "must be between 0 and 60")
    .default(7)
    .describe("days a past-due promotion keeps its tier after its period ends"),
  STRIPE_SECRET_KEY: z
    .string()
    .refine((v) => v.startsWith("sk_") || v.startsWith("rk_"), "must be a Stripe secret key (sk_… or rk_…)")
    .optional()
    .describe("with STRIPE_WEBHOOK_SECRET: owners pay by card through Stripe instead of by invoice"),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .refine((v) => v.startsWith("whsec_"), "must be a webhook signing secret (whsec_…)")
    .optional()
    .describe("the signing secret of the webhook endpoint /api/stripe/webhook"),
  STRIPE_API_BASE: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .optional()
    .describe("tests only: where the Stripe SDK sends its requests (a local stand-in)"),
  // Object storage (docs/operations.md, "Object storage"): S3_BUCKET turns it on.
  S3_BUCKET: z
    .string()
    .refine(isBucketName, "must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens")
    .optional()
    .describe("photos, article images and claim evidence go to this S3 bucket instead of DATA_DIR"),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, hostname: /./, error: "must be an http(s) URL such as https://s3.example.com" })
    .optional()
    .describe("an S3-compatible service (MinIO, R2, …); AWS S3 when unset"),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as us-east-1 (lowercase letters, digits, hyphens)")
    .default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().max(256, "must be at most 256 characters").optional(),
  S3_SECRET_ACCESS_KEY: z.string().max(256, "must be at most 256 characters").optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .default(false)
    .describe("bucket in the path (http://host/bucket/key), as MinIO and most stand-ins need"),
  S3_PREFIX: z
    .string()
    .max(200, "must be at most 200 characters")
    .refine(isKeyPrefix, "must be folder names of A-Z a-z 0-9 . _ - joined by /, e.g. rvstorage/prod")
    .transform((value) => value.replace(/\/$/, ""))
    .optional()
    .describe("a folder inside the bucket that holds everything the site stores"),
  // A shared cache in front (docs/operations.md, "A shared cache in front"): how long it may keep
  // an anonymous public page, and where to ask it to fetch a changed page again.
  SHARED_CACHE_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 86400")
    .max(86_400, "must be between 0 and 86400")
    .default(60)
    .describe("s-maxage of anonymous public pages: how long a shared cache may answer with one; 0: none is shared"),
  SHARED_CACHE_STALE_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 86400")
    .max(86_400, "must be between 0 and 86400")
    .default(300)
    .describe("stale-while-revalidate: how long past s-maxage a shared cache may answer while it asks again"),
  PAGE_MEMORY_MB: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 4096")
    .max(4096, "must be between 0 and 4096")
    .default(32)
    .describe(
      "memory for public pages served again by each instance for SHARED_CACHE_SECONDS; 0: every page is rendered",
    ),
  CACHE_PURGE_URL: z
    .url({
      protocol: /^https?$/,
      hostname: /./,
      error: "must be an http(s) URL of the shared cache as the instances reach it, such as http://127.0.0.1:8080",
    })
    .refine((value) => isBareOrigin(value), "must be the cache's address only, without a path, query or fragment")
    .transform((value) => new URL(value).origin)
    .optional()
    .describe("the shared cache, as the instances reach it: changed pages are refreshed there; unset, none is"),
  CACHE_PURGE_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters (e.g. openssl rand -hex 16)")
    .max(200, "must be at most 200 characters")
    .refine((value) => /^[\x21-\x7e]+$/.test(value), "must be printable ASCII without spaces")
    .optional()
    .describe("the X-Cache-Purge header value the shared cache accepts as a refresh; required with CACHE_PURGE_URL"),
});

/** `http://host:port` with at most a trailing slash: the purge paths are appended to it. */
function isBareOrigin(value: string): boolean {
  // Not a URL at all: the URL check above says so.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username && !url.password;
}

/** S3's bucket naming rules (the strictest common subset of AWS, MinIO and R2). */
function isBucketName(name: string): boolean {
  return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) && !name.includes("..");
}

/** `a/b` or `a/b/`: segments as storage keys have them (server/images/storage.ts). */
function isKeyPrefix(prefix: string): boolean {
  const segments = (prefix.endsWith("/") ? prefix.slice(0, -1) : prefix).split("/");
  return segments.every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(segment));
}

export type Config = z.infer<typeof envSchema> & { dataDir: string; promotionPlans: PromotionPlans };

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
  let promotionPlans: PromotionPlans;
  try {
    promotionPlans = loadPromotionPlans(
      result.data.PROMOTION_PLANS_FILE ? path.resolve(result.data.PROMOTION_PLANS_FILE) : DEFAULT_PLANS_FILE,
    );
  } catch (error) {
    if (error instanceof PlansFileError) throw new ConfigError(error.message);
    throw error;
  }
  const stripe = [result.data.STRIPE_SECRET_KEY, result.data.STRIPE_WEBHOOK_SECRET].filter(Boolean).length;
  if (stripe === 1)
    throw new ConfigError(
      "Invalid environment configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both for card payments, or neither for invoices",
    );
  if (stripe === 2) {
    const missing = promotionPlans.plans.flatMap((p) =>
      (["month", "year"] as const).filter((i) => !p.stripePriceIds?.[i]).map((i) => `${p.tier} ${i}`),
    );
    if (missing.length > 0)
      throw new ConfigError(
        `Stripe is configured but the plans file has no Stripe price id for: ${missing.join(", ")} (plans.N.stripePriceIds)`,
      );
  }
  const s3Problem = s3SettingsProblem(cleaned, result.data);
  if (s3Problem) throw new ConfigError(`Invalid environment configuration:\n  ${s3Problem}`);
  if (result.data.CACHE_PURGE_URL && !result.data.CACHE_PURGE_TOKEN)
    throw new ConfigError(
      "Invalid environment configuration:\n  CACHE_PURGE_TOKEN: must be set when CACHE_PURGE_URL is (the header value the shared cache accepts as a refresh)",
    );
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR), promotionPlans };
}

/** S3 settings that only make sense together (docs/operations.md, "Object storage"). */
function s3SettingsProblem(
  env: Record<string, string | undefined>,
  data: {
    S3_BUCKET?: string | undefined;
    S3_ACCESS_KEY_ID?: string | undefined;
    S3_SECRET_ACCESS_KEY?: string | undefined;
  },
): string | undefined {
  const keys = [data.S3_ACCESS_KEY_ID, data.S3_SECRET_ACCESS_KEY].filter(Boolean).length;
  if (keys === 1)
    return "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK's default credentials";
  if (data.S3_BUCKET) return undefined;
  const stray = Object.keys(env).filter((name) => name.startsWith("S3_") && name in envSchema.shape);
  if (stray.length > 0)
    return `S3_BUCKET: must be set when ${stray.sort().join(", ")} ${stray.length > 1 ? "are" : "is"}`;
  return undefined;
}

/**
 * The site's public address. Absolute URLs (canonical links, Open Graph, JSON-LD, sitemaps,
 * robots.txt) and the auth base URL come from here and never from a request's Host header, which
 * any client can set and which a shared cache would then serve to everyone.
 */
export function publicUrl(config: Pick<Config, "PUBLIC_URL" | "PORT">): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}

export function publicOrigin(config: Pick<Config, "PUBLIC_URL" | "PORT">): string {
  return new URL(publicUrl(config)).origin;
}

/**
 * The From of every email: MAIL_FROM, else a no-reply address at the public host (localhost
 * when PUBLIC_URL is unset, which only suits the offline .eml default).
 */
export function mailFrom(config: Pick<Config, "MAIL_FROM" | "PUBLIC_URL">): string {
  if (config.MAIL_FROM) return config.MAIL_FROM.trim();
  const host = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "localhost";
  return `RV Storage Directory <no-reply@${host}>`;
}

/** Who issues invoices, as they print them (docs/operations.md, "Promotions"). */
export interface InvoiceIssuer {
  name: string;
  /** Postal address lines; empty when INVOICE_ISSUER_ADDRESS is unset. */
  address: string[];
  email: string;
  taxId: string | null;
}

/** The settings an invoice's issuer is made of. */
export type InvoiceIssuerSettings = Pick<
  Config,
  "INVOICE_ISSUER" | "INVOICE_ISSUER_ADDRESS" | "INVOICE_BILLING_EMAIL" | "INVOICE_TAX_ID" | "PUBLIC_URL"
>;

export function invoiceIssuer(config: InvoiceIssuerSettings): InvoiceIssuer {
  const host = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "localhost";
  return {
    name: config.INVOICE_ISSUER,
    address: (config.INVOICE_ISSUER_ADDRESS ?? "")
      .replaceAll("\n", "|")
      .split("|")
      .map((line) => line.trim())
      .filter(Boolean),
    email: config.INVOICE_BILLING_EMAIL ?? `billing@${host}`,
    taxId: config.INVOICE_TAX_ID || null,
  };
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * The localhost default suits a first start on a laptop; a site behind a proxy or listening on
 * a public interface needs its real address, or links name localhost and cookies lose Secure.
 */
export function publicUrlWarning(
  config: Pick<Config, "PUBLIC_URL" | "PORT" | "HOST" | "TRUST_PROXY">,
): string | undefined {
  if (config.PUBLIC_URL) return undefined;
  if (!config.TRUST_PROXY && LOOPBACK.test(config.HOST)) return undefined;
  return (
    `PUBLIC_URL is unset: canonical links, sitemaps and robots.txt name ${publicUrl(config)} and session cookies ` +
    "are not Secure. Set PUBLIC_URL to the site's public address (e.g. https://rvstorage.example)."
  );
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
