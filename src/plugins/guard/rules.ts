/**
 * The guard's rules: which shell lines waste the agent's context, and what is cheaper. A rule
 * either rewrites the line where the cheaper form gives the same facts (text inserted or one
 * flag dropped, every other byte kept as written), or names the cheaper form in a reason.
 *
 * Only commands whose output reaches the agent are looked at: the last stage of a pipeline,
 * its stdout not sent to `/dev/null`. A line the lexer cannot vouch for is left alone.
 *
 * @module
 */

import { lex, type Token, type Word } from "../../core/lexer.ts";
import { DISABLE_VAR, disables } from "../../core/env.ts";
import { joinPath } from "../../core/paths.ts";
import { GREP, readSearch, RG } from "../../core/grammar/grep.ts";
import { FIND_ACTIONS, FIND_GLOBALS, readFind } from "../../core/grammar/find.ts";
import { scanOptions } from "../../core/grammar/options.ts";
import { TREE, TREE_SCOPE } from "../../core/grammar/tree.ts";
import { peelWrappers } from "../../core/grammar/wrappers.ts";

/** What a rule found in a line. */
export type Finding =
  | {
    /** The rule. */
    readonly rule: string;
    /** The line is rewritten to a cheaper one giving the same facts. */
    readonly action: "rewrite";
    /** The simple command the rule is about, as written. */
    readonly command: string;
    /** The whole line, rewritten. */
    readonly line: string;
    /** One line saying what changed. */
    readonly why: string;
  }
  | {
    /** The rule. */
    readonly rule: string;
    /** The line is explained: a reason naming the cheaper form. */
    readonly action: "reason";
    /** The simple command the rule is about, as written. */
    readonly command: string;
    /** The reason, for the agent. */
    readonly reason: string;
  };

/** What the rules read of the file system (the real one unless a test says otherwise). */
export interface GuardFs {
  /** True when `path` is a directory. */
  isDir(path: string): boolean;
  /** The size in bytes of the regular file at `path`, or `null` when it is not one. */
  fileSize(path: string): number | null;
  /** The text of the file at `path`, or `null` when it cannot be read. */
  readText(path: string): string | null;
}

/** The real file system, read synchronously (a stat or two per guarded command). */
export const REAL_FS: GuardFs = {
  isDir(path) {
    try {
      return Deno.statSync(path).isDirectory;
    } catch {
      return false;
    }
  },
  fileSize(path) {
    try {
      const s = Deno.statSync(path);
      return s.isFile ? s.size : null;
    } catch {
      return null;
    }
  },
  readText(path) {
    try {
      return Deno.readTextFileSync(path);
    } catch {
      return null;
    }
  },
};

/** What {@linkcode inspectLine} needs besides the line. */
export interface InspectOptions {
  /** The agent's working directory. */
  readonly cwd: string;
  /** The rules not to apply (off in config, or stopped in this project). */
  readonly off: ReadonlySet<string>;
  /** cat-large: over this many lines… */
  readonly readLines: number;
  /** …or this many chars. */
  readonly readChars: number;
  /** The words that run rtok, for the forms a reason names (asked only when one does). */
  readonly rtok: () => string;
  /** The file system. */
  readonly fs?: GuardFs;
}

/** The directories a search should not walk unless it names them. */
export const VENDOR_DIRS: readonly string[] = ["node_modules", ".git", "dist", "target"];

// One simple command of a line: its words (after assignments and wrappers) and where it is.
interface _Cmd {
  readonly words: readonly Word[];
  readonly start: number;
  readonly end: number;
  readonly cwd: string | null;
}

// A text change: delete `del` chars at `at`, insert `text` there.
interface _Edit {
  readonly at: number;
  readonly del: number;
  readonly text: string;
}

const _ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
// A redirect that sends stdout away: the output never reaches the agent.
const _STDOUT_AWAY = /^(?:1?>|&>|>&|1>&)\s*\/dev\/null/;

