import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { definitionSearch, inspectLine, type InspectOptions, VENDOR_DIRS } from "./rules.ts";

// A project with code, every vendor directory (each with matches), and files to copy and pack.
function project(dir: string): void {
  const put = (path: string, text: string) => {
    Deno.mkdirSync(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${path}`, text);
  };
  for (const v of VENDOR_DIRS) {
    for (let i = 0; i < 30; i++) put(`${v}/deep/f${i}.js`, `needle ${v} ${i}\n`);
  }
  for (let i = 0; i < 5; i++) put(`src/m${i}.ts`, `export const needle${i} = ${i};\n`);
  put("src/sub/x.js", "needle in sub\n");
  put("README.md", "needle docs\n");
}

function opts(cwd: string): InspectOptions {
  return { cwd, off: new Set(), readLines: 250, readChars: 12_000, rtok: () => "rtok" };
}

async function sh(line: string, cwd: string): Promise<string> {
  const o = await new Deno.Command("bash", {
    args: ["-c", line],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(o.stdout);
}

const sorted = (text: string) => text.split("\n").filter(Boolean).sort();
const inVendor = (l: string) =>
  VENDOR_DIRS.some((v) => new RegExp(`(^|/)${v.replace(".", "\\.")}(/|:|$)`).test(l));

// Each search, rewritten, finds exactly what it found before outside the vendor directories.
const SEARCHES = [
  "grep -r needle .",
  "grep -rn needle",
  "grep -rl needle .",
  "egrep -r 'needle|docs' .",
  "grep -R -c needle .",
  "find .",
  "find . -name '*.js'",
  "find . -type f -name 'f1*'",
  "find . -name '*.js' -o -name '*.md'",
  "find . -type f -exec grep -l needle {} \\;",
  "find . -maxdepth 3 -type d",
  "tree --noreport -i -f",
  // Read by the grep grammar: `-X` takes the matcher, `-d recurse` walks directories.
  "grep -rX egrep 'needle|docs'",
  "grep -d recurse needle .",
  // `-print` here is a name to look for, not the action: the rewrite must still print.
  "find . -name 'f1*' -o -name -print",
];

Deno.test("inspectLine: a rewritten search finds the same outside the vendor directories", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-guard-rules-" });
  try {
    project(dir);
    for (const line of SEARCHES) {
      await t.step(line, async () => {
        const f = inspectLine(line, opts(dir));
        ok(f && f.action === "rewrite", `rewritten: ${JSON.stringify(f)}`);
        if (f?.action !== "rewrite") return;
        const before = sorted(await sh(line, dir));
        const after = sorted(await sh(f.line, dir));
        ok(before.some(inVendor), "the original walks a vendor directory");
        const expected = line.startsWith("tree")
          ? before.filter((l) => !inVendor(l) || l.includes("/.git"))
          : before.filter((l) => !inVendor(l));
        deepStrictEqual(after, expected);
        ok(after.length < before.length);
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

// Each file command, rewritten without its verbose flag, leaves the same files behind and says less.
const FILE_OPS = [
  "cp -rv src out",
  "cp -v README.md copy.md",
  "mv -v README.md moved.md",
  "mkdir -pv a/b/c",
  "rm -rfv src",
  "chmod -Rv 700 src",
  "tar -czvf out.tgz src",
  "mkdir x && tar -xvzf ../pack.tgz -C x",
];

function tree(dir: string, at = ""): string[] {
  const out: string[] = [];
  for (const e of [...Deno.readDirSync(`${dir}${at}`)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = `${at}/${e.name}`;
    const mode = (Deno.statSync(`${dir}${path}`).mode ?? 0) & 0o777;
    if (e.isDirectory) out.push(`${path}/ ${mode.toString(8)}`, ...tree(dir, path));
    else if (!path.endsWith(".tgz")) {
      out.push(`${path} ${mode.toString(8)} ${Deno.readTextFileSync(`${dir}${path}`)}`);
    }
  }
  return out;
}

Deno.test("inspectLine: a file command without -v has the same effect, printing less", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-guard-verbose-" });
  try {
    Deno.mkdirSync(`${root}/pack/src`, { recursive: true });
    Deno.writeTextFileSync(`${root}/pack/src/packed.ts`, "packed\n");
    await sh("tar -czf ../pack.tgz src", `${root}/pack`);
    let n = 0;
    for (const line of FILE_OPS) {
      await t.step(line, async () => {
        const a = `${root}/a${n}`;
        const b = `${root}/b${n++}`;
        for (const d of [a, b]) {
          Deno.mkdirSync(`${d}/src/sub`, { recursive: true });
          Deno.writeTextFileSync(`${d}/src/one.ts`, "one\n");
          Deno.writeTextFileSync(`${d}/src/sub/two.ts`, "two\n");
          Deno.writeTextFileSync(`${d}/README.md`, "readme\n");
        }
        const f = inspectLine(line, opts(a));
        ok(f && f.action === "rewrite" && f.rule === "verbose", JSON.stringify(f));
        if (f?.action !== "rewrite") return;
        const loud = await sh(line, a);
        const quiet = await sh(f.line, b);
        deepStrictEqual(tree(b), tree(a));
        ok(loud.length > 0, "the original lists what it did");
        strictEqual(quiet, "");
      });
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("inspectLine: a rule in off is not applied", () => {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-guard-off-" });
  try {
    project(dir);
    const o = opts(dir);
    strictEqual(inspectLine("grep -r needle .", { ...o, off: new Set(["grep-vendor"]) }), null);
    strictEqual(inspectLine("find .", { ...o, off: new Set(["find-vendor"]) }), null);
    strictEqual(inspectLine("tree", { ...o, off: new Set(["tree-vendor"]) }), null);
    strictEqual(inspectLine("cp -v a b", { ...o, off: new Set(["verbose"]) }), null);
    strictEqual(inspectLine("find / -name x", { ...o, off: new Set(["root-search"]) }), null);
    strictEqual(inspectLine("grep -r needle .", o)?.rule, "grep-vendor");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inspectLine leaves tree as asked when the tree grammar reads a pattern or a depth", () => {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-guard-tree-" });
  try {
    project(dir);
    const o = opts(dir);
    strictEqual(inspectLine("tree -L2", o), null);
    strictEqual(inspectLine("tree -Ivendor", o), null);
    strictEqual(inspectLine("tree --gitignore=yes", o), null);
    // `-H`'s value is a base URL, not a directory listed: the listing is of `.`.
    strictEqual(inspectLine("tree -H base", o)?.rule, "tree-vendor");
    strictEqual(inspectLine("tree src", o), null);
    strictEqual(inspectLine("tree", o)?.rule, "tree-vendor");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inspectLine looks through the wrappers the rewrite looks through, options included", () => {
  const dir = Deno.makeTempDirSync({ prefix: "rtok-guard-wrap-" });
  try {
    project(dir);
    const o = opts(dir);
    const wrapped: [string, string, string][] = [
      ["timeout 10 grep -r needle .", "timeout 10 grep --exclude-dir=", "grep-vendor"],
      ["nice -n 5 find .", "nice -n 5 find . \\( -type d", "find-vendor"],
      ["time -p tree", "time -p tree -I '", "tree-vendor"],
    ];
    for (const [line, start, rule] of wrapped) {
      const f = inspectLine(line, o);
      ok(f?.action === "rewrite" && f.line.startsWith(start), JSON.stringify(f));
      strictEqual(f.rule, rule);
    }
    strictEqual(inspectLine("command -v grep", o), null);
    strictEqual(inspectLine("timeout --bogus 5 grep -r needle .", o), null);
    strictEqual(inspectLine("sudo grep -r needle .", o), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("definitionSearch() reads the name a search for its definition names", async (t) => {
  const found: [string, string, string][] = [
    ["grep -rn 'def parse' .", "parse", "/p"],
    ["grep -rn 'function parseConfig' src", "parseConfig", "/p"],
    ["grep -R 'class Parser' .", "Parser", "/p"],
    ["egrep -rn 'func Open\\(' .", "Open", "/p"],
    ["rg 'class Parser'", "Parser", "/p"],
    ["rg -n '^\\s*def load\\(' --type py", "load", "/p"],
    ["rg 'export async function load'", "load", "/p"],
    ["rg -t ts 'interface Options'", "Options", "/p"],
    ["rg 'struct Store {'", "Store", "/p"],
    ["rg -e 'fn main\\b' src", "main", "/p"],
    ["cd lib && rg 'type Id'", "Id", "/p/lib"],
    // Options that take a value, read by the rg and grep grammars: the value is neither the
    // pattern nor a path.
    ["rg -r X 'def parse' src", "parse", "/p"],
    ["rg --replace X 'def parse' src", "parse", "/p"],
    ["rg --replace=X 'def parse' src", "parse", "/p"],
    ["rg --max-depth 2 'class Parser'", "Parser", "/p"],
    ["rg --pre cat 'class Parser' src", "Parser", "/p"],
    ["rg --ignore-file .rgignore 'class Parser'", "Parser", "/p"],
    ["grep -r -X egrep 'def parse' .", "parse", "/p"],
  ];
  for (const [line, name, cwd] of found) {
    await t.step(line, () => {
      const s = definitionSearch(line, "/p");
      deepStrictEqual([s?.name, s?.cwd], [name, cwd]);
    });
  }
  const none = [
    "grep -n 'def parse' a.py", // one file, not a search of the project
    "rg 'class Parser|class Lexer'", // two names
    "rg 'def .*parse'", // not a plain name
    "grep -rn parse .", // no declaring word
    "rg 'def parse' | head", // piped on
    "rg -e 'def a' -e 'def b'", // two patterns
    'rg "def $NAME"', // a word the shell expands
    "rg 'undefined value'", // a declaring word inside another
    "rg -r 'def parse' X src", // `def parse` is the replacement, X the pattern
    "grep -r -f 'def parse' src", // the patterns are in a file
  ];
  for (const line of none) {
    await t.step(`none: ${line}`, () => strictEqual(definitionSearch(line, "/p"), null));
  }
});
