/**
 * Loads the embedded gazetteer from `server/geo/data/` (Node only): a lazy singleton,
 * gunzipped and parsed synchronously on first use.
 *
 * The data directory is, in order: `$GAZETTEER_DIR`; `server/geo/data` under the working
 * directory (also right when this module is bundled into `build/server/index.js` and the server
 * runs from the project root); `data/` beside this module; `../../server/geo/data` from it.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import type { PlacesFile, StatesFile, ZipsFile } from "./data-format";
import { GAZETTEER_FILES } from "./data-format";
import type { Gazetteer, GazetteerData } from "./gazetteer";
import { createGazetteer } from "./gazetteer";

function hasData(dir: string): boolean {
  return fs.existsSync(path.join(dir, GAZETTEER_FILES.places));
}

function moduleRelative(relative: string): string | undefined {
  try {
    return fileURLToPath(new URL(relative, import.meta.url));
  } catch {
    return undefined; // Not a file: URL (e.g. bundled for another runtime).
  }
}

/** The directory holding the gazetteer files; throws with the places searched if none has them. */
export function resolveGazetteerDir(): string {
  const override = process.env.GAZETTEER_DIR;
  if (override) {
    const dir = path.resolve(override);
    if (!hasData(dir)) throw new Error(`GAZETTEER_DIR=${override}: no ${GAZETTEER_FILES.places} there`);
    return dir;
  }
  const candidates = [
    path.resolve(process.cwd(), "server/geo/data"),
    moduleRelative("./data/"),
    moduleRelative("../../server/geo/data/"),
  ].filter((d): d is string => d !== undefined);
  const found = candidates.find(hasData);
  if (!found) {
    throw new Error(
      `gazetteer data not found (looked in ${candidates.join(", ")}); run npm run gazetteer:build or set GAZETTEER_DIR`,
    );
  }
  return found;
}

function readGzJson<T>(dir: string, file: string): T {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, file))).toString("utf8")) as T;
}

export function readGazetteerData(dir: string = resolveGazetteerDir()): GazetteerData {
  return {
    places: readGzJson<PlacesFile>(dir, GAZETTEER_FILES.places),
    zips: readGzJson<ZipsFile>(dir, GAZETTEER_FILES.zips),
    states: readGzJson<StatesFile>(dir, GAZETTEER_FILES.states),
  };
}

/** Only the state outlines (the admin analytics map, server/geo/state-map.ts). */
export function readStatesFile(dir: string = resolveGazetteerDir()): StatesFile {
  return readGzJson<StatesFile>(dir, GAZETTEER_FILES.states);
}

/** A new gazetteer from the files in `dir` (tests and benchmarks; the app uses `getGazetteer`). */
export function loadGazetteer(dir?: string): Gazetteer {
  return createGazetteer(readGazetteerData(dir));
}

let singleton: Gazetteer | undefined;

/** The process-wide gazetteer, loaded on first call. */
export function getGazetteer(): Gazetteer {
  singleton ??= loadGazetteer();
  return singleton;
}
