/**
 * The project's layer rules for ESLint (docs/architecture.md, "Layers"): `no-import-from` keeps a
 * layer from importing the ones above it, and `no-import-cycle` fails on any import circle among
 * the project's own modules: a circle means two modules are one module in two files, and it hides
 * a layer that points back up. Type-only imports count too: they tie the files together for a
 * reader as much as value imports do.
 *
 * The graph is read once per ESLint run from the files on disk (relative imports only, found by
 * TypeScript's own pre-parser, which sees `import`, `export ... from` and `import()`); each file in
 * a circle is reported at the import that closes it, with the whole circle in the message.
 * `node scripts/eslint/layers.js` prints every circle without ESLint.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const FOLDERS = ["app", "server", "domain", "scripts", "tests"];
const SKIP = new Set(["node_modules", "build", "data", ".react-router", "coverage", ".tmp"]);
const SOURCE = /\.(ts|tsx|js|mjs)$/;
const CANDIDATES = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"];

function sourceFiles(root) {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (SKIP.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(full);
    }
  };
  for (const folder of FOLDERS) walk(path.join(root, folder));
  return found;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The project file a relative specifier names, or undefined (packages, generated types). */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier.split("?")[0]);
  for (const suffix of CANDIDATES) if (SOURCE.test(base + suffix) && isFile(base + suffix)) return base + suffix;
  return undefined;
}

function importsOf(file) {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const target = resolveImport(file, fileName);
    if (target) targets.add(target);
  }
  return targets;
}

/** Strongly connected components (Tarjan), keeping those that are circles. */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (root) => {
    // Iterative, so that a deep import chain cannot overflow the stack.
    const work = [[root, [...(graph.get(root) ?? [])], 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const target = edges[frame[2]++];
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...graph.get(target)], 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || graph.get(node).has(node)) found.push(new Set(component));
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The import graph of the project and, for each file in a circle, its circle. */
export function importCircles(root) {
  const graph = new Map(sourceFiles(root).map((file) => [file, importsOf(file)]));
  const circleOf = new Map();
  for (const component of circles(graph)) for (const file of component) circleOf.set(file, component);
  return { graph, circleOf };
}

/** The shortest way from `from` back to `to` inside one circle, as file paths. */
function pathWithin(graph, component, from, to) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === to) break;
    for (const target of graph.get(file) ?? []) {
      if (component.has(target) && !previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  const way = [];
  for (let at = to; at !== undefined; at = previous.get(at)) way.unshift(at);
  return way;
}

let cached;
function project(root) {
  if (cached?.root !== root) cached = { root, ...importCircles(root) };
  return cached;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import circles among the project's own modules" },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const { graph, circleOf } = project(root);
    const component = circleOf.get(file);
    if (!component) return {};
    const check = (node, source) => {
      if (typeof source !== "string") return;
      const target = resolveImport(file, source);
      if (!target || !component.has(target)) return;
      const way = [file, ...pathWithin(graph, component, target, file).slice(0)].map((f) => path.relative(root, f));
      context.report({ node, message: `Import circle: ${way.join(" -> ")}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

/**
 * Forbids imports that resolve into the named top-level folders (`{ forbidden: ["app"] }`), the
 * files it applies to being chosen by the config block. Checked on the resolved file, not on the
 * specifier's text, so `../app` from server/http/ (server/app.ts) is told apart from `../app`
 * from server/ (the app/ folder).
 */
/** @type {import("eslint").Rule.RuleModule} */
export const noImportFrom = {
  meta: {
    type: "problem",
    docs: { description: "Forbid imports into the layers above" },
    schema: [
      {
        type: "object",
        properties: { forbidden: { type: "array", items: { type: "string" } }, message: { type: "string" } },
        required: ["forbidden"],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const [{ forbidden, message = "" }] = context.options;
    const root = context.cwd;
    const file = context.filename;
    const check = (node, source) => {
      if (typeof source !== "string") return;
      const target = resolveImport(file, source);
      if (!target) return;
      const folder = path.relative(root, target).split(path.sep)[0];
      if (forbidden.includes(folder))
        context.report({
          node,
          message: `${path.relative(root, file)} may not import ${folder}/ (${source}). ${message}`.trim(),
        });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const { graph, circleOf } = importCircles(root);
  const seen = new Set();
  for (const component of circleOf.values()) {
    if (seen.has(component)) continue;
    seen.add(component);
    console.log([...component].map((f) => path.relative(root, f)).join("  "));
  }
  console.log(`${graph.size} files, ${seen.size} circles`);
  process.exitCode = seen.size > 0 ? 1 : 0;
}
