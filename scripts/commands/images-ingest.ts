/**
 * npm run images:ingest -- DIR [--dry-run]
 *
 * Exit codes: 0 every photo used, 2 some files or folders skipped (the rest are stored unless
 * --dry-run), 1 a fatal error (bad usage, missing DIR, database unavailable or locked).
 */
import { parseConfig } from "../../server/config";
import { notifyLocationsChanged } from "../../server/search";
import { parseSingleTargetCommand, writeLine, type CliIo, type CliSpec, withCommandDatabase } from "../../server/cli";
import { imageStorageFor } from "../../server/images";
import {
  assertIngestDirectory,
  formatIngestSummary,
  formatPlaceReport,
  ingestExitCode,
  ingestPlaceImages,
} from "../../server/images/ingest";

const USAGE = `Usage: npm run images:ingest -- DIR [--dry-run]

Processes original photos into the site's image files. DIR holds one folder per place id, each
with that place's photos (JPEG, PNG, WebP, AVIF, HEIF, GIF, TIFF or SVG; at most 25 MB and 40
megapixels each). Photos are numbered in file-name order; each becomes 320, 640, 960 and 1280 px
wide AVIF, WebP and JPEG files under DATA_DIR/place-images/{placeId}/, and the location's
image_count and image_urls are updated. Broken files and unknown place ids are reported and
skipped; stored photos numbered above a place's new count are removed.

Options:
  --dry-run   validate every photo and place id, write nothing
  -h, --help  show this help

Exit codes: 0 all photos used, 2 some files or folders skipped, 1 fatal error.
The database is the one the site uses (DATABASE_URL, else the embedded one in DATA_DIR); the
embedded one can only be open in one process, so stop the site first.`;

function parseCommandLine(argv: string[]) {
  const parsed = parseSingleTargetCommand(argv, "DIR", { "dry-run": { type: "boolean", default: false } });
  if (parsed === "help") return parsed;
  return { dir: parsed.target, dryRun: parsed.values["dry-run"] === true };
}

type IngestCommand = Exclude<ReturnType<typeof parseCommandLine>, "help">;

async function run(command: IngestCommand, io: CliIo): Promise<number> {
  // The directory is checked before the database is opened, so a typo costs nothing.
  await assertIngestDirectory(command.dir);
  const config = parseConfig(io.env);
  return withCommandDatabase(config, async (db) => {
    const report = await ingestPlaceImages(db, imageStorageFor(config), command.dir, {
      dryRun: command.dryRun,
      concurrency: 2,
      onPlace: (place) => writeLine(io.stdout, formatPlaceReport(place, command.dryRun)),
    });
    writeLine(io.stdout, formatIngestSummary(report));
    // The first photo is part of each search result: let a running site (PostgreSQL) rebuild.
    if (!command.dryRun) await notifyLocationsChanged(db, { refreshLocal: false });
    return ingestExitCode(report);
  });
}

export const imagesIngestCommand: CliSpec<IngestCommand> = {
  usage: USAGE,
  failure: "Image ingest failed",
  parse: parseCommandLine,
  run,
};
