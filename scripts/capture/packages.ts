/**
 * Captures the golden fixtures of the package-manager filters (`npm install`, `npm ci`,
 * `pnpm install`, `yarn install`, `bun install`, `pip install`, `cargo fetch`) and of the
 * script-runner filter (`npm run`, `npm test` and their pnpm, yarn and bun forms) from the real
 * tools.
 *
 * Registries other than npm's cannot be reached here, and npm's mirror strips deprecation notices
 * and answers no audit, so the script serves its own registry on 127.0.0.1 (a fixed port, so the
 * URLs in the captured errors stay the same): npm packuments, tarballs and audit advisories built
 * from the fixed package set below, and a sparse cargo index with its crates. pip installs from
 * wheels it builds on the spot with a build backend that needs nothing from PyPI. Two npm cases
 * use the real npm registry with pinned versions, and the build cases install vite from it.
 * pnpm, yarn and bun are installed at pinned versions into a temp prefix with npm. Every cache
 * lives in the temp dir.
 *
 * Facts come from the tools (a `--json` twin run, `pnpm list --json`, `yarn list --json`,
 * `pip list --format json`, `cargo metadata`) or from the inputs the script generated (which
 * package is deprecated, which advisory applies, which test fails), never from rtok's output.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1
 * scripts/capture/packages.ts` (it also needs the npm registry, which npm itself reaches).
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandFilter } from "../../src/core/filter.ts";
import { familyOf, splitArgv } from "../../src/core/command.ts";
import { loadBuiltinFilters } from "../../src/plugins/cmd/loaders.ts";

const FIXTURES = fileURLToPath(new URL("../../tests/fixtures/", import.meta.url));
/** The local registry's port: fixed, because it shows in captured URLs. */
const PORT = 48730;
const REGISTRY = `http://127.0.0.1:${PORT}/`;
const TOOLS = ["pnpm@12.23.0", "yarn@1.22.22", "bun@1.4.5"];
const PASSED_ENV = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

// ---------------------------------------------------------------------------------------------
// The npm package set served by the local registry.

/** One version of a package the local registry serves. */
interface NpmPkg {
  readonly name: string;
  readonly version: string;
  readonly deps?: Readonly<Record<string, string>>;
  readonly peer?: Readonly<Record<string, string>>;
  readonly deprecated?: string;
  readonly funding?: string;
  readonly engines?: Readonly<Record<string, string>>;
  readonly scripts?: Readonly<Record<string, string>>;
}

/** An advisory the local registry's audit endpoint reports. */
interface Advisory {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  readonly severity: "low" | "moderate" | "high" | "critical";
  readonly vulnerable: string;
}

const INFLIGHT_MESSAGE =
  "This module is not supported, and leaks memory. Do not use it. Check out " +
  "lru-cache if you want a good and tested way to coalesce async requests by a key value, which " +
  "is much more comprehensive and powerful.";

const NPM_PKGS: readonly NpmPkg[] = [
  {
    name: "app-server",
    version: "3.1.0",
    deps: {
      "route-match": "^1.2.0",
      "body-chunks": "^2.0.0",
      "mime-lite": "^1.4.0",
      "cookie-crumbs": "^0.5.0",
      "send-file": "^1.0.0",
    },
    funding: "https://opencollective.com/app-server",
  },
  { name: "route-match", version: "1.2.4", deps: { "path-to-rx": "^0.1.7" } },
  { name: "path-to-rx", version: "0.1.7" },
  { name: "path-to-rx", version: "0.1.12" },
  {
    name: "body-chunks",
    version: "2.0.3",
    deps: { "bytes-fmt": "^3.1.0", "iconv-mini": "^0.6.3", "raw-stream": "^2.5.0" },
  },
  { name: "bytes-fmt", version: "3.1.2" },
  {
    name: "iconv-mini",
    version: "0.6.3",
    deps: { "safer-buf": "^2.1.2" },
    funding: "https://github.com/sponsors/iconv-mini",
  },
  { name: "safer-buf", version: "2.1.2" },
  { name: "raw-stream", version: "2.5.2", deps: { "bytes-fmt": "^3.1.0", "unpipe-it": "1.0.0" } },
  { name: "unpipe-it", version: "1.0.0" },
  { name: "mime-lite", version: "1.4.1", deps: { "mime-db-lite": "^1.52.0" } },
  { name: "mime-db-lite", version: "1.52.0" },
  { name: "cookie-crumbs", version: "0.5.0" },
  { name: "cookie-crumbs", version: "0.7.2" },
  {
    name: "send-file",
    version: "1.0.2",
    deps: {
      "mime-lite": "^1.4.0",
      "range-parse": "^1.2.1",
      "etag-gen": "^1.8.1",
      "ms-time": "2.1.3",
    },
  },
  { name: "range-parse", version: "1.2.1" },
  { name: "etag-gen", version: "1.8.1" },
  { name: "ms-time", version: "2.1.3" },
  {
    name: "task-runner",
    version: "0.9.0",
    deps: { "glob-walk": "^7.2.3", "rimraf-lite": "^3.0.2" },
    funding: "https://github.com/sponsors/task-runner",
  },
  {
    name: "glob-walk",
    version: "7.2.3",
    deps: { "inflight-lite": "^1.0.6", "once-only": "^1.4.0", "minimatch-lite": "^3.1.2" },
    deprecated: "Glob versions prior to v9 are no longer supported",
  },
  {
    name: "rimraf-lite",
    version: "3.0.2",
    deps: { "glob-walk": "^7.1.3" },
    deprecated: "Rimraf versions prior to v4 are no longer supported",
  },
  {
    name: "inflight-lite",
    version: "1.0.6",
    deps: { "once-only": "^1.3.0" },
    deprecated: INFLIGHT_MESSAGE,
  },
  { name: "once-only", version: "1.4.0" },
  { name: "minimatch-lite", version: "3.1.2", deps: { "brace-expand": "^1.1.7" } },
  {
    name: "brace-expand",
    version: "1.1.11",
    deps: { "balanced-pair": "^1.0.0", "concat-map-lite": "0.0.1" },
  },
  { name: "balanced-pair", version: "1.0.2" },
  { name: "concat-map-lite", version: "0.0.1" },
  { name: "view-core", version: "17.0.2" },
  { name: "view-core", version: "18.2.0" },
  { name: "ui-widgets", version: "4.0.0", peer: { "view-core": "^17.0.0" } },
  { name: "modern-only", version: "5.0.0", engines: { node: ">=22" } },
  {
    name: "fast-hash",
    version: "2.0.0",
    scripts: { postinstall: `node -e "console.log('compiled fast-hash')"` },
  },
  {
    name: "native-addon",
    version: "1.4.0",
    scripts: {
      install: `node -e "console.error('gyp ERR! build error: python3 not found'); ` +
        `process.exit(1)"`,
    },
  },
];

const ADVISORIES: readonly Advisory[] = [
  {
    id: 1101,
    name: "cookie-crumbs",
    title: "cookie-crumbs accepts cookie name, path, and domain with out of bounds characters",
    severity: "low",
    vulnerable: "<0.7.0",
  },
  {
    id: 1102,
    name: "path-to-rx",
    title: "path-to-rx outputs backtracking regular expressions",
    severity: "high",
    vulnerable: "<0.1.10",
  },
];

// ---------------------------------------------------------------------------------------------
// The crates served by the local sparse index.

/** One crate version the local index serves. */
interface Crate {
  readonly name: string;
  readonly version: string;
  readonly deps?: Readonly<Record<string, string>>;
}

