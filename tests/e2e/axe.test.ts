import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { browserForThisFile, nextFrames } from "./browser";

/**
 * axe-core on every screen of app/routes.ts (public pages, both consoles, the error pages), on a
 * desktop window and a 390x844 phone, and with the cheap-to-open overlays open (the Amenities
 * modal, the signed-in phone menu): no violation of WCAG 2.0 / 2.1 A and AA, nor of axe's
 * best practices. Screens with parameters use the fixture ids of tests/e2e/accounts.ts and
 * the demo catalogue. Console screens are signed in as the fixture that may see them.
 */
const baseUrl = inject("baseUrl");
const fixtures = inject("fixtures");
const browser = browserForThisFile();
const AXE = path.resolve("node_modules/axe-core/axe.min.js");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
/** A demo article every fresh site has (server/blog/demo.ts): its public slug and its admin id. */
const ARTICLE_SLUG = "prepare-rv-for-winter-storage-checklist";
const ARTICLE_ID = `demo-article-${ARTICLE_SLUG}`;

type Who = "visitor" | "admin" | "listing_owner" | "user";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

interface Screen {
  path: string;
  who: Who;
  /** Opens an overlay before the scan. */
  open?: (page: Page) => Promise<void>;
  /** The HTTP status the screen answers (200 unless said). */
  status?: number;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

async function axe(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(
    async (tags) =>
      (
        await (
          window as unknown as {
            axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
          }
        ).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
      ).violations,
    TAGS,
  );
}

function describeViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${JSON.stringify(n.target)} ${n.html.slice(0, 160)}\n      ${n.failureSummary ?? ""}`)
          .join("\n"),
    )
    .join("\n");
}

const contexts = new Map<Who, Promise<BrowserContext>>();

/**
 * One browser context per person, signed in once. Its pages open on a desktop window and are then
 * narrowed to a phone's width: the site decides its phone layout by width alone (CSS media queries,
 * no user-agent or touch sniffing), so one load serves both scans.
 */
function contextFor(who: Who): Promise<BrowserContext> {
  let context = contexts.get(who);
  if (!context) {
    context = (async () => {
      // Headless Chrome's user agent: no analytics traffic, so the network goes idle before a scan.
      const created = await browser().newContext({
        viewport: DESKTOP,
        // axe is injected as an inline script, which the site's Content-Security-Policy refuses.
        bypassCSP: true,
      });
      if (who === "visitor") return created;
      const page = await created.newPage();
      const loginPath = who === "listing_owner" ? "/business/login" : "/login";
      await page.goto(`${baseUrl}${loginPath}`);
      await page.getByLabel("Email").fill(ACCOUNTS[who].email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => !url.pathname.endsWith("/login"));
      await page.close();
      return created;
    })();
    contexts.set(who, context);
  }
  return context;
}

afterAll(async () => {
  for (const context of contexts.values()) await (await context).close();
});

let facilityPath = "";
beforeAll(async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  await page.goto(`${baseUrl}/rv-storage/austin-tx`);
  facilityPath = (await page.locator("section[aria-label=Results] article h2 a").first().getAttribute("href")) ?? "";
  await context.close();
});

const openAmenities = async (page: Page) => {
  await page.getByRole("button", { name: /^Amenities/ }).click();
  await page.getByRole("dialog").waitFor();
};
const openPhoneMenu = async (page: Page) => {
  const header = page.getByRole("banner");
  await header.getByText("Menu", { exact: true }).click();
  await header.getByRole("link", { name: "Articles" }).waitFor();
};

const f = fixtures ?? {
  ownedLocationId: "",
  claimId: "",
  evidenceId: "",
  promotionId: "",
  invoiceId: "",
  userId: "",
  leadId: "",
};
const LOCATION = f.ownedLocationId;

const PUBLIC: Screen[] = [
  { path: "/", who: "visitor" },
  { path: "/rv-storage", who: "visitor" },
  { path: "/rv-storage/austin-tx", who: "visitor" },
  { path: "/rv-storage/austin-tx", who: "visitor", open: openAmenities },
  { path: "/rv-storage/tx", who: "visitor" },
  { path: "/rv-storage/austn-tx", who: "visitor", status: 404 },
  { path: "FACILITY", who: "visitor" },
  { path: "/about", who: "visitor" },
  { path: "/blog", who: "visitor" },
  { path: `/blog/${ARTICLE_SLUG}`, who: "visitor" },
  { path: "/login", who: "visitor" },
  { path: "/signup", who: "visitor" },
  { path: "/business/login", who: "visitor" },
  { path: "/forgot-password", who: "visitor" },
  { path: "/reset-password", who: "visitor" },
  { path: "/reset-password?token=not-a-token", who: "visitor" },
  { path: "/verify-email", who: "visitor" },
  { path: "/leads/withdraw?token=not-a-token", who: "visitor" },
  { path: "/no-such-page", who: "visitor", status: 404 },
  { path: "/location/short", who: "visitor", status: 400 },
  // Signed in: the header with the console links, and on a phone its menu.
  { path: "/", who: "admin" },
  { path: "FACILITY", who: "admin", open: openPhoneMenu },
];

const ADMIN: Screen[] = [
  "/admin",
  "/admin/analytics",
  "/admin/claims",
  `/admin/claims/${f.claimId}`,
  "/admin/locations",
  "/admin/locations/import",
  "/admin/manage",
  `/admin/manage/${LOCATION}`,
  `/admin/manage/${LOCATION}/edit`,
  `/admin/manage/${LOCATION}/photos`,
  "/admin/promotions",
  "/admin/promotions?view=promotions",
  "/admin/users",
  `/admin/users/${f.userId}`,
  "/admin/blog",
  "/admin/blog/new",
  `/admin/blog/edit/${ARTICLE_ID}`,
].map((path): Screen => ({ path, who: "admin" }));
// A console's own error page: an import nobody made.
ADMIN.push({ path: "/admin/locations/import/00000000-0000-4000-8000-000000000000", who: "admin", status: 404 });

const OWNER: Screen[] = [
  ...[
    "/owner",
    "/owner/claim",
    "/owner/locations",
    "/owner/locations/analytics",
    `/owner/locations/analytics?listing=${LOCATION}&days=7`,
    `/owner/locations/${LOCATION}/update`,
    `/owner/locations/${LOCATION}/photos`,
    "/owner/leads",
    "/owner/promote",
    `/owner/promote?listing=${LOCATION}`,
    `/owner/checkout?promotion=${f.promotionId}`,
    `/owner/checkout/success?promotion=${f.promotionId}`,
    `/owner/invoices/${f.invoiceId}`,
    "/owner/settings",
  ].map((path): Screen => ({ path, who: "listing_owner" })),
  // The `user` persona's pending claim, and the claim form for a listing nobody owns yet.
  { path: "/owner/claims", who: "user" },
  { path: `/owner/claim/${LOCATION}`, who: "user" },
  { path: "/owner", who: "user", open: openPhoneMenu },
];

/**
 * Loads the screen once and scans it on a desktop window, then narrowed to a 390x844 phone. The
 * phone menu exists only on a phone: that overlay is opened after the narrowing and scanned there
 * alone (the desktop header shows its links, scanned with the screen itself).
 */
async function scan(screen: Screen) {
  const context = await contextFor(screen.who);
  const page = await context.newPage();
  try {
    const target = screen.path === "FACILITY" ? facilityPath : screen.path;
    const response = await page.goto(`${baseUrl}${target}`);
    expect(response?.status(), target).toBe(screen.status ?? 200);
    const phoneOnly = screen.open === openPhoneMenu;
    if (!phoneOnly) {
      await screen.open?.(page);
      const violations = await axe(page);
      expect(violations, `${target} (desktop)\n${describeViolations(violations)}`).toEqual([]);
    }
    await page.setViewportSize(PHONE);
    await nextFrames(page);
    if (phoneOnly) await screen.open?.(page);
    const violations = await axe(page);
    expect(violations, `${target} (phone)\n${describeViolations(violations)}`).toEqual([]);
  } finally {
    await page.close();
  }
}

const name = (s: Screen) =>
  `${s.path}${s.open ? ` with ${s.open === openAmenities ? "the Amenities modal" : "the phone menu (phone only)"}` : ""} as ${s.who}`;

/** Why a screen is not scanned on this site, said in the report instead of passing silently. */
function reasonToSkip(screen: Screen): string | undefined {
  if (screen.who !== "visitor" && !fixtures)
    return "a site this run did not start (E2E_BASE_URL) has no fixture accounts to sign in with";
  return undefined;
}

// The scans of a group run a few at a time (vitest's maxConcurrency): one page loads and
// hydrates while another is being checked.
describe.concurrent("axe on every public screen, desktop and phone", () => {
  it.for(PUBLIC.map((s) => [name(s), s] as const))("%s", async ([, screen], { skip }) => {
    const reason = reasonToSkip(screen);
    if (reason) skip(reason);
    await scan(screen);
  });
});

describe.skipIf(!fixtures).concurrent("axe on every console screen, desktop and phone", () => {
  it.for([...ADMIN, ...OWNER].map((s) => [name(s), s] as const))("%s", async ([, screen], { skip }) => {
    const reason = reasonToSkip(screen);
    if (reason) skip(reason);
    await scan(screen);
  });
});
