import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { rtok, tempDir } from "./_helpers.ts";
import { helpText, SURFACES } from "../src/surfaces/mod.ts";
import { FAMILY_TABLE } from "../filters/families.ts";

// What the CLI dispatches on besides its subcommands: a tool, `run -- <tool>`, `--version`.
const _OWN = ["<tool>", "run", "--version"];

/**
 * Where `help` and the dispatch disagree: a subcommand or family the help leaves out, a help
 * line no dispatch answers, a filtered name no family has.
 */
function _disagreements(
  help: string,
  commands: readonly string[],
  families: readonly string[],
): string[] {
  const out: string[] = [];
  const listed = [...help.matchAll(/^ {2}rtok (\S+)/gm)].map((m) => m[1]);
  for (const c of commands) if (!listed.includes(c)) out.push(`rtok ${c} is not in the help`);
  for (const c of _OWN) if (!listed.includes(c)) out.push(`rtok ${c} is not in the help`);
  for (const l of listed) {
    if (!commands.includes(l) && !_OWN.includes(l)) out.push(`rtok ${l} dispatches nowhere`);
  }
  const para = /^Filtered[^:]*: ([\s\S]*?)\.\n/m.exec(help)?.[1] ?? "";
  const filtered = para.split(/,\s+/).map((f) => f.replace(/\s+/g, " "));
  for (const f of families) if (!filtered.includes(f)) out.push(`${f} is not in the help`);
  for (const f of filtered) if (!families.includes(f)) out.push(`${f} is no family`);
  return out;
}

Deno.test("rtok --help lists every command the CLI dispatches, and nothing else", async () => {
  using tmp = tempDir();
  const r = await rtok(tmp.path, ["--help"]);
  strictEqual(r.code, 0);
  strictEqual(r.out, await helpText());
  deepStrictEqual(_disagreements(r.out, Object.keys(SURFACES), Object.keys(FAMILY_TABLE)), []);
});

Deno.test("rtok --help's lines each dispatch: a subcommand answers its own --help", async () => {
  using tmp = tempDir();
  for (const c of ["gain", "expand", "search", "where", "proxy", "metrics", "serve"]) {
    const r = await rtok(tmp.path, [c, "--help"]);
    strictEqual(r.code, 0, `rtok ${c} --help: ${r.err}`);
    // A word rtok did not dispatch would run as a tool, and fail as one (exit 127).
    ok(r.out.startsWith("rtok ") && r.out.includes(c), `rtok ${c} --help: ${r.out}`);
  }
});

Deno.test("a help kept by hand that drifts from the dispatch or the family table fails", async () => {
  const help = await helpText();
  const commands = Object.keys(SURFACES);
  const families = Object.keys(FAMILY_TABLE);
  deepStrictEqual(_disagreements(help, [...commands, "frobnicate"], families), [
    "rtok frobnicate is not in the help",
  ]);
  deepStrictEqual(_disagreements(help, commands.filter((c) => c !== "gain"), families), [
    "rtok gain dispatches nowhere",
  ]);
  deepStrictEqual(_disagreements(help, commands, [...families, "git frob"]), [
    "git frob is not in the help",
  ]);
  deepStrictEqual(_disagreements(help, commands, families.filter((f) => f !== "git log")), [
    "git log is no family",
  ]);
});
