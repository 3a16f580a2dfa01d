/**
 * Lockfiles read as what they pin: the kind and format version, the count of packages, the
 * direct dependencies with the versions the lockfile resolved them to (where it says which
 * are direct), and every package as `name@version` (versions of one name joined by commas)
 * when that list fits in {@linkcode LOCK_LIST_CAP} chars, else counts by scope or prefix.
 * What goes is what an agent rarely needs from a lockfile: resolved URLs, integrity hashes,
 * dependency ranges, engines and platform markers (all in the archive).
 *
 * ```text
 * package-lock.json: npm lockfile v3, 229 packages
 * direct: @babel/core@7.29.17 express@4.22.3 lodash@4.18.1
 * direct (dev): typescript@5.9.3 vitest@1.6.1
 * packages: @ampproject/remapping@2.3.0 @babel/code-frame@7.29.17 …
 * ```
 *
 * Kinds read: package-lock.json and npm-shrinkwrap.json (v1 to v3), yarn.lock (v1 and berry),
 * pnpm-lock.yaml (v5 to v9), Cargo.lock, poetry.lock, uv.lock, Gemfile.lock, go.sum and
 * composer.lock. Direct dependencies are named only where the lockfile itself records them:
 * package-lock v2/v3 (`packages[""]`), yarn berry (the root workspace's entry), pnpm
 * (importers), Cargo.lock and uv.lock (the packages without a registry source), Gemfile.lock
 * (`DEPENDENCIES`). A version is printed only as the lockfile writes it; a direct dependency
 * the lockfile does not resolve is printed with its range and `unresolved`. pnpm's peer suffix
 * (`1.2.3(react@18.2.0)`) is left off the version, which is what precedes it.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import type { Filtered } from "../core/filter.ts";
import { estimate } from "../core/tokens.ts";
import { basename, type LockfileKind, lockfileKind } from "./text_kind.ts";

export { type LockfileKind, lockfileKind };

/** The package list is written whole when it fits in this many chars, else counted by prefix. */
export const LOCK_LIST_CAP = 6_000;
/** Lines of the summary are wrapped at this width. */
export const LOCK_LINE_WIDTH = 100;

/** What a lockfile pins, as read. */
export interface LockSummary {
  /** The file's name as given (its last path segment). */
  readonly file: string;
  /** The kind, from the file's name. */
  readonly kind: LockfileKind;
  /** The format version the file states (`v3`, `9.0`), or `null` when it states none. */
  readonly version: string | null;
  /** Every package version, as `[name, version]`, in file order (duplicates removed). */
  readonly packages: readonly (readonly [string, string])[];
  /** Direct dependencies by group (`""` for the main one), or `null` where not recorded. */
  readonly direct: ReadonlyMap<string, readonly string[]> | null;
  /** Local packages (workspace members, the project itself), as `name@version` or `name`. */
  readonly local: readonly string[];
}

const _LABELS: Readonly<Record<LockfileKind, string>> = {
  npm: "npm lockfile",
  yarn: "yarn lockfile",
  pnpm: "pnpm lockfile",
  cargo: "Cargo lockfile",
  poetry: "Poetry lockfile",
  uv: "uv lockfile",
  bundler: "Bundler lockfile",
  go: "Go checksums",
  composer: "Composer lockfile",
};

type _Json = Record<string, unknown>;
const _isObj = (v: unknown): v is _Json => typeof v === "object" && v !== null && !Array.isArray(v);
const _str = (v: unknown): string | null => (typeof v === "string" ? v : null);

