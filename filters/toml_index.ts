/**
 * The built-in declarative filters: `filters/*.toml`, embedded in the program as text and
 * parsed only when a family they hold runs (or `rtok filters` lists or verifies them). To add
 * one, write the file (format: `filters/README.md`), list it here, and register each of its
 * families in `index.ts` with `builtinToml("<file>", "<family>")`.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";
import type { FilterDef } from "../src/plugins/cmd/toml/spec.ts";

/** File name → its text. */
export const BUILTIN_TOML: Readonly<Record<string, () => Promise<string>>> = {
  "make.toml": async () => (await import("./make.toml", { with: { type: "text" } })).default,
  "df.toml": async () => (await import("./df.toml", { with: { type: "text" } })).default,
  "terraform.toml": async () =>
    (await import("./terraform.toml", { with: { type: "text" } })).default,
  "du.toml": async () => (await import("./du.toml", { with: { type: "text" } })).default,
  "ps.toml": async () => (await import("./ps.toml", { with: { type: "text" } })).default,
  "docker.toml": async () => (await import("./docker.toml", { with: { type: "text" } })).default,
  "kubectl.toml": async () => (await import("./kubectl.toml", { with: { type: "text" } })).default,
  "curl.toml": async () => (await import("./curl.toml", { with: { type: "text" } })).default,
  "wget.toml": async () => (await import("./wget.toml", { with: { type: "text" } })).default,
  "shellcheck.toml": async () =>
    (await import("./shellcheck.toml", { with: { type: "text" } })).default,
  "jq.toml": async () => (await import("./jq.toml", { with: { type: "text" } })).default,
  "yamllint.toml": async () =>
    (await import("./yamllint.toml", { with: { type: "text" } })).default,
  "systemd.toml": async () => (await import("./systemd.toml", { with: { type: "text" } })).default,
  "gh.toml": async () => (await import("./gh.toml", { with: { type: "text" } })).default,
  "mvn.toml": async () => (await import("./mvn.toml", { with: { type: "text" } })).default,
  "gradle.toml": async () => (await import("./gradle.toml", { with: { type: "text" } })).default,
  "dotnet.toml": async () => (await import("./dotnet.toml", { with: { type: "text" } })).default,
  "helm.toml": async () => (await import("./helm.toml", { with: { type: "text" } })).default,
  "ansible.toml": async () => (await import("./ansible.toml", { with: { type: "text" } })).default,
  "pre_commit.toml": async () =>
    (await import("./pre_commit.toml", { with: { type: "text" } })).default,
  "markdownlint.toml": async () =>
    (await import("./markdownlint.toml", { with: { type: "text" } })).default,
};

/** How messages name a built-in file. */
export function builtinLabel(file: string): string {
  return `filters/${file}`;
}

/**
 * The filters of the built-in `file`, parsed and validated (throws on an invalid file). The
 * parse is cached in `$RTOK_HOME/cache/` (when there is a home), so a run of a declarative
 * family loads the TOML parser only the first time after an upgrade.
 */
export async function builtinTomlDefs(file: string): Promise<readonly FilterDef[]> {
  if (!Object.hasOwn(BUILTIN_TOML, file)) throw new RangeError(`no built-in filter file ${file}`);
  const { homeOrNull, parseCached } = await import("../src/plugins/cmd/toml/cache.ts");
  const label = builtinLabel(file);
  const parsed = await parseCached(await BUILTIN_TOML[file](), label, label, homeOrNull());
  if (parsed.error !== null) throw new SyntaxError(parsed.error);
  return parsed.defs;
}

/** The filter named `name` in the built-in `file`, compiled to run inline. */
export async function builtinTomlFilter(file: string, name: string): Promise<CommandFilter> {
  const def = (await builtinTomlDefs(file)).find((d) => d.name === name);
  if (!def) throw new RangeError(`${builtinLabel(file)} has no filter named "${name}"`);
  const { compileFilter } = await import("../src/plugins/cmd/toml/engine.ts");
  return compileFilter(def);
}