/** The first finding of the rules in `line`, or `null` when it is fine as it is. */
export function inspectLine(line: string, opts: InspectOptions): Finding | null {
  const lexed = lex(line);
  if (!lexed.ok) return null;
  // `RTOK_DISABLED=1 cmd` turns rtok off for the line, the guard included.
  const off = lexed.tokens.some((t) =>
    t.kind === "word" && t.value.startsWith(`${DISABLE_VAR}=`) &&
    disables(t.value.slice(DISABLE_VAR.length + 1))
  );
  if (off) return null;
  for (const cmd of _commands(lexed.text, lexed.tokens, opts.cwd)) {
    const f = _inspect(line, cmd, opts);
    if (f) return f;
  }
  return null;
}

// The simple commands whose output reaches the agent, each with the directory it runs in
// (a plain `cd` before it is followed; `null` when that cannot be known).
function _commands(
  text: string,
  tokens: readonly Token[],
  cwd: string,
): _Cmd[] {
  const out: _Cmd[] = [];
  let dir: string | null = cwd;
  let words: Word[] = [];
  let away = false;
  let end = 0;
  const flush = (last: boolean) => {
    const w = _strip(words);
    if (w && w.length) {
      const first = w[0].value;
      if (first === "cd") {
        const to = w[1];
        dir = w.length === 2 && dir !== null && !to.dynamic && !to.value.startsWith("-")
          ? (to.value.startsWith("/") ? to.value : joinPath(dir, to.value))
          : null;
      } else if (last && !away) {
        out.push({ words: w, start: w[0].start, end, cwd: dir });
      }
    }
    words = [];
    away = false;
  };
  for (const t of tokens) {
    if (t.kind === "word") {
      words.push(t);
      end = t.end;
    } else if (t.kind === "redirect") {
      if (_STDOUT_AWAY.test(text.slice(t.start, t.end))) away = true;
      end = t.end;
    } else if (t.kind === "op") {
      flush(t.op !== "|" && t.op !== "|&");
    }
  }
  flush(true);
  return out;
}

// The words after assignments and the wrappers the rewrite looks through too; `null` for a
// wrapper whose options cannot be read, or a command run as another user (`sudo`): the guard
// has no opinion there.
function _strip(words: readonly Word[]): readonly Word[] | null {
  let i = 0;
  while (i < words.length && _ASSIGNMENT.test(words[i].value) && !words[i].quoted) i++;
  const k = peelWrappers(words, i);
  if (typeof k === "string") return null;
  if (words[k]?.value === "sudo" || words[k]?.value === "doas") return null;
  return words.slice(k);
}

