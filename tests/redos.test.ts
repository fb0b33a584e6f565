/**
 * No regular expression in the source tree may take super-linear time (docs/operations.md,
 * "Free text in URLs"). The test reads every source file under app/, domain/, server/ and
 * scripts/ (and server.js), extracts each regex literal and each `RegExp(...)` construction, and
 * checks it two ways: redos-detector proves that no two quantifiers can match the same text
 * (which is what makes a backtracking engine slow), and every pattern runs on long adversarial
 * strings built from its own characters. A pattern added later is covered without touching this
 * file; a construction whose text cannot be read statically fails the test, so it cannot slip past.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { isSafePattern } from "redos-detector";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "domain", "server", "scripts"];
const SOURCE_FILES = ["server.js"];
const SOURCE_EXTENSIONS = /\.(?:ts|tsx|js|mjs)$/;
/** Tests and generated data never see visitor input. */
const SKIPPED = [/\.test\.tsx?$/, /^server\/geo\/data\//];

interface FoundPattern {
  /** file:line, for the failure message. */
  where: string;
  source: string;
  flags: string;
}

interface Extraction {
  patterns: FoundPattern[];
  /** RegExp constructions whose pattern text is not a compile-time constant. */
  unreadable: string[];
}

function listSources(): string[] {
  const files: string[] = [...SOURCE_FILES];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (SOURCE_EXTENSIONS.test(name)) files.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return files.filter((path) => !SKIPPED.some((skip) => skip.test(path))).sort();
}

/**
 * The regex literals and `RegExp(...)` constructions of one file. Pattern strings are folded as
 * constants: string literals, templates (plain or `String.raw`), `+` and identifiers bound by a
 * `const` of the same file, which is how the codebase composes patterns (coordinates.ts).
 */
export function extractPatterns(fileName: string, text: string): Extraction {
  const kind = /\.[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const constants = new Map<string, ts.Expression>();
  const collect = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isVariableDeclarationList(node.parent) &&
      (node.parent.flags & ts.NodeFlags.Const) !== 0
    ) {
      constants.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, collect);
  };
  collect(file);

  const fold = (node: ts.Expression, seen: ReadonlySet<string> = new Set()): string | undefined => {
    if (ts.isParenthesizedExpression(node)) return fold(node.expression, seen);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = fold(node.left, seen);
      const right = fold(node.right, seen);
      return left === undefined || right === undefined ? undefined : left + right;
    }
    if (ts.isIdentifier(node)) {
      const init = constants.get(node.text);
      if (!init || seen.has(node.text)) return undefined;
      return fold(init, new Set([...seen, node.text]));
    }
    const raw =
      ts.isTaggedTemplateExpression(node) &&
      ts.isPropertyAccessExpression(node.tag) &&
      node.tag.getText(file) === "String.raw";
    const template = ts.isTaggedTemplateExpression(node) ? node.template : node;
    if (!(raw || ts.isTemplateExpression(node))) return undefined;
    const piece = (literal: ts.TemplateLiteralLikeNode) => (raw ? (literal.rawText ?? "") : literal.text);
    if (ts.isNoSubstitutionTemplateLiteral(template)) return piece(template);
    if (!ts.isTemplateExpression(template)) return undefined;
    let out = piece(template.head);
    for (const span of template.templateSpans) {
      const value = fold(span.expression, seen);
      if (value === undefined) return undefined;
      out += value + piece(span.literal);
    }
    return out;
  };

  const patterns: FoundPattern[] = [];
  const unreadable: string[] = [];
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(file);
      const end = literal.lastIndexOf("/");
      patterns.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    ) {
      const [patternArg, flagsArg] = node.arguments ?? [];
      const source = patternArg ? fold(patternArg) : undefined;
      const flags = flagsArg ? fold(flagsArg) : "";
      if (source === undefined || flags === undefined) unreadable.push(`${where(node)}: ${node.getText(file)}`);
      else patterns.push({ where: where(node), source, flags });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { patterns, unreadable };
}

/** redos-detector's verdict, with the pattern's own flags. */
function check(pattern: Pick<FoundPattern, "source" | "flags">) {
  return isSafePattern(pattern.source, {
    caseInsensitive: pattern.flags.includes("i"),
    unicode: pattern.flags.includes("u") || pattern.flags.includes("v"),
    dotAll: pattern.flags.includes("s"),
    multiLine: pattern.flags.includes("m"),
  });
}

/**
 * Runs in a worker thread (plain JavaScript, self-contained), so that a pattern that backtracks
 * without end can be stopped and named instead of freezing the test process. For each pattern it
 * builds long strings that make an ambiguous pattern backtrack: runs of one character, and of
 * every pair of characters, that the pattern mentions, bare and after a plausible start, each
 * ending in a character that makes the match fail at the last moment.
 */
