/**
 * Rule 9 of the design (identifiers arrive whole) as a check of a filtered output against the
 * raw output it came from; the fixture tests run it on every golden fixture.
 *
 * What the raw output names:
 *
 * - **paths**: every token (a run of letters, digits and `_ . @ + ~ - /`, with `file://`
 *   dropped, other URLs skipped and a sentence's final `.` trimmed) that holds a `/` and a
 *   letter and does not start with `//`, or that ends in a known file extension (`ci.js`,
 *   `Cargo.toml`); so `path:line:col`, git status entries, both sides of `a -> b`, diff headers
 *   and `--- a/x` lines are all read; git's rename notation in a diffstat
 *   (`src/{a.ts => b.ts}`, `{src => lib}/x.ts`) is read as the two whole paths it stands for;
 * - for listings, their entries instead: each line of `find`; each entry of `ls`, joined to its
 *   `dir:` header when it has one (`ls -R`, several operands); each entry of `tree`, joined to
 *   its parents and the root as printed (`./lib/cli/entry.js`). In a listing the entry is the
 *   path even when the tool writes only its name;
 * - `git branch` names the refs it lists, remote ones without the `remotes/` git writes in
 *   front (`origin/main` is the name git takes back);
 * - not read: git's advice in parentheses (`(use "git add/rm <file>..." …)`) and the script
 *   line a package manager echoes (`> node build.js`), which name commands and which the
 *   filters drop by design;
 * - **hashes**: tokens of 7 to 40 hex digits holding both a digit and a letter.
 *
 * A path `dir/name` is **whole** in the output when the output holds it as a token (a trailing
 * `/` allowed), or when a line lists `name` under `dir` written in full: the line starts with
 * `dir:` (`./src/net/: a.py, b.py`), or it follows a line that is `dir:` alone (`ls -R`) or
 * that names `dir` and no other path (`(stack paths below /tmp/p/)`). A hash is whole when the
 * output holds it, or its first 7 digits or more, as a token.
 *
 * The check fails on:
 *
 * - **a missing identifier**: a path or hash of the raw output that is not whole in an output
 *   that cut nothing. When the output is lossy, its pointer line counts what was cut and names
 *   the command that brings it back, which is allowed;
 * - **a fragment**: a path-like or hash-like token of the output (the pointer line aside) that
 *   the raw output does not hold. It may be a raw path or hash, a path the command's own
 *   arguments name, a directory a raw path starts with (`lib/commands/`), a name listed under
 *   its full directory (as above), or a shorter spelling of a raw path that keeps its tail whole
 *   (`tests/a.php` for `/tmp/p/tests/a.php`, outside listings); anything else is a piece of an
 *   identifier: `ci.js` out of `lib/commands/{ci.js,install.js}`, `/lib/a.js` out of
 *   `{old,new}/lib/a.js`, `net/` out of `./src/` then `  net/: a.py`.
 *
 * @module
 */

/** What a raw output names, read as the module doc says. */
export interface RawIdentifiers {
  /** Paths split at their last `/` (a trailing one aside): `dir` is `""` or ends in `/`. */
  readonly paths: readonly { readonly dir: string; readonly name: string }[];
  /** Hashes, as written. */
  readonly hashes: readonly string[];
  /** Every path-like and hash-like token of the raw text (listings: their paths). */
  readonly tokens: ReadonlySet<string>;
}

/** Families whose raw output is a listing read entry by entry. */
const LISTINGS = new Set(["find", "ls", "tree"]);

// Extensions a file name ends in. Words that end code expressions as often as file names
// (`.map`, `.lock`, `.log`, `.sum`, `.diff`, `.cmd`, `.properties`) are left out.
const EXTENSIONS = new Set(
  ("js mjs cjs jsx ts mts cts tsx json jsonc json5 md mdx rst txt py pyi pyc ipynb rs go rb " +
    "erb rake gemspec php java kt kts groovy gradle scala swift c h cc cpp cxx hpp cs dart exs " +
    "erl hs elm lua zig sh bash zsh fish ps1 toml yaml yml ini cfg conf xml html htm css scss " +
    "sass less vue svelte astro sql graphql proto tf tfvars hcl cmake csv tsv svg png jpg jpeg " +
    "gif ico pdf wasm so dylib dll exe jar whl gz tgz zip tar xz patch snap")
    .split(" "),
);