// Collects package versions in first-seen order, each pair once.
class _Packages {
  readonly list: [string, string][] = [];
  readonly #seen = new Set<string>();
  add(name: string, version: string | null | undefined): void {
    if (!name || !version) return;
    const key = `${name}\u0000${version}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.list.push([name, version]);
  }
  versionsOf(name: string): string[] {
    return this.list.filter(([n]) => n === name).map(([, v]) => v);
  }
}

// `name@1.2.3`, `name@1.0.0,2.0.0` when the name has several, or `name (^1.0 unresolved)`.
function _direct(name: string, versions: readonly string[], range?: string | null): string {
  if (versions.length) return `${name}@${versions.join(",")}`;
  return range ? `${name} (${range} unresolved)` : `${name} (unresolved)`;
}

function _npm(text: string, pk: _Packages, direct: Map<string, string[]>): string | null {
  const doc = JSON.parse(text);
  if (!_isObj(doc)) throw new SyntaxError("not an object");
  const version = typeof doc.lockfileVersion === "number" ? `v${doc.lockfileVersion}` : null;
  if (_isObj(doc.packages)) {
    for (const [path, entry] of Object.entries(doc.packages)) {
      if (path === "" || !_isObj(entry) || entry.link) continue;
      const at = path.lastIndexOf("node_modules/");
      if (at < 0) continue; // a workspace member's own folder: named by its link
      pk.add(_str(entry.name) ?? path.slice(at + 13), _str(entry.version));
    }
    const root = doc.packages[""];
    if (_isObj(root)) {
      const groups = [
        ["dependencies", ""],
        ["devDependencies", "dev"],
        ["optionalDependencies", "optional"],
        ["peerDependencies", "peer"],
      ] as const;
      for (const [field, group] of groups) {
        const deps = root[field];
        if (!_isObj(deps)) continue;
        const out: string[] = [];
        for (const [name, range] of Object.entries(deps)) {
          const entry = (doc.packages as _Json)[`node_modules/${name}`];
          if (_isObj(entry) && entry.link && _str(entry.resolved)) {
            out.push(`${name} → ${entry.resolved} (link)`);
          } else {
            const v = _isObj(entry) ? _str(entry.version) : null;
            out.push(_direct(name, v ? [v] : [], _str(range)));
          }
        }
        if (out.length) direct.set(group, out);
      }
    }
  } else if (_isObj(doc.dependencies)) {
    // v1: a tree of `dependencies`, nothing saying which are direct.
    const walk = (deps: _Json, depth: number) => {
      if (depth > 64) return;
      for (const [name, entry] of Object.entries(deps)) {
        if (!_isObj(entry)) continue;
        pk.add(name, _str(entry.version));
        if (_isObj(entry.dependencies)) walk(entry.dependencies, depth + 1);
      }
    };
    walk(doc.dependencies, 0);
  }
  return version;
}

function _composer(text: string, pk: _Packages): string | null {
  const doc = JSON.parse(text);
  if (!_isObj(doc)) throw new SyntaxError("not an object");
  for (const field of ["packages", "packages-dev"]) {
    const list = doc[field];
    if (!Array.isArray(list)) continue;
    for (const p of list) if (_isObj(p)) pk.add(_str(p.name) ?? "", _str(p.version));
  }
  const api = _str(doc["plugin-api-version"]);
  return api ? `plugin API ${api}` : null;
}

// The name of a yarn descriptor (`@babel/core@npm:^7.0.0`, `lodash@^4.17.21`): all before
// the first `@` that is not its first char.
function _descriptorName(d: string): string {
  const at = d.indexOf("@", 1);
  return at < 0 ? d : d.slice(0, at);
}

function _unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) {
    return t[0] === '"'
      ? t.slice(1, -1).replace(/\\(.)/g, "$1")
      : t.slice(1, -1).replaceAll("''", "'");
  }
  return t;
}

type _Yaml = { [key: string]: _Yaml | string };

// The block-mapping subset of YAML that pnpm and yarn berry lockfiles are written in: nested
// `key: value` and `key:` lines by indent; list items and comments are skipped, flow values
// (`{…}`, `[…]`) kept as text.
function _yaml(text: string): _Yaml {
  const root: _Yaml = {};
  const stack: { ind: number; obj: _Yaml }[] = [{ ind: -1, obj: root }];
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const content = line.trimStart();
    if (content === "" || content[0] === "#" || content.startsWith("- ") || content === "-") {
      continue;
    }
    const ind = line.length - content.length;
    let keyEnd: number;
    if (content[0] === '"' || content[0] === "'") {
      keyEnd = content.indexOf(content[0], 1);
      while (keyEnd > 0 && content[0] === '"' && content[keyEnd - 1] === "\\") {
        keyEnd = content.indexOf('"', keyEnd + 1);
      }
      if (keyEnd < 0) continue;
      keyEnd++;
    } else {
      const m = /:(\s|$)/.exec(content);
      if (!m) continue;
      keyEnd = m.index;
    }
    if (content[keyEnd] !== ":") continue;
    const key = _unquote(content.slice(0, keyEnd));
    const rest = content.slice(keyEnd + 1).trim();
    while (stack[stack.length - 1].ind >= ind) stack.pop();
    const parent = stack[stack.length - 1].obj;
    if (rest === "") {
      const obj: _Yaml = {};
      parent[key] = obj;
      stack.push({ ind, obj });
    } else parent[key] = _unquote(rest);
  }
  return root;
}

const _isMap = (v: _Yaml | string | undefined): v is _Yaml => typeof v === "object";

// `1.2.3(react@18.2.0)` → `1.2.3`; v5's `1.2.3_react@18.2.0` → `1.2.3`.
function _pnpmVersion(v: string, v5: boolean): string {
  const paren = v.indexOf("(");
  const cut = paren >= 0 ? v.slice(0, paren) : v;
  return v5 && !cut.includes(":") ? cut.replace(/_.*$/, "") : cut;
}

function _pnpm(text: string, pk: _Packages, direct: Map<string, string[]>): string | null {
  const doc = _yaml(text);
  const version = typeof doc.lockfileVersion === "string" ? doc.lockfileVersion : null;
  const v5 = version !== null && Number.parseFloat(version) < 6;
  if (_isMap(doc.packages)) {
    for (const key of Object.keys(doc.packages)) {
      const k = key.startsWith("/") ? key.slice(1) : key;
      const paren = k.indexOf("(");
      const bare = paren >= 0 ? k.slice(0, paren) : k;
      const at = v5 ? bare.lastIndexOf("/") : bare.lastIndexOf("@");
      if (at <= 0) continue;
      pk.add(bare.slice(0, at), _pnpmVersion(bare.slice(at + 1), v5));
    }
  }
  const importers: [string, _Yaml][] = _isMap(doc.importers)
    ? Object.entries(doc.importers).filter((e): e is [string, _Yaml] => _isMap(e[1]))
    : [[".", doc]];
  const groups = [
    ["dependencies", ""],
    ["devDependencies", "dev"],
    ["optionalDependencies", "optional"],
  ] as const;
  for (const [path, imp] of importers) {
    for (const [field, group] of groups) {
      const deps = imp[field];
      if (!_isMap(deps)) continue;
      const label = [group, importers.length > 1 ? path : ""].filter(Boolean).join(" ");
      const out = direct.get(label) ?? [];
      for (const [name, spec] of Object.entries(deps)) {
        const v = _isMap(spec) ? spec.version : spec;
        const range = _isMap(spec) && typeof spec.specifier === "string" ? spec.specifier : null;
        out.push(
          typeof v === "string" ? `${name}@${_pnpmVersion(v, v5)}` : _direct(name, [], range),
        );
      }
      if (out.length) direct.set(label, out);
    }
  }
  return version;
}

function _yarnBerry(text: string, pk: _Packages, direct: Map<string, string[]>, local: string[]) {
  const doc = _yaml(text);
  const meta = doc.__metadata;
  const byDescriptor = new Map<string, string>();
  let root: _Yaml | null = null;
  for (const [key, entry] of Object.entries(doc)) {
    if (key === "__metadata" || !_isMap(entry) || typeof entry.version !== "string") continue;
    const descriptors = key.split(",").map((d) => d.trim());
    const name = _descriptorName(descriptors[0]);
    const resolution = typeof entry.resolution === "string" ? entry.resolution : "";
    if (resolution.includes("@workspace:")) {
      local.push(name);
      if (resolution.endsWith("@workspace:.")) root = entry;
      continue;
    }
    pk.add(name, entry.version);
    for (const d of descriptors) byDescriptor.set(d, entry.version);
  }
  if (root && _isMap(root.dependencies)) {
    direct.set(
      "",
      Object.entries(root.dependencies).map(([name, range]) => {
        const r = typeof range === "string" ? range : "";
        const v = byDescriptor.get(`${name}@${r}`);
        return _direct(name, v ? [v] : [], r);
      }),
    );
  }
  return _isMap(meta) && typeof meta.version === "string"
    ? `berry (format ${meta.version})`
    : "berry";
}

function _yarnV1(text: string, pk: _Packages): string {
  let name: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line === "" || line.startsWith("#")) continue;
    if (!line.startsWith(" ") && line.endsWith(":")) {
      name = _descriptorName(_unquote(line.slice(0, -1).split(",")[0]));
      continue;
    }
    const m = /^ {2}version "?([^"]+)"?$/.exec(line);
    if (m && name) {
      pk.add(name, m[1]);
      name = null;
    }
  }
  return "v1";
}

type _TomlPkg = {
  name?: unknown;
  version?: unknown;
  source?: unknown;
  dependencies?: unknown;
  "dev-dependencies"?: unknown;
  "optional-dependencies"?: unknown;
};

function _cargo(text: string, pk: _Packages, direct: Map<string, string[]>, local: string[]) {
  const doc = parseToml(text) as { version?: unknown; package?: _TomlPkg[] };
  const packages = Array.isArray(doc.package) ? doc.package : [];
  const roots: _TomlPkg[] = [];
  for (const p of packages) {
    const name = _str(p.name);
    const version = _str(p.version);
    if (!name) continue;
    // No source: a path or workspace member, so its dependencies are the direct ones.
    if (p.source === undefined) {
      roots.push(p);
      local.push(version ? `${name}@${version}` : name);
    } else pk.add(name, version);
  }
  const localNames = new Set(roots.map((r) => _str(r.name)));
  const out = new Set<string>();
  for (const r of roots) {
    for (const d of Array.isArray(r.dependencies) ? r.dependencies : []) {
      if (typeof d !== "string") continue;
      const [name, version] = d.split(" ");
      if (localNames.has(name)) continue;
      out.add(_direct(name, version ? [version] : pk.versionsOf(name)));
    }
  }
  if (out.size) direct.set("", [...out].sort());
  return typeof doc.version === "number" ? `v${doc.version}` : null;
}

function _poetry(text: string, pk: _Packages): string | null {
  const doc = parseToml(text) as { package?: _TomlPkg[]; metadata?: Record<string, unknown> };
  for (const p of Array.isArray(doc.package) ? doc.package : []) {
    pk.add(_str(p.name) ?? "", _str(p.version));
  }
  const v = doc.metadata?.["lock-version"];
  return typeof v === "string" ? v : null;
}

function _uv(text: string, pk: _Packages, direct: Map<string, string[]>, local: string[]) {
  const doc = parseToml(text) as { version?: unknown; revision?: unknown; package?: _TomlPkg[] };
  const packages = Array.isArray(doc.package) ? doc.package : [];
  const roots: _TomlPkg[] = [];
  for (const p of packages) {
    const name = _str(p.name);
    if (!name) continue;
    const src = _isObj(p.source) ? p.source : {};
    if ("editable" in src || "virtual" in src || "workspace" in src) {
      roots.push(p);
      local.push(_str(p.version) ? `${name}@${p.version}` : name);
    } else pk.add(name, _str(p.version));
  }
  const localNames = new Set(roots.map((r) => _str(r.name)));
  // Group → name → the versions its entries pin (one name may be pinned per marker).
  const groups = new Map<string, Map<string, Set<string>>>();
  const add = (group: string, deps: unknown) => {
    if (!Array.isArray(deps)) return;
    const names = groups.get(group) ?? new Map<string, Set<string>>();
    groups.set(group, names);
    for (const d of deps) {
      if (!_isObj(d) || !_str(d.name) || localNames.has(d.name as string)) continue;
      const name = d.name as string;
      const versions = names.get(name) ?? new Set<string>();
      names.set(name, versions);
      for (const v of _str(d.version) ? [d.version as string] : pk.versionsOf(name)) {
        versions.add(v);
      }
    }
  };
  for (const r of roots) {
    add("", r.dependencies);
    for (const field of ["optional-dependencies", "dev-dependencies"] as const) {
      const byGroup = r[field];
      if (!_isObj(byGroup)) continue;
      for (const [g, deps] of Object.entries(byGroup)) {
        add(field === "dev-dependencies" ? g : `extra ${g}`, deps);
      }
    }
  }
  for (const [group, names] of groups) {
    if (names.size) direct.set(group, [...names].map(([n, vs]) => _direct(n, [...vs])));
  }
  const v = typeof doc.version === "number" ? `v${doc.version}` : null;
  return v && typeof doc.revision === "number" ? `${v} revision ${doc.revision}` : v;
}

function _bundler(text: string, pk: _Packages, direct: Map<string, string[]>): string | null {
  let section = "";
  let bundled: string | null = null;
  const deps: [string, string | null][] = [];
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (/^[A-Z]/.test(line)) {
      section = line.trim();
      continue;
    }
    let m: RegExpExecArray | null;
    if (["GEM", "GIT", "PATH", "PLUGIN SOURCE"].includes(section)) {
      if ((m = /^ {4}([^ (]+) \(([^)]+)\)$/.exec(line))) pk.add(m[1], m[2]);
    } else if (section === "DEPENDENCIES") {
      if ((m = /^ {2}([^ (!]+)!?(?: \(([^)]+)\))?$/.exec(line))) deps.push([m[1], m[2] ?? null]);
    } else if (section === "BUNDLED WITH" && line.trim()) bundled = line.trim();
  }
  if (deps.length) {
    direct.set("", deps.map(([name, range]) => _direct(name, pk.versionsOf(name), range)));
  }
  return bundled && `bundled with ${bundled}`;
}

function _goSum(text: string, pk: _Packages): null {
  for (const raw of text.split("\n")) {
    const m = /^(\S+) (\S+?)(?:\/go\.mod)? h1:/.exec(raw);
    if (m) pk.add(m[1], m[2]);
  }
  return null;
}

/**
 * What the lockfile at `path` (its kind read from its file name) pins, or `null` when the
 * name is no lockfile's or the text cannot be read as that kind.
 */
export function readLockfile(path: string, text: string): LockSummary | null {
  const kind = lockfileKind(path);
  if (!kind) return null;
  const pk = new _Packages();
  const direct = new Map<string, string[]>();
  const local: string[] = [];
  let version: string | null;
  try {
    switch (kind) {
      case "npm":
        version = _npm(text, pk, direct);
        break;
      case "composer":
        version = _composer(text, pk);
        break;
      case "yarn":
        version = /^__metadata:/m.test(text)
          ? _yarnBerry(text, pk, direct, local)
          : _yarnV1(text, pk);
        break;
      case "pnpm":
        version = _pnpm(text, pk, direct);
        break;
      case "cargo":
        version = _cargo(text, pk, direct, local);
        break;
      case "poetry":
        version = _poetry(text, pk);
        break;
      case "uv":
        version = _uv(text, pk, direct, local);
        break;
      case "bundler":
        version = _bundler(text, pk, direct);
        break;
      case "go":
        version = _goSum(text, pk);
        break;
    }
  } catch {
    // A lockfile that does not parse as its kind is left for the generic paths.
    return null;
  }
  const recordsDirect = ["npm", "pnpm", "cargo", "uv", "bundler"].includes(kind) ||
    (kind === "yarn" && version !== "v1");
  return {
    file: basename(path),
    kind,
    version,
    packages: pk.list,
    direct: recordsDirect ? direct : null,
    local,
  };
}

function _count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// `label: a b c …` wrapped at the line width, continuation lines indented two spaces.
function _wrap(label: string, words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = `${label}:`;
  for (const w of words) {
    if (line.length + 1 + w.length > LOCK_LINE_WIDTH && line.trim().length > label.length + 1) {
      lines.push(line);
      line = " ";
    }
    line += " " + w;
  }
  lines.push(line);
  return lines;
}

// A package's scope or family: `@babel/*`, `github.com/spf13/*`, `symfony/*`, `windows_*`.
function _prefix(name: string): string {
  const slash = name.indexOf("/");
  if (slash > 0) {
    const parts = name.split("/");
    const take = name.startsWith("@") ? 1 : parts[0].includes(".") ? 2 : 1;
    return parts.slice(0, take).join("/") + "/*";
  }
  const m = /^[A-Za-z0-9]+[-_.]/.exec(name);
  return m ? m[0] + "*" : name;
}

/**
 * `text`, the lockfile at `path`, as a summary: kind and version, package count, direct
 * dependencies where recorded, and every package as `name@version` (or counts by prefix when
 * that list is over {@linkcode LOCK_LIST_CAP} chars); `null` when the name is no lockfile's,
 * the text does not read as one, it pins no package, or the summary is not strictly smaller in
 * chars and estimated tokens.
 */
export function compressLockfile(path: string, text: string): Filtered | null {
  const lock = readLockfile(path, text);
  if (!lock || lock.packages.length === 0) return null;
  const n = lock.packages.length;
  const head = [
    _LABELS[lock.kind],
    lock.version && (/^\d/.test(lock.version) ? `v${lock.version}` : lock.version),
  ]
    .filter(Boolean).join(" ");
  const out = [`${lock.file}: ${head}, ${_count(n)} ${n === 1 ? "package" : "packages"}`];
  if (lock.local.length) out.push(..._wrap("local", lock.local));
  if (lock.direct) {
    if (lock.direct.size === 0) out.push("direct: none recorded");
    for (const [group, deps] of lock.direct) {
      out.push(..._wrap(group ? `direct (${group})` : "direct", deps));
    }
  }
  const byName = new Map<string, string[]>();
  for (const [name, version] of lock.packages) {
    const list = byName.get(name);
    if (list) list.push(version);
    else byName.set(name, [version]);
  }
  const names = [...byName.keys()].sort();
  const words = names.map((name) => `${name}@${byName.get(name)!.join(",")}`);
  const listChars = words.reduce((sum, w) => sum + w.length + 1, 0);
  const cut: string[] = [];
  if (listChars <= LOCK_LIST_CAP) {
    out.push(..._wrap("packages", words));
  } else {
    const groups = new Map<string, number>();
    for (const name of names) {
      const p = _prefix(name);
      groups.set(p, (groups.get(p) ?? 0) + byName.get(name)!.length);
    }
    const shown = [...groups].filter(([p, c]) => c > 1 && p.endsWith("*"))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const rest = n - shown.reduce((s, [, c]) => s + c, 0);
    const parts = shown.map(([p, c]) => `${p} ${_count(c)}`);
    if (rest) parts.push(`${_count(rest)} others`);
    out.push(
      ..._wrap("packages by prefix", parts.map((p, i) => (i < parts.length - 1 ? p + "," : p))),
    );
    cut.push(`the names and versions of ${_count(n)} packages`);
  }
  cut.push(`the sources and hashes of ${_count(n)} packages`);
  if (lock.kind !== "go") cut.push("dependency edges");
  const result = { text: out.join("\n") + "\n", cut };
  const smaller = result.text.length < text.length &&
    estimate(result.text, "paths") < estimate(text, "paths");
  return smaller ? result : null;
}
