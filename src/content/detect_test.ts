import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFixtures } from "../../tests/_fixtures.ts";
import { FAILED } from "../core/shape.ts";
import { FAMILY_TABLE } from "../../filters/index.ts";
import { loadContentEngine } from "./engine.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url);
const engine = await loadContentEngine();
const read = { read: [FIXTURES] };

const fixtures = readFixtures;

// Families whose output looks alike share one filter; the shape names the one it uses.
const SHAPE_OF: Record<string, string> = {
  "cargo check": "cargo build",
  "cargo clippy": "cargo build",
  "go vet": "go build",
  "rg": "grep",
};
// The families whose modules declare a detector.
const SUPPORTED = new Set(engine.families);
// Captured outputs of a supported tool that hold none of its report, with the reason.
const NOT_THE_REPORT: Record<string, string> = {
  mocha_load_error: "mocha died loading a file: a Node stack trace, no mocha report",
};

Deno.test("engine.detect() reads each supported fixture over 500 chars as its tool's shape", {
  permissions: read,
}, async (t) => {
  let checked = 0;
  const seen = new Set<string>();
  for (const f of await fixtures()) {
    const expected = SHAPE_OF[f.meta.filter] ?? f.meta.filter;
    if (!SUPPORTED.has(expected) || f.shaped.length < 500 || NOT_THE_REPORT[f.name]) continue;
    await t.step(`${f.name} → ${expected}`, () => {
      strictEqual(engine.detect(f.shaped)?.name, expected);
    });
    checked++;
    seen.add(expected);
  }
  ok(checked >= 70, `${checked} fixtures checked`);
  deepStrictEqual([...SUPPORTED].filter((s) => !seen.has(s)), [], "every shape has a fixture");
});

Deno.test("engine.detect() infers a failing exit code exactly when the run failed", {
  permissions: read,
}, async (t) => {
  // Runs checked that failed, and that passed: both kinds, or the test says nothing.
  const checked = [0, 0];
  for (const f of await fixtures()) {
    const shape = engine.detect(f.shaped);
    if (!shape?.family || f.shaped.length < 500 || shape.name === "go build") continue;
    if (
      ["git log", "git show", "git diff", "diff", "git status", "grep", "tree", "find", "ls"]
        .includes(shape.name)
    ) continue;
    checked[f.meta.exitCode !== 0 ? 0 : 1]++;
    await t.step(`${f.name} (exit ${f.meta.exitCode})`, () => {
      strictEqual(shape.exitCode !== 0, f.meta.exitCode !== 0, `inferred ${shape.exitCode}`);
    });
  }
  ok(checked[0] >= 25 && checked[1] >= 10, `${checked[0]} failed runs, ${checked[1]} passed`);
});

Deno.test("engine.detect() gives grep the layout flags the hits were printed with", {
  permissions: read,
}, async (t) => {
  const byName = new Map((await fixtures()).map((f) => [f.name, f]));
  const cases: [string, "raw" | "shaped", string[]][] = [
    ["grep_rn_many_files", "raw", ["-H", "-n"]],
    ["grep_context", "raw", ["-H", "-n", "-C", "1"]],
    ["grep_r_shaped", "raw", ["-H"]],
    ["grep_one_file", "shaped", ["-n"]],
    ["rg_many_files", "shaped", ["-H", "-n"]],
  ];
  for (const [name, file, args] of cases) {
    await t.step(`${name} ${file}.out`, () => {
      const shape = engine.detect(byName.get(name)![file]);
      strictEqual(shape?.name, "grep");
      deepStrictEqual(shape?.args, args);
    });
  }
});

Deno.test("engine.detect() tells neighbouring shapes apart", {
  permissions: read,
}, async (t) => {
  const byName = new Map((await fixtures()).map((f) => [f.name, f]));
  const cases: [string, string][] = [
    ["git_diff", "git diff"], // a diff is not a git log
    ["git_show", "git show"], // a commit with its patch is not a bare log
    ["git_log_lab", "git log"], // nor is a log a show
    ["go_build_errors", "go build"], // `file.go:8:19: msg` is not a grep hit
    ["mypy_errors", "mypy"], // `file.py:1: error:` is not a grep hit
    ["ls_plain_big_dir", "ls"], // bare names are not a find listing
    ["find_type_f", "find"], // paths are not bare names
    ["npm_ci_no_lockfile", "text"], // npm's log is no known shape
  ];
  for (const [name, shape] of cases) {
    await t.step(`${name} → ${shape}`, () => {
      strictEqual(engine.detect(byName.get(name)!.shaped)?.name, shape);
    });
  }
});

Deno.test("engine.detect() reads prose with colons as text, not grep hits", () => {
  const prose = [
    "Note: the build runs in two stages.",
    "Stage one: fetch the sources and check their hashes.",
    "Stage two: compile, then link: both steps log to the same file.",
    "Warning: a stale cache can hide a missing file.",
    "Summary: run it twice when in doubt.",
  ].join("\n");
  strictEqual(engine.detect(prose)?.name, "text");
});

Deno.test("engine.detect() calls JSON only a whole object or array that parses", async (t) => {
  const cases: [string, string][] = [
    ['{\n  "a": [1, 2, 3]\n}\n', "json"],
    ["  [1, 2]  ", "json"],
    ['{"a": 1', "text"],
    ['{"a": 1} and more', "text"],
    ['"just a string"', "text"],
  ];
  for (const [text, shape] of cases) {
    await t.step(JSON.stringify(text), () => strictEqual(engine.detect(text)?.name, shape));
  }
});

Deno.test("engine.detect() returns null for blank text", () => {
  strictEqual(engine.detect(""), null);
  strictEqual(engine.detect(" \n\t\n"), null);
});

Deno.test("engine.detect() reads a huge text from its first and last lines only", () => {
  const middle = "x".repeat(3_000_000);
  const text =
    "============================= test session starts ==============================\n" +
    middle + "\n=========== 1 failed, 2 passed in 0.10s ===========\n";
  const shape = engine.detect(text);
  strictEqual(shape?.name, "pytest");
  strictEqual(shape?.exitCode, FAILED);
});

Deno.test("loadContentEngine() reads every family the family table says declares a detector", () => {
  const detecting = Object.entries(FAMILY_TABLE).filter(([, e]) => e.detects).map(([f]) => f);
  deepStrictEqual([...engine.families].sort(), detecting.sort());
  ok(detecting.length >= 26, `${detecting.length} families detect their output`);
});