function _inspect(line: string, cmd: _Cmd, opts: InspectOptions): Finding | null {
  const tool = cmd.words[0].value.replace(/^.*\//, "");
  const on = (rule: string) => !opts.off.has(rule);
  switch (tool) {
    case "cat":
      return on("cat-large") ? _catLarge(line, cmd, opts) : null;
    case "grep":
    case "egrep":
    case "fgrep":
      return _grep(line, cmd, opts);
    case "find":
      return _find(line, cmd, opts);
    case "tree":
      return on("tree-vendor") ? _tree(line, cmd, opts) : null;
    default:
      return on("verbose") ? _verbose(line, cmd, tool) : null;
  }
}

function _text(line: string, cmd: _Cmd): string {
  return line.slice(cmd.start, cmd.end);
}

function _apply(line: string, edits: readonly _Edit[]): string {
  let out = line;
  for (const e of [...edits].sort((a, b) => b.at - a.at)) {
    out = out.slice(0, e.at) + e.text + out.slice(e.at + e.del);
  }
  return out;
}

function _resolve(dir: string, path: string): string {
  return path.startsWith("/") ? path : joinPath(dir, path);
}

// --- cat-large ---------------------------------------------------------------------------

function _catLarge(line: string, cmd: _Cmd, opts: InspectOptions): Finding | null {
  if (cmd.cwd === null) return null;
  // Numbering or squeezing still prints the whole file; other options are left alone.
  const args = cmd.words.slice(1);
  const files = args.filter((w) => !/^-[nbs]+$/.test(w.value));
  if (files.length === 0 || files.some((w) => w.dynamic || w.value.startsWith("-"))) return null;
  const fs = opts.fs ?? REAL_FS;
  let lines = 0;
  let chars = 0;
  for (const w of files) {
    const path = _resolve(cmd.cwd, w.value);
    const size = fs.fileSize(path);
    if (size === null) return null;
    // A UTF-8 char is at most 4 bytes: past that the file is long without reading it.
    if (size > opts.readChars * 4) {
      chars += size;
      continue;
    }
    const text = fs.readText(path);
    if (text === null) return null;
    chars += text.length;
    lines += text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  }
  if (lines <= opts.readLines && chars <= opts.readChars) return null;
  const names = files.map((w) => w.value);
  const size = lines > 0 ? `${lines} lines, ${chars} chars` : `${chars} bytes`;
  const first = names[0].includes(" ") ? `'${names[0]}'` : names[0];
  const what = names.length === 1 ? `${names[0]} is` : `these ${names.length} files are`;
  return {
    rule: "cat-large",
    action: "reason",
    command: _text(line, cmd),
    reason: `rtok guard: ${what} long (${size}). Cheaper: \`${opts.rtok()} read ${first}\` ` +
      "(its first lines and an outline of the rest, the whole file one `rtok expand` away), " +
      "or the Read tool with offset and limit for the lines you need. To print it all " +
      "anyway, run the same command again.",
  };
}

// --- grep -r -----------------------------------------------------------------------------

interface _GrepArgs {
  readonly recursive: boolean;
  readonly excludes: boolean;
  readonly paths: readonly Word[];
}

function _grepArgs(words: readonly Word[]): _GrepArgs | null {
  if (words.some((w) => w.dynamic)) return null;
  const a = readSearch(words.slice(1).map((w) => w.value), GREP);
  const paths = a.pathAt.map((k) => words[k + 1]);
  return { recursive: a.recursive, excludes: a.excludes, paths };
}

// The vendor directories under each of `paths` (`.` when none), save those a word of the
// command names (as a path segment or a pattern): the search is then meant to walk them.
function _vendorsUnder(
  dir: string,
  paths: readonly string[],
  named: readonly string[],
  fs: GuardFs,
): string[] {
  const found = new Set<string>();
  for (const p of paths.length ? paths : ["."]) {
    const root = _resolve(dir, p);
    for (const v of VENDOR_DIRS) {
      const seg = new RegExp(`(?:^|[/=|*])${v.replace(".", "\\.")}(?:$|[/|*])`);
      if (named.some((a) => seg.test(a))) continue;
      if (fs.isDir(joinPath(root, v))) found.add(v);
    }
  }
  return VENDOR_DIRS.filter((v) => found.has(v));
}

function _grep(line: string, cmd: _Cmd, opts: InspectOptions): Finding | null {
  const g = _grepArgs(cmd.words);
  if (!g || !g.recursive) return null;
  if (g.paths.some((p) => p.value === "/")) {
    return opts.off.has("root-search") ? null : _rootSearch(line, cmd, opts, "grep -r");
  }
  if (opts.off.has("grep-vendor") || g.excludes || cmd.cwd === null) return null;
  const named = cmd.words.slice(1).map((w) => w.value);
  const vendors = _vendorsUnder(
    cmd.cwd,
    g.paths.map((p) => p.value),
    named,
    opts.fs ?? REAL_FS,
  );
  if (vendors.length === 0) return null;
  const insert = vendors.map((v) => ` --exclude-dir=${v}`).join("");
  return {
    rule: "grep-vendor",
    action: "rewrite",
    command: _text(line, cmd),
    line: _apply(line, [{ at: cmd.words[0].end, del: 0, text: insert }]),
    why: `searched without ${vendors.join(", ")} (name one to search it)`,
  };
}

// --- find --------------------------------------------------------------------------------

function _find(line: string, cmd: _Cmd, opts: InspectOptions): Finding | null {
  const w = cmd.words;
  // Word k of the arguments is word k + 1 of the command.
  const f = readFind(w.slice(1).map((x) => x.value));
  const paths = w.slice(f.pathsFrom + 1, f.exprFrom + 1);
  const lead = f.primaries.findIndex((p) => !Object.hasOwn(FIND_GLOBALS, p.name));
  const rest = lead < 0 ? [] : w.slice(f.primaries[lead].at + 1);
  const later = lead < 0 ? [] : f.primaries.slice(lead);
  const md = f.primaries.find((p) => p.name === "-maxdepth");
  const depth = md && md.values > 0 ? Number(w[md.at + 2].value) : null;
  if (paths.some((p) => p.value === "/")) {
    if (depth !== null && depth <= 2) return null;
    return opts.off.has("root-search") ? null : _rootSearch(line, cmd, opts, "find /");
  }
  if (opts.off.has("find-vendor") || cmd.cwd === null) return null;
  // `{}` (find's own placeholder) is the one brace the shell leaves as it is.
  if (w.some((x) => x.dynamic && x.value !== "{}")) return null;
  // Pruning does nothing with -depth, and a deletion must stay exactly as asked.
  const names = f.primaries.map((p) => p.name);
  if (names.some((v) => v === "-prune" || v === "-depth" || v === "-d" || v === "-delete")) {
    return null;
  }
  if (depth !== null && depth <= 1) return null;
  const named = w.slice(1).map((x) => x.value);
  const vendors = _vendorsUnder(cmd.cwd, paths.map((p) => p.value), named, opts.fs ?? REAL_FS);
  if (vendors.length === 0) return null;
  const pruned = vendors.map((v) => `-name ${v}`).join(" -o ");
  const prune = `\\( -type d \\( ${pruned} \\) \\) -prune -o`;
  const acts = later.some((p) => Object.hasOwn(FIND_ACTIONS, p.name));
  const edits: _Edit[] = rest.length
    ? [
      { at: rest[0].start, del: 0, text: `${prune} \\( ` },
      { at: rest[rest.length - 1].end, del: 0, text: acts ? " \\)" : " \\) -print" },
    ]
    : [{ at: w[w.length - 1].end, del: 0, text: ` ${prune} -print` }];
  return {
    rule: "find-vendor",
    action: "rewrite",
    command: _text(line, cmd),
    line: _apply(line, edits),
    why: `searched without ${vendors.join(", ")} (name one to search it)`,
  };
}

function _rootSearch(line: string, cmd: _Cmd, _opts: InspectOptions, what: string): Finding {
  return {
    rule: "root-search",
    action: "reason",
    command: _text(line, cmd),
    reason: `rtok guard: \`${what}\` walks the whole file system, and its output can fill ` +
      "your context. Cheaper: search from the project (`.`) or the one directory you mean " +
      "(`/etc`, `/usr/include`), or give -maxdepth. To walk it all anyway, run the same " +
      "command again.",
  };
}

// --- tree --------------------------------------------------------------------------------

function _tree(line: string, cmd: _Cmd, opts: InspectOptions): Finding | null {
  if (cmd.cwd === null || cmd.words.some((x) => x.dynamic)) return null;
  const values = cmd.words.slice(1).map((x) => x.value);
  const scanned = scanOptions(values, TREE);
  const flags = scanned.options.map((o) => o.flag);
  // Its own pattern, a depth limit, or a listing of directories named: as asked.
  if (flags.some((f) => TREE_SCOPE.includes(f))) return null;
  const all = flags.includes("-a");
  const vendors = _vendorsUnder(cmd.cwd, scanned.operands, values, opts.fs ?? REAL_FS);
  // tree leaves hidden directories out unless -a.
  const skip = vendors.filter((v) => all || !v.startsWith("."));
  if (skip.length === 0) return null;
  return {
    rule: "tree-vendor",
    action: "rewrite",
    command: _text(line, cmd),
    line: _apply(line, [{ at: cmd.words[0].end, del: 0, text: ` -I '${skip.join("|")}'` }]),
    why: `listed without ${skip.join(", ")} (name one to list it)`,
  };
}

// --- verbose flags -----------------------------------------------------------------------

// Per tool: its short flags that take no value (a cluster of only these may lose its `v`).
const _VERBOSE_TOOLS: Readonly<Record<string, string>> = {
  cp: "abdfHilLnPpRrsTuvxZ",
  mv: "bfinTuvZ",
  rm: "dfiIrRv",
  ln: "bdFfiLnPrsTv",
  mkdir: "pvZ",
  rmdir: "pv",
  chmod: "Rcfv",
  chown: "Rcfhv",
  chgrp: "Rcfhv",
  rsync: "aAbcCdDEgHhIJkKlLmoOpPqrRSstuUvWxXz",
};

function _verbose(line: string, cmd: _Cmd, tool: string): Finding | null {
  if (tool === "tar") return _tarVerbose(line, cmd);
  const flags = _VERBOSE_TOOLS[tool];
  if (!flags) return null;
  const args = cmd.words.slice(1);
  const values = args.map((x) => x.value);
  // rsync's listing is the point of a dry run.
  if (tool === "rsync" && values.some((v) => v === "--dry-run" || v === "--list-only")) {
    return null;
  }
  if (tool === "rsync" && values.some((v) => /^-[^-]*n/.test(v))) return null;
  const edits: _Edit[] = [];
  const dropped: string[] = [];
  for (const w of args) {
    const v = w.value;
    if (v === "--") break;
    if (w.quoted || w.dynamic) continue;
    if (v === "--verbose" || (tool === "rsync" && v === "--progress")) {
      edits.push(_dropWord(line, w));
      dropped.push(v);
    } else if (/^-[A-Za-z]+$/.test(v) && v.includes("v")) {
      const cluster = v.slice(1);
      if ([...cluster].some((c) => !flags.includes(c))) continue;
      const kept = cluster.replaceAll("v", "");
      edits.push(
        kept ? { at: w.start, del: w.end - w.start, text: `-${kept}` } : _dropWord(line, w),
      );
      dropped.push("-v");
    }
  }
  if (edits.length === 0) return null;
  return {
    rule: "verbose",
    action: "rewrite",
    command: _text(line, cmd),
    line: _apply(line, edits),
    why: `${tool} without ${[...new Set(dropped)].join(", ")}: the same effect, without a line ` +
      "per file",
  };
}

// tar: only when it creates or extracts (a listing's -v adds facts), dropping every `v`
// before the first letter that takes a value (after it, the cluster is that value).
function _tarVerbose(line: string, cmd: _Cmd): Finding | null {
  const args = cmd.words.slice(1);
  if (args.length === 0 || args.some((x) => x.dynamic)) return null;
  const first = args[0];
  const oldStyle = !first.value.startsWith("-") && /^[A-Za-z]+$/.test(first.value);
  const modes = args.flatMap((x, k) =>
    k === 0 && oldStyle
      ? [...x.value]
      : /^-[A-Za-z]+$/.test(x.value)
      ? [..._flagsBeforeValue(x.value.slice(1))]
      : x.value.startsWith("--")
      ? [x.value]
      : []
  );
  if (modes.some((m) => m === "t" || m === "--list" || m === "d" || m === "--diff")) return null;
  if (!modes.some((m) => m === "c" || m === "x" || m === "--create" || m === "--extract")) {
    return null;
  }
  const edits: _Edit[] = [];
  args.forEach((x, k) => {
    if (x.quoted) return;
    const v = x.value;
    if (v === "--verbose") {
      edits.push(_dropWord(line, x));
    } else if (k === 0 && oldStyle && v.includes("v")) {
      edits.push({ at: x.start, del: x.end - x.start, text: v.replaceAll("v", "") });
    } else if (/^-[A-Za-z]+$/.test(v)) {
      const head = _flagsBeforeValue(v.slice(1));
      if (!head.includes("v")) return;
      const kept = head.replaceAll("v", "") + v.slice(1 + head.length);
      edits.push(
        kept ? { at: x.start, del: x.end - x.start, text: `-${kept}` } : _dropWord(line, x),
      );
    }
  });
  if (edits.length === 0) return null;
  return {
    rule: "verbose",
    action: "rewrite",
    command: _text(line, cmd),
    line: _apply(line, edits),
    why: "tar without -v: the same archive, without a line per file",
  };
}

// The letters of a tar cluster up to and including the first that takes a value.
function _flagsBeforeValue(cluster: string): string {
  const k = [...cluster].findIndex((c) => "fCTXbHKNgFILV".includes(c));
  return k < 0 ? cluster : cluster.slice(0, k + 1);
}

// Deletes a word and the blank before it.
function _dropWord(line: string, w: Word): _Edit {
  let at = w.start;
  while (at > 0 && (line[at - 1] === " " || line[at - 1] === "\t")) at--;
  return { at, del: w.end - at, text: "" };
}

// --- grep-definition ---------------------------------------------------------------------

/** A search for where a name is defined: `grep -rn 'def NAME'`, `rg 'class NAME'`. */
export interface DefinitionSearch {
  /** The name searched for. */
  readonly name: string;
  /** The simple command, as written. */
  readonly command: string;
  /** The directory it runs in. */
  readonly cwd: string;
}

// A pattern naming one definition: anchors and leading blanks, modifiers, a declaring word,
// blanks, the name, then nothing or what may follow a declared name.
const _DEF_PATTERN = new RegExp(
  String.raw`^\^?(?:\\s[*+]|\s|\[\[:space:\]\][*+]|\.\*)*` +
    String
      .raw`(?:(?:export|pub|async|static|public|private|protected|default|abstract)(?:\s|\\s[*+])+)*` +
    String.raw`(?:def|class|function|func|fn|interface|type|struct|enum|trait)(?:\s|\\s[*+]|\\s)+` +
    String.raw`([A-Za-z_$][\w$]*)` +
    String.raw`(?:$|\\?\(|\\b|\\>|\s|\\s|:|<|\[|\{|\\\{)`,
);

/**
 * The definition search in `line` (the last stage of its commands, output reaching the
 * agent), or `null`: `grep` (recursive) or `rg` whose one pattern is a declaring word and a
 * plain name.
 */
export function definitionSearch(line: string, cwd: string): DefinitionSearch | null {
  const lexed = lex(line);
  if (!lexed.ok) return null;
  for (const cmd of _commands(lexed.text, lexed.tokens, cwd)) {
    const tool = cmd.words[0].value.replace(/^.*\//, "");
    const rg = tool === "rg";
    if (!rg && tool !== "grep" && tool !== "egrep") continue;
    if (cmd.words.some((w) => w.dynamic) || cmd.cwd === null) continue;
    const a = readSearch(cmd.words.slice(1).map((w) => w.value), rg ? RG : GREP);
    if (!rg && !a.recursive) continue;
    if (a.patterns.length !== 1) continue;
    const m = _DEF_PATTERN.exec(a.patterns[0]);
    if (m) return { name: m[1], command: _text(line, cmd), cwd: cmd.cwd };
  }
  return null;
}
