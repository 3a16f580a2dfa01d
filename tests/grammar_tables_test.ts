/**
 * The tool argument grammars in `src/core/grammar/` are the only tables of grep's, rg's,
 * find's, tree's, git's and the subcommand tools' options: a list or record literal naming two
 * options only one of those tools has, anywhere else in `src/` or `filters/`, is a copy that
 * will drift from the grammar.
 *
 * @module
 */

import { deepStrictEqual, ok } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

// Options each tool alone spells this way (long names also bare, as a grammar's valued set
// writes them). Generic words (`--count`, `--help`, `-n`) are left out, so a table of another
// tool's options never counts.
const SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  "grep/rg": [
    "--regexp",
    "--max-count",
    "--after-context",
    "--before-context",
    "--exclude-dir",
    "--exclude-from",
    "--files-with-matches",
    "--files-without-match",
    "--with-filename",
    "--group-separator",
    "--context-separator",
    "--dereference-recursive",
    "--ignore-file",
    "--replace",
    "--max-depth",
    "--pre",
    "--pre-glob",
    "--iglob",
    "--type-not",
    "--search-zip",
    "--hostname-bin",
    "--passthru",
    "--vimgrep",
    "regexp",
    "max-count",
    "after-context",
    "before-context",
    "exclude-dir",
    "group-separator",
    "context-separator",
    "ignore-file",
    "max-depth",
    "pre-glob",
    "iglob",
    "type-not",
  ],
  find: [
    "-exec",
    "-execdir",
    "-okdir",
    "-delete",
    "-fprint",
    "-fprint0",
    "-fprintf",
    "-fls",
    "-print0",
    "-printf",
    "-maxdepth",
    "-mindepth",
    "-iname",
    "-ipath",
    "-wholename",
    "-regextype",
    "-newer",
    "-xdev",
    "-noleaf",
  ],
  tree: [
    "--filelimit",
    "--charset",
    "--gitignore",
    "--fromfile",
    "--timefmt",
    "--noreport",
    "filelimit",
    "charset",
    "timefmt",
    "gitfile",
    "infofile",
    "hintro",
    "houtro",
  ],
  "git globals": [
    "--git-dir",
    "--work-tree",
    "--super-prefix",
    "--config-env",
    "--exec-path",
    "--list-cmds",
    "--kube-context",
    "--kubeconfig",
  ],
  "git diff formats": [
    "--name-only",
    "--name-status",
    "--summary",
    "--compact-summary",
    "--dirstat",
    "--dirstat-by-file",
    "--cumulative",
    "--word-diff",
    "--patch-with-stat",
    "--patch-with-raw",
    "--dirstat=",
    "--dirstat-by-file=",
    "--word-diff=",
  ],
};

// The innermost `[…]` and `{…}` spans of a source (arrays, Sets, records), each with the
// string literals in it.
function _literals(source: string): string[][] {
  const out: string[][] = [];
  for (const m of source.matchAll(/\[[^[\]{}]*\]|\{[^{}[\]]*\}/g)) {
    const strings = [...m[0].matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((s) => s[1] ?? s[2]);
    if (strings.length >= 2) out.push(strings);
  }
  return out;
}

/** The tables of tool options in `source`: which tool, and two options that name it. */
export function optionTables(source: string): string[] {
  const found: string[] = [];
  for (const strings of _literals(source)) {
    for (const [tool, signature] of Object.entries(SIGNATURES)) {
      const hits = [...new Set(strings.filter((s) => signature.includes(s)))];
      if (hits.length >= 2) found.push(`${tool}: ${hits.slice(0, 2).join(", ")}`);
    }
  }
  return found;
}

// Every module of src/ and filters/ outside the grammar folder: tests hold argument lists
// by nature, and the family table is generated from the filters' declarations.
async function _modules(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${e.name}`;
      if (path === "src/core/grammar") continue;
      if (e.isDirectory) await walk(`${path}/`);
      else if (
        e.name.endsWith(".ts") && !e.name.endsWith("_test.ts") && path !== "filters/families.ts"
      ) {
        out.set(path, await Deno.readTextFile(new URL(path, ROOT)));
      }
    }
  };
  await walk("src/");
  await walk("filters/");
  return out;
}

Deno.test("optionTables finds a copied grep, find, tree or git option table, inline or multi-line", () => {
  deepStrictEqual(optionTables(`const X = new Set(["--regexp", "--max-count", "-e"]);`), [
    "grep/rg: --regexp, --max-count",
  ]);
  deepStrictEqual(optionTables(`const L = new Set([\n  "max-depth",\n  "ignore-file",\n]);`), [
    "grep/rg: max-depth, ignore-file",
  ]);
  deepStrictEqual(optionTables(`const A = { "-exec": 1, "-delete": 2 };`), [
    "find: -exec, -delete",
  ]);
  deepStrictEqual(optionTables(`git: new Set(["-C", "--git-dir", "--work-tree"]),`), [
    "git globals: --git-dir, --work-tree",
  ]);
});

Deno.test("optionTables leaves alone other tools' options, a lone option and prose", () => {
  deepStrictEqual(optionTables(`if (["-C", "-x", "-m"].includes(flag)) layout = "columns";`), []);
  deepStrictEqual(optionTables(`const a = ["--count", "--help", "-n", "-l", "--quiet"];`), []);
  deepStrictEqual(optionTables(`if (arg === "-n" || arg === "--max-count") i++;`), []);
  deepStrictEqual(optionTables(`f(["--regexp"], { x: "-exec" });`), []);
  deepStrictEqual(optionTables(`// use --regexp or --max-count, [like this]`), []);
});

Deno.test("the tool grammars are the only tables of grep, rg, find, tree and git options", async () => {
  const modules = await _modules();
  ok(modules.size > 100, `${modules.size} modules read`);
  const copies = [...modules].flatMap(([path, source]) =>
    optionTables(source).map((t) => `${path}: ${t}`)
  );
  deepStrictEqual(copies, []);
});

Deno.test("each grammar file still holds the tables the check looks for", async () => {
  for (const name of ["grep.ts", "find.ts", "git.ts", "subcommands.ts", "tree.ts"]) {
    const source = await Deno.readTextFile(new URL(`src/core/grammar/${name}`, ROOT));
    ok(optionTables(source).length > 0, `src/core/grammar/${name} holds a table`);
  }
});