const CRATES: readonly Crate[] = [
  { name: "serde", version: "1.0.210", deps: { serde_derive: "=1.0.210" } },
  { name: "serde_derive", version: "1.0.210", deps: { "proc-macro2": "1", quote: "1", syn: "2" } },
  {
    name: "serde_json",
    version: "1.0.128",
    deps: { itoa: "1", ryu: "1", memchr: "2", serde: "1" },
  },
  { name: "itoa", version: "1.0.11" },
  { name: "ryu", version: "1.0.18" },
  { name: "memchr", version: "2.7.4" },
  { name: "proc-macro2", version: "1.0.86", deps: { "unicode-ident": "1" } },
  { name: "quote", version: "1.0.37", deps: { "proc-macro2": "1" } },
  {
    name: "syn",
    version: "2.0.77",
    deps: { "proc-macro2": "1", quote: "1", "unicode-ident": "1" },
  },
  { name: "unicode-ident", version: "1.0.13" },
  { name: "anyhow", version: "1.0.89" },
  { name: "thiserror", version: "1.0.64", deps: { "thiserror-impl": "=1.0.64" } },
  { name: "thiserror-impl", version: "1.0.64", deps: { "proc-macro2": "1", quote: "1", syn: "2" } },
  { name: "thiserror", version: "2.0.3", deps: { "thiserror-impl": "=2.0.3" } },
  { name: "thiserror-impl", version: "2.0.3", deps: { "proc-macro2": "1", quote: "1", syn: "2" } },
  { name: "log", version: "0.4.22" },
  { name: "once_cell", version: "1.19.0" },
  {
    name: "regex",
    version: "1.10.6",
    deps: { "aho-corasick": "1", memchr: "2", "regex-syntax": "0.8" },
  },
  { name: "regex-syntax", version: "0.8.4" },
  { name: "aho-corasick", version: "1.1.3", deps: { memchr: "2" } },
];

// ---------------------------------------------------------------------------------------------
// Process helpers.

/** What a run printed. */
interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

const decoder = new TextDecoder();

async function run(cmd: readonly string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr), code: out.code };
}

async function must(
  cmd: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Run> {
  const out = await run(cmd, cwd, env);
  if (out.code !== 0) throw new Error(`${cmd.join(" ")}: exit ${out.code}\n${out.stderr}`);
  return out;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

async function sha(algo: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(algo, bytes));
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A reproducible gzipped tar of `dir`'s entry `top`. */
async function tarball(dir: string, top: string, out: string): Promise<Uint8Array<ArrayBuffer>> {
  await must(
    [
      "sh",
      "-c",
      `tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - '${top}' | ` +
      `gzip -n > '${out}'`,
    ],
    dir,
    { PATH: "/usr/bin:/bin" },
  );
  return await Deno.readFile(out);
}

// ---------------------------------------------------------------------------------------------
// The local registry.

/** Builds every npm tarball and crate, then serves them; returns the server to shut down. */
async function startRegistry(work: string): Promise<Deno.HttpServer> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const docs = new Map<string, Record<string, unknown>>();
  for (const pkg of NPM_PKGS) {
    const root = join(work, "npm-src", `${pkg.name}-${pkg.version}`);
    await Deno.mkdir(join(root, "package"), { recursive: true });
    const manifest: Record<string, unknown> = {
      name: pkg.name,
      version: pkg.version,
      description: `${pkg.name}, a fixture package`,
      license: "MIT",
      main: "index.js",
      ...(pkg.deps ? { dependencies: pkg.deps } : {}),
      ...(pkg.peer ? { peerDependencies: pkg.peer } : {}),
      ...(pkg.funding ? { funding: pkg.funding } : {}),
      ...(pkg.engines ? { engines: pkg.engines } : {}),
      ...(pkg.scripts ? { scripts: pkg.scripts } : {}),
    };
    await writeJson(join(root, "package", "package.json"), manifest);
    await Deno.writeTextFile(
      join(root, "package", "index.js"),
      `module.exports = ${JSON.stringify(pkg.name)};\n`,
    );
    const bytes = await tarball(root, "package", join(root, "package.tgz"));
    const file = `${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
    files.set(file, bytes);
    const doc = docs.get(pkg.name) ?? { name: pkg.name, "dist-tags": {}, versions: {}, time: {} };
    docs.set(pkg.name, doc);
    (doc.versions as Record<string, unknown>)[pkg.version] = {
      ...manifest,
      ...(pkg.deprecated ? { deprecated: pkg.deprecated } : {}),
      _id: `${pkg.name}@${pkg.version}`,
      dist: {
        tarball: `${REGISTRY}${file}`,
        integrity: `sha512-${base64(await sha("SHA-512", bytes))}`,
        shasum: hex(await sha("SHA-1", bytes)),
      },
    };
    (doc["dist-tags"] as Record<string, string>).latest = pkg.version;
    (doc.time as Record<string, string>)[pkg.version] = "2024-01-01T00:00:00.000Z";
  }
  const index = new Map<string, string[]>();
  for (const crate of CRATES) {
    const top = `${crate.name}-${crate.version}`;
    const root = join(work, "crate-src", top);
    await Deno.mkdir(join(root, top, "src"), { recursive: true });
    const deps = Object.entries(crate.deps ?? {});
    await Deno.writeTextFile(
      join(root, top, "Cargo.toml"),
      `[package]\nname = "${crate.name}"\nversion = "${crate.version}"\nedition = "2021"\n` +
        `\n[dependencies]\n${deps.map(([n, r]) => `${n} = "${r}"\n`).join("")}`,
    );
    await Deno.writeTextFile(join(root, top, "src", "lib.rs"), "");
    const bytes = await tarball(root, top, join(root, "crate.tgz"));
    files.set(`cargo/dl/${crate.name}/${crate.version}.crate`, bytes);
    const entry = {
      name: crate.name,
      vers: crate.version,
      deps: deps.map(([name, req]) => ({
        name,
        req,
        features: [],
        optional: false,
        default_features: true,
        target: null,
        kind: "normal",
      })),
      cksum: hex(await sha("SHA-256", bytes)),
      features: {},
      yanked: false,
    };
    const lines = index.get(crate.name) ?? [];
    lines.push(JSON.stringify(entry));
    index.set(crate.name, lines);
  }
  return Deno.serve({ hostname: "127.0.0.1", port: PORT, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname.slice(1));
    await req.body?.cancel();
    if (req.method === "POST" && path === "-/npm/v1/security/advisories/bulk") {
      return Response.json(auditReply());
    }
    if (path === "cargo/config.json") {
      return Response.json({ dl: `${REGISTRY}cargo/dl/{crate}/{version}.crate` });
    }
    const file = files.get(path);
    if (file) return new Response(file);
    const crate = path.startsWith("cargo/") ? path.slice(path.lastIndexOf("/") + 1) : "";
    const entries = index.get(crate);
    if (entries && path === `cargo/${indexPath(crate)}`) {
      return new Response(entries.join("\n") + "\n");
    }
    const doc = docs.get(path);
    if (doc) return Response.json(doc);
    return Response.json({ error: "Not found" }, { status: 404 });
  });
}

function auditReply(): Record<string, unknown[]> {
  const reply: Record<string, unknown[]> = {};
  for (const a of ADVISORIES) {
    (reply[a.name] ??= []).push({
      id: a.id,
      url: `https://github.com/advisories/GHSA-fixture-${a.id}`,
      title: a.title,
      severity: a.severity,
      vulnerable_versions: a.vulnerable,
      cwe: ["CWE-1333"],
      cvss: { score: 0, vectorString: null },
    });
  }
  return reply;
}

