import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserForThisFile, hydrated, newHumanContext } from "./browser";
import { screenshot } from "./screenshot";

/**
 * The home page's search suggestions (docs/product.md section 5, issue 32 item 3): typing a town
 * shows every suggestion the API gives, none cut off by the hero's edge, and 'Use my location'
 * stays visible and usable beside them, on a phone and on a desktop; the keyboard walks the whole
 * list and opens the place it stops on.
 */
const baseUrl = inject("baseUrl");
const browser = browserForThisFile();
const shots = process.env.SHOTS_DIR ?? ".tmp/screenshots";

/** Whether a person sees the element: the topmost element at its centre is it (or inside it), within the window. */
async function seen(page: Page, locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && (top === el || el.contains(top));
  });
}

const SIZES = [
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: "desktop", viewport: { width: 1366, height: 900 }, isMobile: false, hasTouch: false },
] as const;

describe("home search suggestions", () => {
  for (const size of SIZES) {
    it(`shows every suggestion and keeps 'Use my location' usable on a ${size.name}`, async () => {
      const context = await newHumanContext(browser(), {
        viewport: size.viewport,
        isMobile: size.isMobile,
        hasTouch: size.hasTouch,
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await hydrated(page);
      const box = page.getByRole("combobox");
      await box.click();
      await box.pressSequentially("San");
      const list = page.getByRole("listbox", { name: "Suggested places" });
      const options = list.getByRole("option");
      await expect.poll(() => options.count()).toBe(8);
      await screenshot(page, { path: `${shots}/home-suggestions-${size.name}.png` });

      // Every suggestion is on screen and on top: not clipped by the hero, not under anything.
      for (const option of await options.all()) expect(await seen(page, option)).toBe(true);
      // 'Use my location' is not covered by the list: it is below it, still there to press.
      const locate = page.getByRole("button", { name: "Use my location" });
      const listBox = (await list.boundingBox())!;
      const locateBox = (await locate.boundingBox())!;
      expect(locateBox.y).toBeGreaterThanOrEqual(listBox.y + listBox.height);
      expect(await seen(page, locate)).toBe(true);

      // The keyboard walks the whole list; the option it stops on is in view and opens its place.
      await box.focus();
      for (let i = 0; i < 8; i += 1) await box.press("ArrowDown");
      const last = options.nth(7);
      expect(await box.getAttribute("aria-activedescendant")).toBe(await last.getAttribute("id"));
      expect(await last.getAttribute("aria-selected")).toBe("true");
      expect(await seen(page, last)).toBe(true);
      const label = (await last.textContent())!.trim();
      await box.press("Enter");
      await page.waitForURL((url) => url.pathname.startsWith("/rv-storage/"));
      await page.getByRole("heading", { level: 1, name: /^Storage Locations in / }).waitFor();
      const [town] = label.split(",");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(town);
      await context.close();
    });
  }
});
