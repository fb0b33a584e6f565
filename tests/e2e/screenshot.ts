import type { Locator, Page } from "playwright-core";

/**
 * Saves a picture of the page for a person to look at (the layout on a phone, a dialog, an error
 * state), when the run asks for them: `E2E_SCREENSHOTS=1 npm run test:e2e`. No test reads them, and
 * taking them cost a 2-core machine half a minute of every run (a full-page one 0.5-1 s), so a
 * plain `npm test` skips them.
 */
export async function screenshot(
  target: Page | Locator,
  options: NonNullable<Parameters<Page["screenshot"]>[0]> & { path: string },
): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  await target.screenshot(options);
}
