/**
 * What kind of text a file holds, from its name first and its content second, so a caller
 * can pick the compressor (`lockfile.ts`, `json_structure.ts`, `log_levels.ts`) and the token
 * estimator's class. Cheap on purpose: it loads no npm package (the lockfile names live here,
 * not in `lockfile.ts`, for that reason) and reads the whole text only to parse JSON.
 *
 * The order: a lockfile's name; a document's (`.md`, `.markdown`, `.mdx`, `.rst`, `.adoc`); a `.log` name, or a `.jsonl`/`.ndjson` one whose lines carry
 * levels; a JSON name (`.json`, `.jsonc`, `.json5`, `.geojson`, `.har`, `.webmanifest`) whose
 * text parses; a known code extension or name (`Makefile`, `Dockerfile`); then, for any other
 * name, text that parses as a JSON object or array, or reads as a log; else `"text"`. Bytes
 * that are not text are the caller's to find first; anything else gives `"text"` safely.
 *
 * @module
 */

import { isLog } from "./log_levels.ts";
import { documentSyntax } from "./document.ts";

/** The kinds of file text {@linkcode classifyFile} tells apart. */
export type FileKind = "code" | "json" | "log" | "lockfile" | "document" | "text";

/** The lockfile kinds, by the tool that writes them. */
export type LockfileKind =
  | "npm"
  | "yarn"
  | "pnpm"
  | "cargo"
  | "poetry"
  | "uv"
  | "bundler"
  | "go"
  | "composer";

const _LOCKFILES: Readonly<Record<string, LockfileKind>> = {
  "package-lock.json": "npm",
  "npm-shrinkwrap.json": "npm",
  "yarn.lock": "yarn",
  "pnpm-lock.yaml": "pnpm",
  "Cargo.lock": "cargo",
  "poetry.lock": "poetry",
  "uv.lock": "uv",
  "Gemfile.lock": "bundler",
  "gems.locked": "bundler",
  "go.sum": "go",
  "composer.lock": "composer",
};

const _JSON_EXTS = new Set(["json", "jsonc", "json5", "geojson", "har", "webmanifest"]);
const _JSON_LINES_EXTS = new Set(["jsonl", "ndjson"]);
const _CODE_EXTS = new Set([
  "ts",
  "tsx",
  "mts",
  "cts",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "py",
  "pyi",
  "rb",
  "go",
  "rs",
  "java",
  "kt",
  "kts",
  "scala",
  "groovy",
  "gradle",
  "swift",
  "c",
  "h",
  "cc",
  "cpp",
  "cxx",
  "hpp",
  "hh",
  "m",
  "mm",
  "cs",
  "fs",
  "vb",
  "php",
  "pl",
  "pm",
  "lua",
  "r",
  "jl",
  "dart",
  "ex",
  "exs",
  "erl",
  "hrl",
  "hs",
  "ml",
  "mli",
  "clj",
  "cljs",
  "elm",
  "zig",
  "nim",
  "sol",
  "sh",
  "bash",
  "zsh",
  "fish",
  "ps1",
  "bat",
  "cmd",
  "sql",
  "vue",
  "svelte",
  "astro",
  "css",
  "scss",
  "sass",
  "less",
  "html",
  "htm",
  "proto",
  "tf",
  "cmake",
]);
const _CODE_NAMES = new Set([
  "Makefile",
  "GNUmakefile",
  "Dockerfile",
  "Containerfile",
  "Rakefile",
  "Gemfile",
  "Vagrantfile",
  "Jenkinsfile",
  "CMakeLists.txt",
  "BUILD",
  "BUILD.bazel",
  "WORKSPACE",
]);

/** The last segment of `path`, split at `/` or `\`. */
export function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** The lockfile kind `path` names by its file name alone, or `null` when it names none. */
export function lockfileKind(path: string): LockfileKind | null {
  return Object.hasOwn(_LOCKFILES, basename(path)) ? _LOCKFILES[basename(path)] : null;
}

// The extension, lower-cased, without its dot; "" for none (a leading dot is a hidden name).
function _ext(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

function _parsesAsJson(text: string, containerOnly: boolean): boolean {
  const start = text.search(/\S/);
  if (start < 0) return false;
  if (containerOnly && text[start] !== "{" && text[start] !== "[") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What `text`, the content of the file at `path`, is: `"lockfile"`, `"log"`, `"json"`,
 * `"code"` or `"text"` (see the module doc for the order). Deterministic, and never throws.
 */
export function classifyFile(path: string, text: string): FileKind {
  try {
    const name = basename(path);
    if (lockfileKind(name)) return "lockfile";
    // A document is read by its headings, however often its prose says "error".
    if (documentSyntax(name) !== null) return "document";
    const ext = _ext(name);
    if (ext === "log") return "log";
    if (_JSON_LINES_EXTS.has(ext)) return isLog(text) ? "log" : "text";
    if (_JSON_EXTS.has(ext)) return _parsesAsJson(text, false) ? "json" : "text";
    if (_CODE_EXTS.has(ext) || _CODE_NAMES.has(name)) return "code";
    if (_parsesAsJson(text, true)) return "json";
    if (isLog(text)) return "log";
  } catch {
    // A text too odd to read (a stack overflow in a parser) is still text.
  }
  return "text";
}
