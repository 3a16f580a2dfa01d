/**
 * `rtok filters list|show|verify`: every command filter rtok would use, where it comes from
 * (project, user, built-in TOML, built-in TypeScript) and which ones an earlier source hides;
 * one filter's definition; the embedded tests of every declarative source that would be used.
 *
 * @module
 */

import { defaultConfig, loadConfig } from "../core/config.ts";
import { FAMILY_TABLE } from "../../filters/index.ts";
import { FILTER_LOADERS } from "../plugins/cmd/loaders.ts";
import { builtinLabel, builtinTomlDefs, builtinTomlFiles } from "../plugins/cmd/toml/builtin.ts";
import type { FilterDef } from "../plugins/cmd/toml/spec.ts";
import {
  homeOrNull,
  loadSources,
  PROJECT_FILE,
  type Source,
  trusted,
} from "../plugins/cmd/toml/sources.ts";
import { type TestFailure, type Verified, verifyDefs } from "../plugins/cmd/toml/verify.ts";
import { print } from "./_io.ts";
import { readServedRaw, writeServedRaw } from "../plugins/measure/served_raw.ts";

const USAGE = `Usage: rtok filters list             every filter, its source, file and tests
       rtok filters show NAME        where NAME comes from, and its definition
       rtok filters verify [NAME]    run the embedded tests (exit 1 on a failure)
       rtok filters reset FAMILY [--project DIR]
                                     filter FAMILY again in this project (or DIR) after
                                     rtok served it raw for its re-fetch rate

Sources, first match wins: ${PROJECT_FILE} (after rtok trust), $RTOK_HOME/filters.toml,
the built-in TOML filters, the built-in hand-written filters; else the output passes through.
`;

/** Where a filter comes from, in the order they are consulted. */
type _Kind = "project" | "user" | "builtin-toml" | "builtin";

interface _Entry {
  readonly name: string;
  readonly kind: _Kind;
  readonly file: string;
  /** Its declarative definition; `null` for a hand-written filter. */
  readonly def: FilterDef | null;
  /** False for an untrusted project file's filters. */
  readonly used: boolean;
  /** The earlier source that hides it, if one does. */
  shadowedBy: string | null;
}

/** `rtok filters <list|show|verify> …`. */
export async function main(args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list" && rest.length === 0) return await _list();
  if (sub === "show" && rest.length === 1) return await _show(rest[0]);
  if (sub === "verify" && rest.length <= 1) return await _verify(rest[0] ?? null);
  if (sub === "reset" && rest.length >= 1) return await _reset(rest);
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    await print(USAGE);
    return 0;
  }
  throw new TypeError(`rtok filters ${args.join(" ")}: not a filters command\n${USAGE}`);
}

async function _gather(): Promise<{ entries: _Entry[]; sources: Source[]; home: string | null }> {
  const home = homeOrNull();
  const sources = await loadSources(Deno.cwd(), home);
  const entries: _Entry[] = [];
  for (const s of sources) {
    const used = await trusted(s, home);
    for (const def of s.defs) {
      entries.push({ name: def.name, kind: s.kind, file: s.label, def, used, shadowedBy: null });
    }
  }
  const tomlNames = new Set<string>();
  for (const file of builtinTomlFiles()) {
    for (const def of await builtinTomlDefs(file)) {
      tomlNames.add(def.name);
      entries.push({
        name: def.name,
        kind: "builtin-toml",
        file: builtinLabel(file),
        def,
        used: true,
        shadowedBy: null,
      });
    }
  }
  for (const [family, { file }] of Object.entries(FAMILY_TABLE)) {
    if (tomlNames.has(family)) continue;
    entries.push({
      name: family,
      kind: "builtin",
      file: builtinLabel(file),
      def: null,
      used: true,
      shadowedBy: null,
    });
  }
  // An entry is hidden by an earlier used one with its name, or, for a built-in (chosen by
  // family), by an earlier file's filter whose pattern accepts the family's bare command.
  entries.forEach((e, i) => {
    const by = entries.slice(0, i).find((x) =>
      x.used && (x.name === e.name ||
        (e.kind.startsWith("builtin") && x.def !== null && !x.kind.startsWith("builtin") &&
          new RegExp(x.def.match).test(e.name)))
    );
    if (by) e.shadowedBy = `${by.kind} ${by.name}`;
  });
  return { entries, sources, home };
}

async function _list(): Promise<number> {
  const { entries, sources } = await _gather();
  const rows: string[][] = [["family", "source", "file", "tests", ""]];
  for (const s of sources) {
    if (s.error !== null) rows.push(["(none)", s.kind, s.label, "-", `error: ${s.error}`]);
  }
  for (const e of entries) {
    const note = !e.used
      ? "not trusted: not used (rtok trust)"
      : e.shadowedBy
      ? `shadowed by ${e.shadowedBy}`
      : "";
    rows.push([e.name, e.kind, e.file, e.def ? String(e.def.tests.length) : "-", note]);
  }
  await print(_columns(rows).join("\n") + "\n");
  return 0;
}

// Rows as aligned columns, two spaces apart.
function _columns(rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
}