function adversarialWorker(patterns: FoundPattern[], pumpLength: number, post: (message: unknown) => void): void {
  const escapes: Record<string, string> = { d: "5", s: " ", w: "a", D: "x", S: "x", W: "!", b: "" };
  let runs = 0;
  for (const p of patterns) {
    post({ working: p.where });
    const chars = new Set<string>([" ", "a", "5"]);
    for (let i = 0; i < p.source.length; i++) {
      const c = p.source[i] ?? "";
      if (c === "\\") {
        const next = p.source[++i] ?? "";
        chars.add(escapes[next] ?? next);
      } else if (!"[]()?*+{}|^$".includes(c)) chars.add(c);
    }
    chars.delete("");
    const alphabet = [...chars];
    const units = [...alphabet, ...alphabet.flatMap((a) => alphabet.map((b) => a + b))];
    const regex = new RegExp(p.source, p.flags.replace(/[gy]/g, ""));
    for (const unit of units) {
      const run = unit.repeat(Math.ceil(pumpLength / unit.length));
      for (const input of [`${run}!`, `${run}\u0000`, `1 ${run}!`, `1 ${run}\u0000`]) {
        regex.exec(input);
        runs++;
      }
    }
  }
  post({ done: runs });
}

const PUMP_LENGTH = 10_000;
/**
 * Not a performance limit: linear patterns finish these inputs in about a second; a pattern that
 * backtracks would run for hours. The limit only turns such a hang into a failure that names it.
 */
const HANG_LIMIT_MS = 60_000;

function runAdversarial(patterns: FoundPattern[]): Promise<{ done?: number; stuck?: string }> {
  const code = `const { parentPort, workerData } = require("node:worker_threads");
(${adversarialWorker.toString()})(workerData.patterns, workerData.pumpLength, (m) => parentPort.postMessage(m));`;
  const worker = new Worker(code, { eval: true, workerData: { patterns, pumpLength: PUMP_LENGTH } });
  return new Promise((resolve, reject) => {
    let working = "";
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ stuck: working });
    }, HANG_LIMIT_MS);
    worker.on("message", (message: { working?: string; done?: number }) => {
      if (message.working) working = message.working;
      if (message.done !== undefined) {
        clearTimeout(timer);
        void worker.terminate();
        resolve({ done: message.done });
      }
    });
    worker.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The extraction of the tree, read once. */
const tree = (() => {
  const found: Extraction = { patterns: [], unreadable: [] };
  for (const path of listSources()) {
    const { patterns, unreadable } = extractPatterns(path, readFileSync(join(ROOT, path), "utf8"));
    found.patterns.push(...patterns);
    found.unreadable.push(...unreadable);
  }
  return found;
})();

/**
 * The coordinate pattern as it was before this test (domain/coordinates.ts), `\s*` on both sides
 * of optional parts: "1", 400 spaces and "x" took 3.5 s, growing as the cube of the length.
 */
const OLD_COORDINATES_SOURCE = readFileSync(join(ROOT, "tests/fixtures/redos/old-coordinates.ts.txt"), "utf8");

describe("regular expressions in the source tree", () => {
  it("finds the patterns, and reads every RegExp construction", () => {
    expect(tree.unreadable).toEqual([]);
    // The coordinate parser builds its pattern from constants; the extraction must see through them.
    expect(tree.patterns.some((p) => p.where.startsWith("domain/coordinates.ts") && p.source.includes("°"))).toBe(true);
    expect(tree.patterns.length).toBeGreaterThan(50);
    for (const p of tree.patterns) expect(() => new RegExp(p.source, p.flags), p.where).not.toThrow();
  });

  it("flags the old coordinate pattern (the checker catches the bug this test was written for)", () => {
    const { patterns, unreadable } = extractPatterns("fixture.ts", OLD_COORDINATES_SOURCE);
    expect(unreadable).toEqual([]);
    expect(patterns).toHaveLength(1);
    const verdict = check(patterns[0]!);
    expect(verdict.safe).toBe(false);
    expect(verdict.score).toEqual({ infinite: true });
  });

  it("flags an unanchored pattern that rescans a run from every start ('\\s+[a-z]{2}$')", () => {
    // The engine retries an unanchored pattern at each position, so `\s+` then a failure is quadratic.
    expect(check({ source: String.raw`\s+[a-z]{2}$`, flags: "i" }).safe).toBe(false);
    expect(check({ source: String.raw`[^\w\s-]`, flags: "g" }).safe).toBe(true);
  });

  it("has no pattern in which two quantifiers can match the same text", () => {
    const unsafe = tree.patterns.filter((p) => !check(p).safe);
    expect(
      unsafe.map((p) => `${p.where}: /${p.source}/${p.flags}`),
      "rewrite these so that each piece owns its characters (see domain/coordinates.ts)",
    ).toEqual([]);
  });

  it("runs every pattern on long adversarial strings", { timeout: HANG_LIMIT_MS + 10_000 }, async () => {
    const result = await runAdversarial(tree.patterns);
    expect(result.stuck, "this pattern did not finish on an adversarial string").toBeUndefined();
    expect(result.done).toBeGreaterThan(tree.patterns.length);
  });
});
