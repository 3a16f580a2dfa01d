/**
 * The layers rtok's code keeps, and a reader of which module reaches which: every relative
 * specifier a module names, statically, lazily (`import("./x.ts")`) or by URL
 * (`new URL("./x.ts", import.meta.url)`), type-only imports included. Shared by the
 * import-direction test and nothing else.
 *
 * @module
 */

// Every layer below the plugin lists and the surfaces, with what it may import.
const _BELOW: Readonly<Record<string, readonly string[]>> = {
  "core": ["migrations"],
  "filters": ["core"],
  "claude": ["core"],
  "hosts": ["core", "claude"],
  "rewrite": ["core", "claude", "filters", "hosts"],
  "content": ["core", "filters"],
  "replay": ["core", "claude"],
  "plugins/archive": ["core"],
  // The run pipeline (plan, execute, deliver): below the plugins that filter and the surfaces.
  "pipeline": ["core", "rewrite", "plugins/archive", "plugins/measure"],
  "plugins/measure": ["core"],
  "plugins/inject": ["core"],
  "plugins/cmd": ["core", "filters", "rewrite", "plugins/archive", "pipeline"],
  "plugins/proxy": ["core", "content"],
  "plugins/posttool": ["core", "content", "pipeline"],
  "plugins/memory": ["core", "claude"],
  "plugins/guard": ["core", "claude", "rewrite", "content", "plugins/graph"],
  "plugins/graph": ["core", "content"],
};

// Each plugin's folder, named once above: the lists and the surfaces reach them all.
const _PLUGINS = Object.keys(_BELOW).filter(_isPlugin);

/**
 * Which layers each layer may import, besides itself (docs/architecture.md, "Layers"). `src/core/`
 * imports only core (and its embedded migrations); `filters/` only filters and core; the
 * folders of `src/` point one way, so they form no cycle.
 */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  ..._BELOW,
  // The built-in plugin catalogue (src/plugins/catalogue.ts) composes the plugins.
  "plugins": ["core", ..._PLUGINS],
  "surfaces": [
    "core",
    "replay",
    "filters",
    "claude",
    "hosts",
    "rewrite",
    "content",
    "pipeline",
    "plugins",
    ..._PLUGINS,
  ],
};

// A plugin's own folder (`plugins/cmd`), not the lists that compose them (`plugins`).
function _isPlugin(layer: string): boolean {
  return layer.startsWith("plugins/");
}

/** The layer a repository path belongs to, or `null` outside the layered code. */
export function layerOf(path: string): string | null {
  const parts = path.split("/");
  if (parts[0] === "filters" || parts[0] === "migrations") return parts[0];
  if (parts[0] !== "src" || parts.length < 3) return null;
  if (parts[1] === "plugins") return parts.length > 3 ? `plugins/${parts[2]}` : "plugins";
  return parts[1];
}

// A relative specifier in code: `from "./x.ts"`, `import("./x.ts")`, `import "./x.ts"`,
// `new URL("./x.ts", import.meta.url)`, and a filter index's `_at("./x.ts")`.
const _SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*|\b_at\(\s*)["'](\.{1,2}\/[^"'`$]+)["']/g;