/** Where a crate's index file lives in a sparse index. */
function indexPath(name: string): string {
  if (name.length <= 2) return `${name.length}/${name}`;
  if (name.length === 3) return `3/${name[0]}/${name}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}

// ---------------------------------------------------------------------------------------------
// Projects.

/** The directories and environment every run shares. */
interface World {
  readonly tmp: string;
  readonly env: Record<string, string>;
  /** The same without the local registry: npm's real one. */
  readonly realEnv: Record<string, string>;
}

async function makeWorld(tmp: string): Promise<World> {
  const home = join(tmp, "home");
  const prefix = join(tmp, "prefix");
  const venv = join(tmp, "venv");
  await Deno.mkdir(home, { recursive: true });
  const hostHome = Deno.env.get("HOME") ?? "/root";
  const path = [
    join(prefix, "bin"),
    join(venv, "bin"),
    Deno.env.get("CARGO_HOME")
      ? join(Deno.env.get("CARGO_HOME")!, "bin")
      : join(hostHome, ".cargo/bin"),
    "/usr/local/bin",
    "/usr/bin",
    "/bin",
  ].join(":");
  const base: Record<string, string> = {
    PATH: path,
    HOME: home,
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    RUSTUP_HOME: Deno.env.get("RUSTUP_HOME") ?? join(hostHome, ".rustup"),
    // pnpm keeps its store and caches under these.
    XDG_CONFIG_HOME: join(tmp, "xdg-config"),
    XDG_CACHE_HOME: join(tmp, "xdg-cache"),
    XDG_DATA_HOME: join(tmp, "xdg-data"),
    XDG_STATE_HOME: join(tmp, "xdg-state"),
    npm_config_cache: join(tmp, "npm-cache"),
    npm_config_update_notifier: "false",
    YARN_CACHE_FOLDER: join(tmp, "yarn-cache"),
    BUN_INSTALL_CACHE_DIR: join(tmp, "bun-cache"),
    PIP_CONFIG_FILE: "/dev/null",
    PIP_CACHE_DIR: join(tmp, "pip-cache"),
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PIP_NO_INDEX: "1",
    PIP_FIND_LINKS: join(tmp, "wheels"),
  };
  // The host's certificate and proxy settings, which reaching the npm registry may need.
  for (const key of PASSED_ENV) {
    const value = Deno.env.get(key);
    if (value !== undefined) base[key] = value;
  }
  // Tools: pnpm, yarn and bun from the real npm registry, pinned.
  await must(["npm", "install", "-g", "--prefix", prefix, ...TOOLS], tmp, base);
  await must(["python3", "-m", "venv", venv], tmp, { ...base, PATH: Deno.env.get("PATH") ?? "" });
  const realEnv = { ...base };
  return { tmp, env: { ...base, npm_config_registry: REGISTRY }, realEnv };
}

/** A package.json project, with `.npmrc` pointing at the local registry. */
async function npmProject(
  world: World,
  name: string,
  deps: Record<string, string>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(world.tmp, "projects", name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, ".npmrc"), `registry=${REGISTRY}\n`);
  await writeJson(join(dir, "package.json"), {
    name,
    version: "1.0.0",
    private: true,
    ...(Object.keys(deps).length ? { dependencies: deps } : {}),
    ...extra,
  });
  return dir;
}

/** The web project: 30 packages with deprecations, funding, an engine warning, advisories. */
const WEB_DEPS = {
  "app-server": "^3.1.0",
  "task-runner": "^0.9.0",
  "modern-only": "^5.0.0",
  "fast-hash": "2.0.0",
};
/**
 * The same with a peer conflict, and without the build script (which pnpm 12 refuses to ignore
 * silently) and the engine mismatch (which yarn 1 makes an error).
 */
const WEB_DEPS_NO_BUILD = {
  "app-server": "^3.1.0",
  "task-runner": "^0.9.0",
  "ui-widgets": "^4.0.0",
  "view-core": "18.2.0",
};
/** A peer conflict: ui-widgets wants view-core 17, the project pins 18. */
const PEER_DEPS = { "view-core": "18.2.0", "ui-widgets": "^4.0.0", "cookie-crumbs": "^0.5.0" };

// ---------------------------------------------------------------------------------------------
// Facts helpers.

const isDeprecated = (name: string, version: string) =>
  NPM_PKGS.some((p) => p.name === name && p.version === version && p.deprecated);

/** Installed name@version pairs from `npm ls --all --json`. */
async function npmInstalled(dir: string, world: World): Promise<Set<string>> {
  const tree = JSON.parse((await run(["npm", "ls", "--all", "--json"], dir, world.env)).stdout);
  const found = new Set<string>();
  const walk = (deps: Record<string, { version?: string; dependencies?: unknown }> | undefined) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (node.version) found.add(`${name}@${node.version}`);
      walk(node.dependencies as Record<string, { version?: string }> | undefined);
    }
  };
  walk(tree.dependencies);
  return found;
}

/** `name@version` of each installed package the local registry marks deprecated. */
function deprecatedFacts(installed: Iterable<string>): string[] {
  return [...installed].filter((id) => {
    const at = id.lastIndexOf("@");
    return isDeprecated(id.slice(0, at), id.slice(at + 1));
  }).sort();
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The summary facts of an `npm install --json` twin run. */
function npmJsonFacts(json: Record<string, unknown>): string[] {
  const facts: string[] = [];
  const parts: string[] = [];
  for (const key of ["added", "removed", "changed"] as const) {
    const n = json[key] as number | undefined;
    if (n) parts.push(`${key} ${plural(n, "package")}`);
  }
  facts.push(...parts);
  if (typeof json.audited === "number" && json.audited > 0) {
    facts.push(`audited ${plural(json.audited, "package")}`);
  }
  const audit = json.audit as { vulnerabilities?: Record<string, number> } | undefined;
  const v = audit?.vulnerabilities;
  if (v) {
    const levels = ["info", "low", "moderate", "high", "critical"].filter((k) => v[k] > 0);
    if (v.total === 0) facts.push("found 0 vulnerabilities");
    else if (levels.length === 1) facts.push(`${v.total} ${levels[0]} severity vulnerabilit`);
    else facts.push(`${v.total} vulnerabilities`, ...levels.map((k) => `${v[k]} ${k}`));
  }
  return facts;
}

/** The facts of an npm error, from the `--json` twin: its code and the summary's first words. */
function npmErrorFacts(stdout: string): string[] {
  const error = JSON.parse(stdout).error as { code: string; summary: string; detail: string };
  return [String(error.code), error.summary.split(" - ")[0].slice(0, 60)];
}

// ---------------------------------------------------------------------------------------------
// Cases.

/** One fixture. */
interface Case {
  readonly name: string;
  /** The command as an agent types it. */
  readonly typed: readonly string[];
  /** The stream that holds the report, stored as raw.out/shaped.out. */
  readonly stream: "stdout" | "stderr";
  readonly factsSource: string;
  /** `"package"` unless given: `"test"` for a test script, `"build"` for another script. */
  readonly kind?: "package" | "test" | "build";
  /** Prepares a fresh project dir; returns it. */
  setup(world: World): Promise<string>;
  /** The environment (default: the local registry's). */
  env?(world: World, dir: string): Record<string, string>;
  facts(world: World, dir: string, out: Run): Promise<string[]>;
}

/** A twin of `typed` run with `--json` in a fresh copy of the project. */
async function npmJsonTwin(
  world: World,
  typed: readonly string[],
  setup: (world: World) => Promise<string>,
  env: Record<string, string> = world.env,
): Promise<Run> {
  const dir = await setup(world);
  return await run([...typed, "--json"], dir, env);
}

function npmInstallCase(
  name: string,
  typed: string[],
  stream: "stdout" | "stderr",
  setup: (world: World) => Promise<string>,
  extra: string[] = [],
  real = false,
): Case {
  return {
    name,
    typed,
    stream,
    env: real ? (world) => world.realEnv : undefined,
    factsSource: stream === "stdout"
      ? `${typed.join(" ")} --json (a twin run in a fresh copy of the project)`
      : "npm ls --all --json after the run, against the registry's deprecation marks",
    setup,
    async facts(world, dir) {
      if (stream === "stdout") {
        const twin = await npmJsonTwin(world, typed, setup, real ? world.realEnv : world.env);
        return [...npmJsonFacts(JSON.parse(twin.stdout)), ...extra];
      }
      return [...deprecatedFacts(await npmInstalled(dir, world)), ...extra];
    },
  };
}

function npmErrorCase(
  name: string,
  typed: string[],
  setup: (world: World) => Promise<string>,
  extra: string[] = [],
  real = false,
): Case {
  return {
    name,
    typed,
    stream: "stderr",
    factsSource: `${typed.join(" ")} --json (a twin run): error code and summary`,
    setup,
    env: real ? (world) => world.realEnv : undefined,
    async facts(world) {
      const twin = await npmJsonTwin(world, typed, setup, real ? world.realEnv : world.env);
      // npm 11 prints the JSON error on stdout; older versions on stderr.
      return [...npmErrorFacts(twin.stdout.trim() ? twin.stdout : twin.stderr), ...extra];
    },
  };
}

const web = (world: World) => npmProject(world, "shop-web", WEB_DEPS);
const webNoBuild = (world: World) => npmProject(world, "shop-web", WEB_DEPS_NO_BUILD);
const peers = (world: World) => npmProject(world, "shop-ui", PEER_DEPS);
const empty = (world: World) => npmProject(world, "shop-empty", {});

/** The web project with a lockfile written by a first install. */
async function webLocked(world: World): Promise<string> {
  const dir = await web(world);
  await run(["npm", "install", "--package-lock-only"], dir, world.env);
  return dir;
}

async function realEmpty(world: World): Promise<string> {
  const dir = await empty(world);
  await Deno.remove(join(dir, ".npmrc"));
  return dir;
}

// The web project's engine mismatch and its unapproved install script, by construction.
const WEB_WARNINGS = ["EBADENGINE", "modern-only@5.0.0", "install-scripts", "fast-hash@2.0.0"];

const NPM_CASES: readonly Case[] = [
  npmInstallCase("npm_install_summary", ["npm", "install"], "stdout", web),
  npmInstallCase("npm_install_warnings", ["npm", "install"], "stderr", web, WEB_WARNINGS),
  {
    name: "npm_install_force_peer",
    typed: ["npm", "install", "--force"],
    stream: "stderr",
    factsSource:
      "the generated peer conflict (ui-widgets peers view-core ^17, the project pins 18)",
    setup: peers,
    facts: () =>
      Promise.resolve([
        "--force",
        "ERESOLVE",
        'view-core@"^17.0.0"',
        "ui-widgets@4.0.0",
        "view-core@18.2.0",
        "view-core@17.0.2",
      ]),
  },
  npmErrorCase("npm_install_eresolve", ["npm", "install"], peers, [
    'peer view-core@"^17.0.0" from ui-widgets@4.0.0',
    "view-core@18.2.0",
    "--legacy-peer-deps",
  ]),
  npmErrorCase("npm_install_e404", ["npm", "install", "rtok-fixture-no-such-package"], realEmpty, [
    "rtok-fixture-no-such-package",
  ], true),
  npmErrorCase("npm_install_script_fail", ["npm", "install", "native-addon@1.4.0"], empty, [
    "gyp ERR! build error: python3 not found",
    "node_modules/native-addon",
  ]),
  npmInstallCase("npm_i_summary", ["npm", "i", "is-number@7.0.0"], "stdout", realEmpty, [], true),
  {
    ...npmErrorCase("npm_i_etarget", ["npm", "i", "is-number@99.0.0"], realEmpty, [
      "is-number@99.0.0",
    ], true),
  },
  {
    name: "npm_i_force_peer",
    typed: ["npm", "i", "--force"],
    stream: "stderr",
    factsSource:
      "the generated peer conflict (ui-widgets peers view-core ^17, the project pins 18)",
    setup: peers,
    facts: () =>
      Promise.resolve(["ERESOLVE", 'view-core@"^17.0.0"', "ui-widgets@4.0.0", "view-core@18.2.0"]),
  },
  npmInstallCase("npm_ci_summary", ["npm", "ci"], "stdout", webLocked),
  npmInstallCase("npm_ci_warnings", ["npm", "ci"], "stderr", webLocked, WEB_WARNINGS),
  npmErrorCase("npm_ci_no_lockfile", ["npm", "ci"], web, ["package-lock.json"]),
];

/** Packages from `pnpm list --json --depth Infinity`: direct ones and every `name@version`. */
async function pnpmListed(
  dir: string,
  world: World,
): Promise<{ direct: string[]; all: Set<string> }> {
  type Node = { version: string; dependencies?: Record<string, Node> };
  const out = await run(["pnpm", "list", "--json", "--depth", "Infinity"], dir, world.env);
  const [root] = JSON.parse(out.stdout) as { dependencies?: Record<string, Node> }[];
  const all = new Set<string>();
  const walk = (deps: Record<string, Node> | undefined) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      all.add(`${name}@${node.version}`);
      walk(node.dependencies);
    }
  };
  walk(root.dependencies);
  const direct = Object.entries(root.dependencies ?? {}).map(([n, node]) => `${n} ${node.version}`);
  return { direct, all };
}

/** Packages from `yarn list --json`: every `name@version`. */
async function yarnListed(dir: string, world: World): Promise<Set<string>> {
  type Tree = { name: string; children?: Tree[] };
  const out = await run(["yarn", "list", "--json"], dir, world.env);
  const doc = JSON.parse(out.stdout.split("\n").find((l) => l.includes('"type":"tree"')) ?? "{}");
  const all = new Set<string>();
  const walk = (trees: Tree[] | undefined) => {
    for (const tree of trees ?? []) {
      all.add(tree.name.replace(/^(@?[^@]+)@.*?(\d[^@]*)$/, "$1@$2"));
      walk(tree.children);
    }
  };
  walk(doc.data?.trees);
  return all;
}

/** Direct packages as `bun pm ls` lists them: `name@version`. */
async function bunListed(dir: string, world: World): Promise<string[]> {
  const out = await run(["bun", "pm", "ls"], dir, world.env);
  return out.stdout.split("\n").map((l) => /[├└]── (\S+)/.exec(l)?.[1]).filter((x) =>
    x !== undefined
  );
}

/** An app with two dozen direct dependencies, as a real one has: bun lists each it adds. */
const APP_DEPS = {
  "app-server": "^3.1.0",
  "body-chunks": "^2.0.0",
  "bytes-fmt": "^3.1.0",
  "cookie-crumbs": "^0.5.0",
  "etag-gen": "^1.8.1",
  "glob-walk": "^7.2.3",
  "iconv-mini": "^0.6.3",
  "mime-db-lite": "^1.52.0",
  "mime-lite": "^1.4.0",
  "minimatch-lite": "^3.1.2",
  "ms-time": "2.1.3",
  "once-only": "^1.4.0",
  "path-to-rx": "^0.1.7",
  "range-parse": "^1.2.1",
  "raw-stream": "^2.5.0",
  "route-match": "^1.2.0",
  "safer-buf": "^2.1.2",
  "send-file": "^1.0.0",
  "task-runner": "^0.9.0",
  "unpipe-it": "1.0.0",
};
const APP_DEV_DEPS = {
  "balanced-pair": "^1.0.0",
  "brace-expand": "^1.1.7",
  "fast-hash": "2.0.0",
  "rimraf-lite": "^3.0.2",
};
const app = (world: World) =>
  npmProject(world, "shop-app", APP_DEPS, { devDependencies: APP_DEV_DEPS });

/** The project as a clone of it is: its pnpm-lock.yaml committed, nothing installed. */
async function pnpmLocked(
  world: World,
  project: (world: World) => Promise<string> = webNoBuild,
): Promise<string> {
  const dir = await project(world);
  await must(["pnpm", "install", "--lockfile-only"], dir, world.env);
  return dir;
}

const withMissing = (world: World) =>
  npmProject(world, "shop-missing", { "app-server": "^3.1.0", "no-such-pkg": "^1.0.0" });

const JS_INSTALL_CASES: readonly Case[] = [
  {
    name: "pnpm_install",
    typed: ["pnpm", "install"],
    stream: "stdout",
    factsSource: "pnpm list --json --depth Infinity after the run; the registry's deprecations",
    setup: webNoBuild,
    async facts(world, dir) {
      const { direct, all } = await pnpmListed(dir, world);
      return [...direct, `+${all.size}`, ...deprecatedFacts(all), "peer dependencies"];
    },
  },
  {
    name: "pnpm_install_locked",
    typed: ["pnpm", "install"],
    stream: "stdout",
    // With the resolution skipped, pnpm reports no peer or deprecation warning.
    factsSource: "pnpm list --json --depth Infinity after the run",
    setup: pnpmLocked,
    async facts(world, dir) {
      const { direct, all } = await pnpmListed(dir, world);
      return [...direct, `+${all.size}`];
    },
  },
  {
    name: "pnpm_install_ignored_builds",
    typed: ["pnpm", "install"],
    stream: "stderr",
    factsSource: "the generated package set: fast-hash@2.0.0 is the one with a build script",
    setup: web,
    facts: () =>
      Promise.resolve(["ERR_PNPM_IGNORED_BUILDS", "fast-hash@2.0.0", "pnpm approve-builds"]),
  },
  {
    name: "pnpm_install_404",
    typed: ["pnpm", "install"],
    stream: "stderr",
    factsSource: "the generated package.json: no-such-pkg is not in the registry",
    setup: withMissing,
    facts: () => Promise.resolve(["ERR_PNPM_FETCH_404", "no-such-pkg@^1.0.0", "404"]),
  },
  {
    name: "pnpm_i",
    typed: ["pnpm", "i"],
    stream: "stdout",
    factsSource: "pnpm list --json --depth Infinity after the run",
    setup: peers,
    async facts(world, dir) {
      const { direct, all } = await pnpmListed(dir, world);
      return [...direct, `+${all.size}`];
    },
  },
  {
    name: "pnpm_i_locked",
    typed: ["pnpm", "i"],
    stream: "stdout",
    factsSource: "pnpm list --json --depth Infinity after the run",
    setup: (world) => pnpmLocked(world, peers),
    async facts(world, dir) {
      const { direct, all } = await pnpmListed(dir, world);
      return [...direct, `+${all.size}`];
    },
  },
  {
    name: "yarn_install_warnings",
    typed: ["yarn", "install"],
    stream: "stderr",
    factsSource: "yarn list --json after the run; the registry's deprecations and peers",
    setup: webNoBuild,
    async facts(world, dir) {
      return [
        ...deprecatedFacts(await yarnListed(dir, world)),
        "ui-widgets@4.0.0",
        "view-core@^17.0.0",
      ];
    },
  },
  {
    name: "yarn_install_summary",
    typed: ["yarn", "install"],
    stream: "stdout",
    factsSource: "the project had no yarn.lock; the run wrote one",
    setup: webNoBuild,
    async facts(_world, dir) {
      await Deno.stat(join(dir, "yarn.lock"));
      return ["No lockfile found", "Saved lockfile"];
    },
  },
  {
    name: "yarn_install_404",
    typed: ["yarn", "install"],
    stream: "stderr",
    factsSource: "the generated package.json: no-such-pkg is not in the registry",
    setup: withMissing,
    facts: () => Promise.resolve(["error", "no-such-pkg", "Not found"]),
  },
  {
    name: "yarn_bare",
    typed: ["yarn"],
    stream: "stderr",
    factsSource: "the generated package set: task-runner's deprecated subtree, modern-only's " +
      "engines (node >=22)",
    setup: web,
    facts: () =>
      Promise.resolve([
        "glob-walk@7.2.3",
        "inflight-lite@1.0.6",
        "rimraf-lite@3.0.2",
        "modern-only@5.0.0",
        '">=22"',
        "incompatible",
      ]),
  },
  {
    name: "bun_install",
    typed: ["bun", "install"],
    stream: "stdout",
    factsSource: "bun pm ls after the run; fast-hash@2.0.0 is the one package with a postinstall",
    setup: web,
    async facts(world, dir) {
      const listed = await bunListed(dir, world);
      return [...listed, "Blocked 1 postinstall"];
    },
  },
  {
    name: "bun_install_app",
    typed: ["bun", "install"],
    stream: "stdout",
    factsSource: "bun pm ls after the run; fast-hash@2.0.0 is the one package with a postinstall",
    setup: app,
    async facts(world, dir) {
      const listed = await bunListed(dir, world);
      return [...listed, "Blocked 1 postinstall"];
    },
  },
  {
    name: "bun_install_404",
    typed: ["bun", "install"],
    stream: "stderr",
    factsSource: "the generated package.json: no-such-pkg is not in the registry",
    setup: withMissing,
    facts: () => Promise.resolve(["error", "no-such-pkg@^1.0.0", "404"]),
  },
  {
    name: "bun_i",
    typed: ["bun", "i"],
    stream: "stdout",
    factsSource: "bun pm ls after the run",
    setup: peers,
    facts: async (world, dir) => await bunListed(dir, world),
  },
];

// ---------------------------------------------------------------------------------------------
// pip: wheels built on the spot by a build backend that needs nothing from an index.

const BACKEND = `# A PEP 517 build backend with no dependencies: writes a pure-Python wheel by hand.
import base64, hashlib, json, os, zipfile

def _meta():
    with open("pkg.json") as f:
        return json.load(f)

def get_requires_for_build_wheel(config_settings=None):
    return []

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    m = _meta()
    if m.get("fail"):
        print("compiling extension " + m["name"].replace("-", "_") + "._speedups")
        raise RuntimeError(m["fail"])
    name, version = m["name"], m["version"]
    mod = name.replace("-", "_")
    dist = f"{mod}-{version}.dist-info"
    files = {
        f"{mod}/__init__.py": f"__version__ = {version!r}\\n",
        f"{dist}/METADATA": "Metadata-Version: 2.1\\n" + f"Name: {name}\\nVersion: {version}\\n"
        + "".join(f"Requires-Dist: {r}\\n" for r in m.get("requires", [])),
        f"{dist}/WHEEL": "Wheel-Version: 1.0\\nGenerator: fixture\\nRoot-Is-Purelib: true\\n"
        + "Tag: py3-none-any\\n",
    }
    record = []
    whl = f"{mod}-{version}-py3-none-any.whl"
    stamp = (2024, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w") as z:
        for path, text in files.items():
            data = text.encode()
            z.writestr(zipfile.ZipInfo(path, date_time=stamp), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{path},sha256={digest.decode()},{len(data)}")
        record.append(f"{dist}/RECORD,,")
        z.writestr(zipfile.ZipInfo(f"{dist}/RECORD", date_time=stamp), "\\n".join(record) + "\\n")
    return whl
`;

/** One Python distribution the wheel directory offers (or a source tree the cases install). */
interface PyPkg {
  readonly name: string;
  readonly version: string;
  readonly requires?: readonly string[];
  readonly fail?: string;
}

const PY_WHEELS: readonly PyPkg[] = [
  { name: "tiny-dep", version: "1.0.0" },
  { name: "tiny-dep", version: "2.0.0" },
  { name: "colorlog-lite", version: "6.8.2" },
  { name: "click-mini", version: "8.1.7", requires: ["colorlog-lite>=6"] },
  { name: "tomli-lite", version: "2.0.1" },
  { name: "attrs-lite", version: "23.2.0" },
  { name: "pydantic-mini", version: "2.6.4", requires: ["attrs-lite>=23", "typing-ext>=4.6"] },
  { name: "typing-ext", version: "4.10.0" },
  { name: "httpx-mini", version: "0.27.0", requires: ["idna-lite>=3", "sniffio-lite>=1.3"] },
  { name: "idna-lite", version: "3.6" },
  { name: "sniffio-lite", version: "1.3.1" },
];

const SHOP_TOOLS: PyPkg = {
  name: "shop-tools",
  version: "0.3.0",
  requires: [
    "tiny-dep<2",
    "click-mini>=8",
    "tomli-lite>=2",
    "pydantic-mini>=2.6",
    "httpx-mini>=0.27",
  ],
};
const BROKEN: PyPkg = {
  name: "fast-parse",
  version: "1.2.0",
  fail: "error: command 'gcc' failed: No such file or directory",
};

async function pySource(dir: string, pkg: PyPkg): Promise<string> {
  const src = join(dir, pkg.name);
  await Deno.mkdir(src, { recursive: true });
  await Deno.writeTextFile(join(src, "backend.py"), BACKEND);
  await Deno.writeTextFile(
    join(src, "pyproject.toml"),
    `[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n`,
  );
  await writeJson(join(src, "pkg.json"), pkg);
  return src;
}

/** Builds the wheel directory once. */
async function buildWheels(world: World): Promise<void> {
  const srcs = join(world.tmp, "wheel-src");
  for (const pkg of PY_WHEELS) {
    const src = await pySource(join(srcs, `${pkg.name}-${pkg.version}`), pkg);
    await must(
      ["pip", "wheel", "--no-deps", "-w", world.env.PIP_FIND_LINKS, src],
      world.tmp,
      world.env,
    );
  }
}

/** A project dir with its own venv, the shop-tools and fast-parse sources beside it. */
async function pyProject(world: World, name: string, preinstall: string[] = []): Promise<string> {
  const dir = join(world.tmp, "projects", name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await pySource(dir, SHOP_TOOLS);
  await pySource(dir, BROKEN);
  await must(["python3", "-m", "venv", ".venv"], dir, world.env);
  if (preinstall.length) await must(["pip", "install", ...preinstall], dir, pyEnv(world, dir));
  return dir;
}

function pyEnv(world: World, dir: string): Record<string, string> {
  const venv = join(dir, ".venv");
  return { ...world.env, VIRTUAL_ENV: venv, PATH: `${join(venv, "bin")}:${world.env.PATH}` };
}

/** `name-version` of every distribution in the venv, as pip lists it. */
async function pipListed(world: World, dir: string): Promise<Map<string, string>> {
  const out = await must(["pip", "list", "--format", "json"], dir, pyEnv(world, dir));
  const listed = JSON.parse(out.stdout) as { name: string; version: string }[];
  return new Map(
    listed.filter((p) => !["pip", "setuptools"].includes(p.name)).map((p) => [p.name, p.version]),
  );
}

const PIP_CASES: readonly Case[] = [
  {
    name: "pip_install_local",
    typed: ["pip", "install", "./shop-tools"],
    stream: "stdout",
    factsSource: "pip list --format json after the run",
    setup: (world) => pyProject(world, "py-local"),
    env: pyEnv,
    async facts(world, dir) {
      return [...await pipListed(world, dir)].map(([n, v]) => `${n}-${v}`);
    },
  },
  {
    name: "pip_install_already",
    typed: ["pip", "install", "./shop-tools", "sniffio-lite"],
    stream: "stdout",
    factsSource: "pip list --format json before and after the run",
    setup: (world) =>
      pyProject(world, "py-already", ["tiny-dep==1.0.0", "click-mini", "tomli-lite", "idna-lite"]),
    env: pyEnv,
    async facts(world, dir) {
      const after = await pipListed(world, dir);
      const before = ["tiny-dep", "click-mini", "colorlog-lite", "tomli-lite", "idna-lite"];
      return [
        ...before.map((n) => `${n}`),
        ...[...after].filter(([n]) => !before.includes(n)).map(([n, v]) => `${n}-${v}`),
      ];
    },
  },
  {
    name: "pip_install_unreachable",
    typed: ["pip", "install", "requests==2.31.0"],
    stream: "stderr",
    factsSource: "the run's index is a closed local port; the requirement is the one typed",
    setup: (world) => pyProject(world, "py-offline"),
    env: (world, dir) => {
      const env = { ...pyEnv(world, dir), PIP_INDEX_URL: "http://127.0.0.1:9/simple" };
      delete (env as Record<string, string | undefined>).PIP_NO_INDEX;
      delete (env as Record<string, string | undefined>).PIP_FIND_LINKS;
      return env;
    },
    facts: () =>
      Promise.resolve([
        "requests==2.31.0",
        "No matching distribution found",
        "Connection refused",
        "/simple/requests/",
      ]),
  },
  {
    name: "pip_install_conflict",
    typed: ["pip", "install", "./shop-tools", "tiny-dep==2.0.0"],
    stream: "stdout",
    factsSource: "the generated wheels: shop-tools requires tiny-dep<2",
    setup: (world) => pyProject(world, "py-conflict"),
    env: pyEnv,
    facts: () =>
      Promise.resolve([
        "The user requested tiny-dep==2.0.0",
        "shop-tools 0.3.0 depends on tiny-dep<2",
      ]),
  },
  {
    name: "pip_install_build_fail",
    typed: ["pip", "install", "./fast-parse"],
    stream: "stderr",
    factsSource: "the generated fast-parse backend raises this error",
    setup: (world) => pyProject(world, "py-broken"),
    env: pyEnv,
    facts: () =>
      Promise.resolve([
        "subprocess-exited-with-error",
        "RuntimeError: error: command 'gcc' failed: No such file or directory",
        "fast-parse",
      ]),
  },
  {
    name: "pip3_install",
    typed: ["pip3", "install", "httpx-mini==0.27.0"],
    stream: "stdout",
    factsSource: "pip list --format json after the run",
    setup: (world) => pyProject(world, "py-pip3"),
    env: pyEnv,
    async facts(world, dir) {
      return [...await pipListed(world, dir)].map(([n, v]) => `${n}-${v}`);
    },
  },
  {
    name: "pip_install_module",
    typed: ["python3", "-m", "pip", "install", "pydantic-mini", "tiny-dep==1.0.0"],
    stream: "stdout",
    factsSource: "pip list --format json after the run",
    setup: (world) => pyProject(world, "py-module"),
    env: pyEnv,
    async facts(world, dir) {
      return [...await pipListed(world, dir)].map(([n, v]) => `${n}-${v}`);
    },
  },
];

// ---------------------------------------------------------------------------------------------
// cargo fetch.

/** A mirror of crates.io served by the local index, as a company mirror would be configured. */
const CARGO_CONFIG = `[source.crates-io]\nreplace-with = "fixture-mirror"\n\n` +
  `[source.fixture-mirror]\nregistry = "sparse+${REGISTRY}cargo/"\n`;

async function crateProject(
  world: World,
  name: string,
  deps: Record<string, string>,
  pathDep = false,
): Promise<string> {
  const dir = join(world.tmp, "projects", name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  // Each case starts with no crate downloaded.
  await Deno.remove(cargoHome(world, dir), { recursive: true }).catch(() => {});
  await Deno.mkdir(cargoHome(world, dir), { recursive: true });
  await Deno.writeTextFile(join(cargoHome(world, dir), "config.toml"), CARGO_CONFIG);
  await Deno.mkdir(join(dir, "src"), { recursive: true });
  const lines = Object.entries(deps).map(([n, r]) => `${n} = "${r}"\n`);
  if (pathDep) {
    lines.push(`util = { path = "util" }\n`);
    await Deno.mkdir(join(dir, "util", "src"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "util", "Cargo.toml"),
      `[package]\nname = "util"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nitoa = "1"\n`,
    );
    await Deno.writeTextFile(join(dir, "util", "src", "lib.rs"), "");
  }
  await Deno.writeTextFile(
    join(dir, "Cargo.toml"),
    `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${
      lines.join("")
    }`,
  );
  await Deno.writeTextFile(join(dir, "src", "lib.rs"), "");
  return dir;
}

const cargoHome = (world: World, dir: string) =>
  join(world.tmp, "cargo-homes", dir.slice(dir.lastIndexOf("/") + 1));
const cargoEnv = (world: World, dir: string) => ({
  ...world.env,
  CARGO_HOME: cargoHome(world, dir),
});

/** Registry packages of the resolved graph, as cargo metadata gives them: `name vX.Y.Z`. */
async function cargoResolved(world: World, dir: string): Promise<string[]> {
  const out = await must(
    ["cargo", "metadata", "--format-version", "1", "--offline"],
    dir,
    cargoEnv(world, dir),
  );
  const meta = JSON.parse(out.stdout) as {
    packages: { name: string; version: string; source: string | null }[];
  };
  return meta.packages.filter((p) => p.source !== null).map((p) => `${p.name} v${p.version}`)
    .sort();
}

const CARGO_CASES: readonly Case[] = [
  {
    name: "cargo_fetch",
    typed: ["cargo", "fetch"],
    stream: "stderr",
    env: cargoEnv,
    factsSource:
      "cargo metadata --format-version 1 --offline after the run; thiserror 2 is in the index",
    setup: (world) =>
      crateProject(world, "inventory", {
        serde: "1",
        serde_json: "1",
        anyhow: "1",
        thiserror: "1",
        regex: "1",
        log: "0.4",
        once_cell: "1",
      }),
    async facts(world, dir) {
      return [...await cargoResolved(world, dir), "(available: v2.0.3)"];
    },
  },
  {
    name: "cargo_fetch_path",
    typed: ["cargo", "fetch"],
    stream: "stderr",
    env: cargoEnv,
    factsSource: "cargo metadata --format-version 1 --offline after the run",
    setup: (world) => crateProject(world, "tally", {}, true),
    facts: async (world, dir) => await cargoResolved(world, dir),
  },
  {
    name: "cargo_fetch_fail",
    typed: ["cargo", "fetch"],
    stream: "stderr",
    env: cargoEnv,
    factsSource: "the generated Cargo.toml asks serde 9; the index has 1.0.210",
    setup: (world) => crateProject(world, "ledger", { serde: "9", log: "0.4" }),
    facts: () =>
      Promise.resolve([
        'error: failed to select a version for the requirement `serde = "^9"`',
        "1.0.210",
        "ledger v0.1.0",
      ]),
  },
];

// ---------------------------------------------------------------------------------------------
// Scripts: `npm test`, `npm run x` and their pnpm, yarn and bun forms.

const CALC = `exports.add = (a, b) => a + b;
exports.divide = (a, b) => {
  if (b === 0) throw new RangeError("division by zero");
  return a / b;
};
`;
const PASSING_TEST = `const assert = require("node:assert");
const { add } = require("./calc");
assert.strictEqual(add(2, 2), 4);
console.log("ok 1 - adds integers");
assert.strictEqual(add(-1, 1), 0);
console.log("ok 2 - adds negatives");
console.log("2 passed, 0 failed");
`;
// A tape-style TAP suite: 28 tests, one failing with tape's YAML diagnostics.
const FAILING_TEST = `const assert = require("node:assert");
const { add, divide } = require("./calc");
let n = 0;
let failed = 0;
function test(name, fn) {
  n++;
  try {
    fn();
    console.log(\`ok \${n} \${name}\`);
  } catch (e) {
    failed++;
    const at = e.stack.split("\\n").find((line) => line.includes("test.js:")).trim().slice(3);
    console.log(\`not ok \${n} \${name}\`);
    console.log("  ---");
    console.log(\`    operator: \${e.operator}\`);
    console.log(\`    expected: \${e.expected}\`);
    console.log(\`    actual:   \${e.actual}\`);
    console.log(\`    at: \${at}\`);
    console.log("  ...");
  }
}
console.log("TAP version 13");
console.log("# add");
for (const [a, b] of [[1, 2], [2, 2], [-1, 1], [0, 0], [10, -3], [7, 8], [3, 4], [5, 5], [-2, -2], [100, 1], [8, 9], [12, 30]]) {
  test(\`adds \${a} and \${b}\`, () => assert.strictEqual(add(a, b), a + b));
}
console.log("# divide");
for (const [a, b] of [[6, 3], [9, 3], [1, 4], [5, 2], [8, 4], [7, 7], [12, 4], [-9, 3], [2, 8], [15, 5], [1, 1], [0, 9]]) {
  test(\`divides \${a} by \${b}\`, () => assert.strictEqual(divide(a, b), a / b));
}
console.log("# edge cases");
test("adds decimals", () => assert.strictEqual(add(0.1, 0.2), 0.3));
test("rejects division by zero", () => assert.throws(() => divide(1, 0), RangeError));
test("divides negatives", () => assert.strictEqual(divide(-8, 2), -4));
test("divides zero", () => assert.strictEqual(divide(0, 5), 0));
console.log(\`\\n1..\${n}\\n# tests \${n}\\n# pass  \${n - failed}\\n# fail  \${failed}\`);
process.exitCode = failed ? 1 : 0;
`;
const REPORT = `const { divide } = require("./calc");
console.log("report: 3 rows");
console.log("ratio:", divide(10, 0));
`;
const BUILD = `console.log("built dist/calc.js (2.1 kB)");
console.error("warning: no sourcemap for dist/calc.js");
`;

/** The vite version the build fixtures run, from npm's real registry. */
const VITE = "vite@5.4.10";
/** Pages of the vite app: one chunk each, as a code-split app's routes are. */
const VITE_PAGES = 40;

/**
 * A vite app whose routes load lazily, so its build writes one chunk per page and lists each,
 * as a real app's `npm run build` does. vite is installed once; each case starts without `dist/`.
 */
async function viteApp(world: World): Promise<string> {
  const dir = join(world.tmp, "projects", "shop-front");
  await Deno.remove(join(dir, "dist"), { recursive: true }).catch(() => {});
  if (await Deno.stat(join(dir, "node_modules", "vite")).then(() => true, () => false)) return dir;
  await Deno.mkdir(join(dir, "src", "pages"), { recursive: true });
  await writeJson(join(dir, "package.json"), {
    name: "shop-front",
    version: "1.0.0",
    private: true,
    type: "module",
    scripts: { build: "vite build" },
  });
  await Deno.writeTextFile(
    join(dir, "index.html"),
    '<!doctype html>\n<html><body><div id="app"></div>' +
      '<script type="module" src="/src/main.js"></script></body></html>\n',
  );
  await Deno.writeTextFile(
    join(dir, "src", "main.js"),
    'const pages = import.meta.glob("./pages/*.js");\n' +
      'const route = location.hash.slice(1) || "./pages/p01.js";\n' +
      'pages[route]?.().then((m) => { document.querySelector("#app").textContent = m.default(); });\n',
  );
  for (let n = 1; n <= VITE_PAGES; n++) {
    const id = String(n).padStart(2, "0");
    await Deno.writeTextFile(
      join(dir, "src", "pages", `p${id}.js`),
      `export default function page${id}() {\n  return "page ${id}: " + "${id}".repeat(${
        n * 3
      });\n}\n`,
    );
  }
  // Exact, so pnpm's own install before it runs a script resolves the same vite.
  await must(
    ["npm", "install", "--save-exact", "--no-audit", "--no-fund", VITE],
    dir,
    world.realEnv,
  );
  return dir;
}

/** A vite build's facts, from what it wrote: the html, and the entry chunk's hashed name. */
async function viteFacts(dir: string): Promise<string[]> {
  const assets: string[] = [];
  for await (const e of Deno.readDir(join(dir, "dist", "assets"))) assets.push(e.name);
  const entry = assets.find((a) => /^index-.*\.js$/.test(a));
  if (!entry) throw new Error(`vite wrote no entry chunk in ${dir}/dist/assets`);
  return ["dist/index.html", `dist/assets/${entry}`, "modules transformed", "built in"];
}

function viteCase(name: string, typed: string[]): Case {
  return {
    name,
    typed,
    stream: "stdout",
    kind: "build",
    env: (world) => world.realEnv,
    factsSource: "the files vite wrote to dist/ (the html, the entry chunk); vite's own " +
      "closing lines of a build that exits 0",
    setup: viteApp,
    facts: (_world, dir) => viteFacts(dir),
  };
}

async function scriptProject(world: World, name: string, failing: boolean): Promise<string> {
  const dir = await npmProject(world, name, {}, {
    scripts: {
      pretest: `node -e "console.log('lint ok')"`,
      test: "node test.js",
      build: "node build.js",
      report: "node report.js",
    },
  });
  await Deno.writeTextFile(join(dir, "calc.js"), CALC);
  await Deno.writeTextFile(join(dir, "test.js"), failing ? FAILING_TEST : PASSING_TEST);
  await Deno.writeTextFile(join(dir, "build.js"), BUILD);
  await Deno.writeTextFile(join(dir, "report.js"), REPORT);
  return dir;
}

const passing = (world: World) => scriptProject(world, "calc", false);
const failing = (world: World) => scriptProject(world, "calc", true);

const PASS_FACTS = [
  "lint ok",
  "ok 1 - adds integers",
  "ok 2 - adds negatives",
  "2 passed, 0 failed",
];
// Where the failing assertion sits in the generated test file.
const FAIL_LINE = FAILING_TEST.split("\n").findIndex((l) => l.startsWith('test("adds decimals"')) +
  1;
const FAIL_FACTS = [
  "not ok 25 adds decimals",
  "expected: 0.3",
  "actual:   0.30000000000000004",
  `test.js:${FAIL_LINE}:`,
  "# tests 28",
  "# pass  27",
  "# fail  1",
];
const REPORT_FACTS = ["RangeError: division by zero", "calc.js:3", "report.js:3"];

function scriptCase(
  name: string,
  typed: string[],
  stream: "stdout" | "stderr",
  setup: (world: World) => Promise<string>,
  facts: readonly string[],
): Case {
  return {
    name,
    typed,
    stream,
    kind: typed.includes("test") ? "test" : "build",
    factsSource: "the generated scripts: what they print, and where they throw",
    setup,
    facts: () => Promise.resolve([...facts]),
  };
}

const SCRIPT_CASES: readonly Case[] = [
  scriptCase("npm_test_pass", ["npm", "test"], "stdout", passing, PASS_FACTS),
  scriptCase("npm_test_fail", ["npm", "test"], "stdout", failing, FAIL_FACTS),
  scriptCase("npm_run_build", ["npm", "run", "build"], "stdout", passing, [
    "built dist/calc.js (2.1 kB)",
  ]),
  scriptCase("npm_run_fail", ["npm", "run", "report"], "stderr", passing, REPORT_FACTS),
  scriptCase("npm_run_missing", ["npm", "run", "tset"], "stderr", passing, [
    'Missing script: "tset"',
    "npm run",
  ]),
  scriptCase("pnpm_test_pass", ["pnpm", "test"], "stdout", passing, PASS_FACTS),
  scriptCase("pnpm_run_fail", ["pnpm", "run", "report"], "stderr", passing, [
    ...REPORT_FACTS,
    "exit code 1",
  ]),
  scriptCase("yarn_test_pass", ["yarn", "test"], "stdout", passing, PASS_FACTS),
  scriptCase("yarn_run_fail", ["yarn", "run", "report"], "stderr", passing, [
    ...REPORT_FACTS,
    "exit code 1",
  ]),
  scriptCase("bun_run_fail", ["bun", "run", "report"], "stderr", passing, [
    ...REPORT_FACTS,
    "exited with code 1",
  ]),
  viteCase("npm_run_vite", ["npm", "run", "build"]),
  viteCase("pnpm_run_vite", ["pnpm", "run", "build"]),
  viteCase("yarn_run_vite", ["yarn", "run", "build"]),
  viteCase("bun_run_vite", ["bun", "run", "build"]),
];

// ---------------------------------------------------------------------------------------------
// Capture.

const CASES: readonly Case[] = [
  ...NPM_CASES,
  ...JS_INSTALL_CASES,
  ...PIP_CASES,
  ...CARGO_CASES,
  ...SCRIPT_CASES,
];

const _filters = await loadBuiltinFilters();

function filterFor(argv: readonly string[]): Pick<CommandFilter, "name" | "shape"> {
  const family = familyOf(argv);
  return _filters.find((f) => f.name === family) ?? { name: family };
}

async function capture(test: Case, world: World): Promise<void> {
  const filter = filterFor(test.typed);
  const { prefix, args } = splitArgv(test.typed);
  const shapedArgs = filter.shape?.(args) ?? null;
  const ran = shapedArgs ? [...prefix, ...shapedArgs] : [...test.typed];
  const dir = await test.setup(world);
  const env = test.env?.(world, dir) ?? world.env;
  const shapedRun = await run(ran, dir, env);
  // Without stage 1 the typed bytes are the shaped bytes; with it, the typed run needs a fresh
  // project, since an install changes the one it ran in.
  const typedRun = shapedArgs ? await run(test.typed, await test.setup(world), env) : shapedRun;
  const facts = await test.facts(world, dir, shapedRun);
  const out = join(FIXTURES, test.name);
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(join(out, "raw.out"), typedRun[test.stream]);
  await Deno.writeTextFile(join(out, "shaped.out"), shapedRun[test.stream]);
  await writeJson(join(out, "meta.json"), {
    filter: filter.name,
    kind: test.kind ?? "package",
    ...(test.stream === "stderr" ? { stream: "stderr" } : {}),
    typed: test.typed,
    ran,
    exitCode: shapedRun.code,
    facts,
    factsSource: test.factsSource,
  });
  console.log(
    `${test.name}: exit ${shapedRun.code}, ${typedRun[test.stream].length} chars ` +
      `(${test.stream}), ${facts.length} facts`,
  );
}

if (import.meta.main) {
  const only = Deno.args;
  const tmp = await Deno.makeTempDir({ prefix: "rtok-capture-packages-" });
  const server = await startRegistry(tmp);
  try {
    const world = await makeWorld(tmp);
    await buildWheels(world);
    for (const test of CASES) {
      if (only.length === 0 || only.includes(test.name)) await capture(test, world);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(tmp, { recursive: true });
  }
}