const TOKEN = /[\p{L}\p{N}_.@+~\/-]+/gu;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()\]]*/gi;
const HASH = /^(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$/;
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** A token of a line and where it starts. */
interface Token {
  readonly text: string;
  readonly start: number;
}

/** The tokens of `line`: `file://` dropped, other URLs blanked, a final `.` trimmed. */
export function tokensOf(line: string): Token[] {
  const blanked = line.replace(
    URL,
    (url) => url.toLowerCase().startsWith("file://") ? " ".repeat(7) + url.slice(7) : " ",
  );
  const out: Token[] = [];
  for (const m of blanked.matchAll(TOKEN)) {
    const text = m[0].replace(/(?<=[^./])\.+$/, "");
    if (text !== "") out.push({ text, start: m.index });
  }
  return out;
}

/** True when `token` reads as a path: a `/` and a letter, or a known file extension. */
export function isPathLike(token: string): boolean {
  if (token.includes("/")) return !token.startsWith("//") && /\p{L}/u.test(token);
  const ext = /^(?=.*[\p{L}\p{N}].*\.)[^/]+\.([A-Za-z0-9]+)$/u.exec(token);
  return ext !== null && EXTENSIONS.has(ext[1].toLowerCase());
}

/** True when `token` reads as a hash. */
export function isHash(token: string): boolean {
  return HASH.test(token);
}

function split(path: string): { dir: string; name: string } {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const slash = trimmed.lastIndexOf("/");
  return { dir: trimmed.slice(0, slash + 1), name: trimmed.slice(slash + 1) };
}

function lines(text: string): string[] {
  return text.replace(ANSI, "").split("\n");
}

// `ls -l` columns before the name: mode, links, owner, group, size, date (locale or ISO).
const LONG_ENTRY =
  /^[-bcdlpsD?][-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+(?:\d+,\s*)?[\d.,]+[KMGTPEZY]?\s+(?:[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{4}|\d{1,2}:\d{2})|\d{4}-\d{2}-\d{2}(?:[ T][\d:.]+)?(?: [+-]\d{4})?)\s(.+)$/;

function lsPaths(raw: string): string[] {
  const paths: string[] = [];
  let dir = "";
  let previous = "";
  for (const line of lines(raw)) {
    const header = /^(.+):$/.exec(line);
    if (header && (previous === "" || paths.length === 0)) {
      dir = header[1].endsWith("/") ? header[1] : `${header[1]}/`;
      previous = line;
      continue;
    }
    previous = line;
    if (line === "" || /^total \S+$/.test(line)) continue;
    const long = LONG_ENTRY.exec(line);
    const name = long ? long[1].replace(/ -> .*$/, "") : line;
    if (name !== "." && name !== "..") paths.push(dir + name);
  }
  return paths;
}

const TREE_ENTRY = /^((?:[│|\u00a0 ][\u00a0 ]{3})*)(?:[├└]──|[|`]--)[\u00a0 ](.*)$/;

function treePaths(raw: string): string[] {
  const paths: string[] = [];
  const open: string[] = [];
  for (const line of lines(raw)) {
    if (line === "" || /^\d+ director(?:y|ies)(?:, \d+ files?)?$/.test(line)) continue;
    const m = TREE_ENTRY.exec(line);
    if (!m) {
      open.length = 0;
      open.push(line);
      continue;
    }
    const depth = m[1].length / 4 + 1;
    const name = m[2].replace(/^\[[^\]]*\]\s+/, "").replace(/ -> .*$/, "");
    open.length = depth;
    open.push(name);
    paths.push(open.join("/"));
  }
  return paths;
}

// What a package manager echoes before it runs a script (`> node build.js`, `$ jest`): the
// script's line of package.json, which the script filters drop by design.
const SCRIPT_ECHO = /^(?:> |\$ )/;
const SCRIPT_FAMILIES = /^(?:npm|pnpm|yarn|bun) (?:run|test)$/;

// git's advice, `(use "git add/rm <file>..." to update what will be committed)`: it names
// commands, not files, and the git filters drop it by design.
const GIT_ADVICE = /^\s*\(.*"git [^"]*".*\)$/;

// git's rename notation in a diffstat: a prefix that ends in `/`, `{old => new}`, a suffix that
// starts with `/`; an empty side leaves one `/` between prefix and suffix.
const GIT_RENAME = /([^\s{}]*)\{([^\s{}]*) => ([^\s{}]*)\}([^\s{}|]*)/g;

function renamed(prefix: string, middle: string, suffix: string): string {
  if (middle !== "") return prefix + middle + suffix;
  return prefix === "" ? suffix.replace(/^\//, "") : prefix + suffix.replace(/^\//, "");
}

// The text whose tokens are read: git's `remotes/` and diff prefixes (`a/`, `b/`) taken off,
// git's rename notation written out as its two paths.
function readable(family: string, raw: string): string[] {
  let text = raw;
  if (family === "git branch") text = text.replace(/^([* ] )remotes\//gm, "$1");
  if (family.startsWith("git ")) {
    text = text.replace(
      GIT_RENAME,
      (_, prefix, from, to, suffix) =>
        `${renamed(prefix, from, suffix)} ${renamed(prefix, to, suffix)}`,
    );
  }
  if (/^diff --git /m.test(text)) {
    text = text.replace(/^(diff --git )a\/(.*) b\//gm, "$1$2 ").replace(
      /^(---|\+\+\+) [ab]\//gm,
      "$1 ",
    );
  }
  const all = lines(text).filter((line) => !GIT_ADVICE.test(line));
  return SCRIPT_FAMILIES.test(family) ? all.filter((line) => !SCRIPT_ECHO.test(line)) : all;
}

/** What `raw`, printed by a command of `family`, names. */
export function rawIdentifiers(family: string, raw: string): RawIdentifiers {
  const tokens = new Set<string>();
  const paths: string[] = [];
  const hashes: string[] = [];
  for (const line of readable(family, raw)) {
    for (const { text: token } of tokensOf(line)) {
      if (isHash(token)) hashes.push(token);
      if (!isPathLike(token) && !isHash(token)) continue;
      tokens.add(token);
      if (!LISTINGS.has(family) && isPathLike(token)) paths.push(token);
    }
  }
  if (LISTINGS.has(family)) {
    tokens.clear();
    if (family === "find") paths.push(...lines(raw).filter((line) => line !== ""));
    if (family === "ls") paths.push(...lsPaths(raw));
    if (family === "tree") paths.push(...treePaths(raw));
    for (const path of paths) tokens.add(path);
  }
  return { paths: [...new Set(paths)].map(split), hashes: [...new Set(hashes)], tokens };
}

/** A line of the output with the directory its names are listed under, if any. */
interface OutLine {
  readonly text: string;
  readonly tokens: Token[];
  /** The directory written in full that heads the line or the block it is in (ends in `/`). */
  readonly dir: string | null;
  /** Where the line's own `dir:` heading ends, or 0. */
  readonly headEnd: number;
}

/** The output's lines with their headings resolved, the pointer line left out. */
function outLines(out: string, lossy: boolean, dirs: ReadonlySet<string>): OutLine[] {
  const text = lines(out);
  if (text[text.length - 1] === "") text.pop();
  if (lossy) text.pop();
  let block: string | null = null;
  return text.map((line) => {
    const tokens = tokensOf(line);
    // A heading is a directory of the raw output written in full, then `:`; tokens only find
    // names, so a heading like `./` is read from the line itself.
    const head = /^\s*(\S+?)\/?:(?: |$)/.exec(line);
    const dir = head ? `${head[1]}/`.replace(/\/\/$/, "/") : null;
    if (dir !== null && dirs.has(dir)) {
      if (head![0].length === line.length) block = dir;
      return { text: line, tokens, dir, headEnd: head![0].length };
    }
    // A line naming one directory in full and no other path heads the lines below it:
    // `(stack paths below /tmp/p/)`.
    const named = tokens.filter((t) => isPathLike(t.text));
    if (named.length === 1 && named[0].text.endsWith("/") && dirs.has(named[0].text)) {
      block = named[0].text;
      return { text: line, tokens, dir: null, headEnd: 0 };
    }
    return { text: line, tokens, dir: block, headEnd: 0 };
  });
}

function directories(ids: RawIdentifiers): Set<string> {
  const dirs = new Set<string>();
  for (const { dir, name } of ids.paths) {
    dirs.add(`${dir}${name}/`);
    const parts = dir.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/") + "/");
  }
  return dirs;
}

/**
 * What breaks rule 9 in `out`, the filtered output of `raw` (printed by `argv`, a command of
 * `family`); `lossy` says `out` ends with its pointer line. Empty when every identifier arrives
 * whole.
 */
export function identifierProblems(
  family: string,
  argv: readonly string[],
  raw: string,
  out: string,
  lossy: boolean,
): string[] {
  const ids = rawIdentifiers(family, raw);
  // The command's own arguments are known to the reader: `grep -n x lib/npm.js` says the file.
  const known = new Set([
    ...ids.tokens,
    ...argv.flatMap((arg) => tokensOf(arg).map((t) => t.text)),
  ]);
  const dirs = directories(ids);
  const listing = LISTINGS.has(family);
  const fullPaths = new Set(ids.paths.map(({ dir, name }) => dir + name));
  const shown = outLines(out, lossy, dirs);
  const wholeTokens = new Set<string>();
  const listed = new Set<string>();
  const problems: string[] = [];
  for (const line of shown) {
    for (const { text, start } of line.tokens) {
      const bare = text.length > 1 && text.endsWith("/") ? text.slice(0, -1) : text;
      wholeTokens.add(bare);
      const inBody = start >= line.headEnd;
      if (line.dir !== null && inBody) listed.add(line.dir + bare);
      if (!isPathLike(text) && !isHash(text)) continue;
      if (known.has(text) || fullPaths.has(bare) || dirs.has(bare + "/")) continue;
      if (line.dir !== null && inBody && (fullPaths.has(line.dir + bare))) continue;
      if (isHash(text) && ids.hashes.some((hash) => hash.startsWith(text))) continue;
      if (!listing && isTail(text, fullPaths)) continue;
      problems.push(`fragment ${JSON.stringify(text)} in ${JSON.stringify(line.text.trim())}`);
    }
  }
  if (!lossy) {
    for (const { dir, name } of ids.paths) {
      const path = dir + name;
      if (!wholeTokens.has(path) && !listed.has(path)) problems.push(`missing path ${path}`);
    }
    for (const hash of ids.hashes) {
      const seen = [...wholeTokens].some((t) => t.length >= 7 && isHash(t) && hash.startsWith(t));
      if (!seen) problems.push(`missing hash ${hash}`);
    }
  }
  return problems;
}

// A shorter spelling of a raw path that keeps its tail whole, as when a tool's absolute path is
// written relative to the directory it ran in: `tests/a.php` for `/tmp/p/tests/a.php`.
function isTail(token: string, paths: ReadonlySet<string>): boolean {
  if (!token.includes("/") || token.startsWith("/") || token.endsWith("/")) return false;
  for (const path of paths) if (path.endsWith(`/${token}`)) return true;
  return false;
}