function _dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** `spec` from the module at `from`, as a repository path. */
export function resolvePath(from: string, spec: string): string {
  const parts = _dirname(from).split("/").filter((p) => p !== "");
  for (const p of spec.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/** The repository paths `source` (the module at `path`) names, comments left out. */
export function importsOf(path: string, source: string): string[] {
  // Comments name modules in examples (`lazyImport<typeof import("./x.ts")>`): not imports.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(_SPECIFIER)].map((m) => resolvePath(path, m[1]));
}

/**
 * Every import of `modules` (repository path → source) that crosses layers against
 * {@linkcode ALLOWED}, as `"<from> → <to>: <layer> may not import <layer>"`; and every import
 * into a private helper of another folder (`filters/_text.ts` from `src/`); and every import of
 * one plugin's module by another plugin but its public `mod.ts` (a plugin may use another
 * plugin's `mod.ts`, as a program built on rtok would; what lies behind it is that plugin's own).
 */
export function layerViolations(modules: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [from, source] of modules) {
    const a = layerOf(from);
    if (a === null) continue;
    for (const to of importsOf(from, source)) {
      const b = layerOf(to);
      if (b === null) {
        out.push(`${from} → ${to}: ${a} may not import what lies outside the layers`);
        continue;
      }
      const name = to.slice(to.lastIndexOf("/") + 1);
      // A folder's private helpers serve it and the folders under it (`surfaces/dashboard/`).
      if (name.startsWith("_") && !`${_dirname(from)}/`.startsWith(`${_dirname(to)}/`)) {
        out.push(`${from} → ${to}: a private helper of ${_dirname(to)}/`);
      }
      if (a !== b && !(ALLOWED[a] ?? []).includes(b)) {
        out.push(`${from} → ${to}: ${a} may not import ${b}`);
      } else if (_isPlugin(a) && _isPlugin(b) && a !== b && name !== "mod.ts") {
        out.push(`${from} → ${to}: a plugin imports another plugin only through its mod.ts`);
      }
    }
  }
  return out;
}

// What a path of `src/surfaces/` is: the command table, a shared helper (`_io.ts`, `_gain/…`),
// or a command (`gain` for `gain.ts` and for everything in `gain/`).
function _surfaceUnit(path: string): { kind: "table" | "shared" | "command"; name: string } | null {
  const prefix = "src/surfaces/";
  if (!path.startsWith(prefix)) return null;
  const top = path.slice(prefix.length).split("/")[0];
  if (top === "mod.ts") return { kind: "table", name: "mod.ts" };
  if (top.startsWith("_")) return { kind: "shared", name: top };
  return { kind: "command", name: top.replace(/\.ts$/, "") };
}

/**
 * Every import among `modules` by which one surface reaches another, as
 * `"<from> → <to>: <what> imports the surface <name>"`. A surface is a command: a module directly
 * in `src/surfaces/` not starting with `_` (`gain.ts`), or anything in a command's folder
 * (`gain/`). A command imports only its own files and the shared `_` helpers; a shared helper
 * imports no command; the command table (`src/surfaces/mod.ts`) loads every command and is
 * imported by none of them.
 */
export function surfaceCrossings(modules: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [from, source] of modules) {
    const a = _surfaceUnit(from);
    if (a === null || a.kind === "table") continue;
    for (const to of new Set(importsOf(from, source))) {
      const b = _surfaceUnit(to);
      if (b === null || b.kind === "shared" || (a.kind === "command" && a.name === b.name)) {
        continue;
      }
      const what = a.kind === "command" ? `the surface ${a.name}` : `the shared helper ${a.name}`;
      out.push(
        `${from} → ${to}: ${what} imports ${
          b.kind === "table" ? "the command table" : `the surface ${b.name}`
        }`,
      );
    }
  }
  return out;
}

// SQL that reads or writes rows, in a string: `SELECT … FROM`, `INSERT INTO`, `UPDATE … SET`,
// `DELETE FROM`, `CREATE TABLE`. Transaction control (`SAVEPOINT`, `PRAGMA`) is not a query.
const _SQL =
  /\bSELECT\b[^`"';]*?\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\bCREATE\s+(?:VIRTUAL\s+)?TABLE\b/;

/**
 * Every module of `modules` in a layer that must not query the store itself (`surfaces`: the
 * ledger's queries live in the measure plugin, the proxy's in the proxy plugin), with the SQL
 * it holds, as `"<path>: <sql>"`.
 */
export function sqlOutsidePlugins(modules: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, source] of modules) {
    if (layerOf(path) !== "surfaces") continue;
    const m = _SQL.exec(source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, ""));
    if (m) out.push(`${path}: ${m[0].replace(/\s+/g, " ")}`);
  }
  return out;
}

/** The layers of `ALLOWED`'s graph in a cycle, as one string per cycle found; none when acyclic. */
export function layerCycles(allowed: Readonly<Record<string, readonly string[]>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const walk = (node: string, trail: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "open");
    for (const next of allowed[node] ?? []) walk(next, [...trail, node]);
    state.set(node, "done");
  };
  for (const node of Object.keys(allowed)) walk(node, []);
  return cycles;
}

/**
 * The circles among `modules`' files (repository path → source): a module that, through its
 * imports, type-only ones included, imports itself. One string per circle found.
 */
export function fileCycles(modules: ReadonlyMap<string, string>): string[] {
  const graph: Record<string, string[]> = {};
  for (const [path, source] of modules) {
    graph[path] = importsOf(path, source).filter((to) => modules.has(to));
  }
  return [...new Set(layerCycles(graph))];
}
