/** Names and defaults shared by page metadata and layout. */
export const SITE_NAME = "RV Storage Finder";
export const SITE_TAGLINE = "Find RV storage near you";
export const SITE_DESCRIPTION =
  "Compare RV, camper and boat storage facilities across the USA: sizes, covered parking, security, hours and reviews.";

/** Page title in the site's one format. */
export function pageTitle(title?: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME}: ${SITE_TAGLINE}`;
}
