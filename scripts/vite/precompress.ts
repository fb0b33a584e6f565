/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every script and stylesheet of the
 * browser build, compressed once at build time as hard as each format allows (Brotli quality 11;
 * gzip by Zopfli, about 3% smaller than zlib's best), so the server sends them without compressing
 * per request (server.js, express-static-gzip). docs/decisions/027-page-weight-by-design.md says
 * why here and not with a plugin from npm.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|css|svg|json)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);

async function compressFile(file: string): Promise<void> {
  const body = await fs.readFile(file);
  if (body.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    // More iterations gain a few bytes in a megabyte at several times the time.
    gzipAsync(body, { numiterations: 5 }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
}

export function precompressAssets(): Plugin {
  return {
    name: "precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      // Assets only: React Router reads, then deletes, Vite's own manifest.
      const files = Object.keys(bundle).filter((name) => name.startsWith("assets/") && COMPRESSIBLE.test(name));
      // Two at a time: Zopfli is CPU-bound, and the build machine may have two cores.
      for (let i = 0; i < files.length; i += 2) {
        await Promise.all(files.slice(i, i + 2).map((name) => compressFile(path.join(dir, name))));
      }
    },
  };
}
