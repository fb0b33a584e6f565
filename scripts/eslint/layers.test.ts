import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noImportCycle, noImportFrom } from "./layers.js";

/** A small project on disk: the rules read the import graph from files, as in a real run. */
const FILES: Record<string, string> = {
  "domain/words.js": "export const WORDS = 1;\n",
  "domain/upward.js": 'import { APP } from "../app/page.js";\nexport const UP = APP;\n',
  "server/app.js": 'import { WORDS } from "../domain/words.js";\nexport const SERVER = WORDS;\n',
  "server/http/glue.js": 'import { SERVER } from "../app.js";\nexport const GLUE = SERVER;\n',
  "server/reaches-up.js": 'import { APP } from "../app/page.js";\nexport const R = APP;\n',
  "server/ring/a.js": 'import { B } from "./b.js";\nexport const A = () => B;\n',
  "server/ring/b.js": 'import { C } from "./c.js";\nexport const B = () => C;\n',
  "server/ring/c.js": 'export const C = () => import("./a.js");\n',
  "app/page.js": 'import { SERVER } from "../server/app.js";\nexport const APP = SERVER;\n',
};

let root: string;
let eslint: ESLint;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const layers = { rules: { "no-import-cycle": noImportCycle, "no-import-from": noImportFrom } };
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ["**/*.js"], plugins: { layers }, rules: { "layers/no-import-cycle": "error" } },
      { files: ["server/**"], rules: { "layers/no-import-from": ["error", { forbidden: ["app"] }] } },
      { files: ["domain/**"], rules: { "layers/no-import-from": ["error", { forbidden: ["app", "server"] }] } },
    ],
  });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function problems(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(root, file)]);
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("layers/no-import-from", () => {
  it("refuses an import into a layer above, told by the file it resolves to", async () => {
    expect(await problems("server/reaches-up.js")).toEqual([
      "layers/no-import-from: server/reaches-up.js may not import app/ (../app/page.js).",
    ]);
    expect(await problems("domain/upward.js")).toEqual([
      "layers/no-import-from: domain/upward.js may not import app/ (../app/page.js).",
    ]);
  });

  it("lets server/http/ import ../app.js, which is server/app.js, and app/ import server/", async () => {
    expect(await problems("server/http/glue.js")).toEqual([]);
    expect(await problems("app/page.js")).toEqual([]);
    expect(await problems("server/app.js")).toEqual([]);
  });
});

describe("layers/no-import-cycle", () => {
  it("reports every file of a circle, dynamic imports included, with the whole circle", async () => {
    expect(await problems("server/ring/a.js")).toEqual([
      "layers/no-import-cycle: Import circle: server/ring/a.js -> server/ring/b.js -> server/ring/c.js -> server/ring/a.js",
    ]);
    expect(await problems("server/ring/c.js")).toEqual([
      "layers/no-import-cycle: Import circle: server/ring/c.js -> server/ring/a.js -> server/ring/b.js -> server/ring/c.js",
    ]);
  });

  it("leaves a chain that does not come back alone", async () => {
    expect(await problems("server/http/glue.js")).toEqual([]);
    expect(await problems("domain/words.js")).toEqual([]);
  });
});