async function _show(name: string): Promise<number> {
  const { entries } = await _gather();
  const all = entries.filter((e) => e.name === name);
  const e = all.find((x) => x.used && !x.shadowedBy) ?? all.find((x) => x.used) ?? all[0];
  if (!e) throw new TypeError(`no filter named "${name}" (rtok filters list shows them all)`);
  const lines: string[] = [];
  const state = !e.used
    ? " (not trusted: not used until rtok trust)"
    : e.shadowedBy
    ? ` (shadowed by ${e.shadowedBy})`
    : "";
  if (e.def === null) {
    const filter = await FILTER_LOADERS[e.name]();
    lines.push(
      `${e.name}: built-in hand-written filter${state}`,
      `module: ${e.file}`,
      `text class: ${filter.textClass}`,
    );
  } else {
    lines.push(
      `${e.name}: ${e.kind} filter${state}`,
      `file: ${e.file}, line ${e.def.line}`,
      `pattern: ${e.def.match}`,
    );
  }
  for (const other of all.filter((x) => x !== e)) {
    lines.push(`also: ${other.kind} ${other.file}${other.shadowedBy ? " (shadowed)" : ""}`);
  }
  await print(lines.join("\n") + "\n" + (e.def ? "\n" + e.def.source : ""));
  return 0;
}

async function _verify(name: string | null): Promise<number> {
  const { entries, sources, home } = await _gather();
  if (name !== null && !entries.some((e) => e.name === name)) {
    throw new TypeError(`no filter named "${name}" (rtok filters list shows them all)`);
  }
  const limit = await _timeoutMs(home);
  const failures: TestFailure[] = [];
  const out: string[] = [];
  const rows: string[][] = [];
  let tests = 0;
  let filters = 0;
  // A user file that cannot be read fails verification: a run would skip it. (A project file
  // that cannot be read is never trusted, so never used.)
  for (const s of sources) {
    if (s.error !== null && s.kind === "user") {
      failures.push({ filter: "(file)", file: s.label, test: "parse", line: 0, diff: s.error });
    }
  }
  const groups = new Map<string, { kind: _Kind; defs: FilterDef[] }>();
  for (const e of entries) {
    if (!e.used || e.def === null || (name !== null && e.name !== name)) continue;
    const g = groups.get(e.file) ?? { kind: e.kind, defs: [] };
    g.defs.push(e.def);
    groups.set(e.file, g);
  }
  for (const [file, g] of groups) {
    let v: Verified;
    if (g.kind === "builtin-toml") {
      v = verifyDefs(g.defs);
    } else {
      // A user's or project's patterns run in a Worker with a limit, as they do on a run.
      const { verifyInWorker } = await import("../plugins/cmd/toml/sandbox.ts");
      const budget = limit * Math.max(1, g.defs.reduce((n, d) => n + d.tests.length, 0));
      try {
        v = await verifyInWorker(g.defs, budget);
      } catch (e) {
        v = {
          filters: g.defs.length,
          tests: 0,
          failures: [{
            filter: "(file)",
            file,
            test: "all tests",
            line: 0,
            diff: (e as Error).message,
          }],
        };
      }
    }
    tests += v.tests;
    filters += v.filters;
    failures.push(...v.failures);
    for (const def of g.defs) {
      const bad = v.failures.some((f) => f.filter === def.name || f.filter === "(file)");
      const n = def.tests.length;
      rows.push([bad ? "FAIL" : "ok", def.name, file, `${n} test${n === 1 ? "" : "s"}`]);
    }
  }
  out.push(..._columns(rows));
  for (const e of entries) {
    if (e.def !== null || (name !== null && e.name !== name)) continue;
    if (name !== null) {
      out.push(`${e.name}: hand-written (${e.file}); its tests run with deno task test`);
    }
  }
  for (const s of sources) {
    if (s.kind === "project" && s.error === null && !await trusted(s, home)) {
      out.push(`${s.label}: not trusted, so not used and not verified (rtok trust)`);
    }
  }
  for (const f of failures) {
    out.push(
      "",
      `FAIL ${f.filter}: "${f.test}" (${f.file}${f.line ? `:${f.line}` : ""})`,
      f.diff.trimEnd(),
    );
  }
  out.push(
    "",
    `verify: ${tests} test${tests === 1 ? "" : "s"} of ${filters} filter${
      filters === 1 ? "" : "s"
    }: ${failures.length === 0 ? "all passed" : `${failures.length} failed`}`,
  );
  await print(out.join("\n") + "\n");
  return failures.length === 0 ? 0 : 1;
}

async function _timeoutMs(home: string | null): Promise<number> {
  if (home === null) return defaultConfig().cmd.filterTimeoutMs;
  try {
    return (await loadConfig(home)).cmd.filterTimeoutMs;
  } catch {
    return defaultConfig().cmd.filterTimeoutMs;
  }
}

// `reset FAMILY [--project DIR]`: the family is filtered again there; its re-fetch rate
// counts from now.
async function _reset(args: readonly string[]): Promise<number> {
  const at = args.indexOf("--project");
  const project = at >= 0 ? args[at + 1] : Deno.cwd();
  const family = (at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args).join(" ");
  if (!project || family === "") {
    throw new TypeError("rtok filters reset needs a family, like: rtok filters reset git log");
  }
  const home = homeOrNull();
  if (home === null) throw new Error("Cannot find rtok's home: set RTOK_HOME or HOME");
  const state = readServedRaw(home);
  const raw = state.projects[project]?.[family];
  if (!raw) {
    await print(`${family} is not served raw in ${project}; nothing to reset\n`);
    return 0;
  }
  const { [family]: _, ...rest } = state.projects[project];
  const projects = { ...state.projects, [project]: rest };
  if (Object.keys(rest).length === 0) delete projects[project];
  writeServedRaw(home, {
    projects,
    resets: { ...state.resets, [project]: { ...state.resets[project], [family]: Date.now() } },
  });
  await print(
    `${family} is filtered again in ${project}; its re-fetch rate counts from now ` +
      `(it was ${raw.ratePct} %, ${raw.refetched} of ${raw.lossyRuns})\n`,
  );
  return 0;
}
