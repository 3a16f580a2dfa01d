/**
 * The resident server's warm-up: right after it listens, sample events go through a dry hook
 * (the same handler and plugins, a ledger and an archive that keep nothing), so the modules a
 * first event would load are loaded and compiled before a host asks: the content engine, each
 * file kind's compressor, the tree-sitter runtime and every grammar, the filters, the guard,
 * the hosts' adapters, the symbol lookup and SQLite. One event at a time, and only while no
 * request is in flight: a host's request is never queued behind warming.
 *
 * @module
 */

import type { Config } from "../../core/config.ts";
import { dryHook } from "../_dry_hook.ts";
import { HOST_IDS, loadHost } from "../../hosts/hosts.ts";
import { lazyImport } from "../../core/lazy.ts";

/** What warming did. */
export interface WarmReport {
  /** Milliseconds from the start of warming to its end. */
  readonly ms: number;
  /** Sample events answered. */
  readonly events: number;
  /** What failed, one line each (a failure only means that piece loads on first use). */
  readonly failures: readonly string[];
}

/** A file of `n` units of `unit(i)`, each unit a few lines of one language. */
function _repeat(n: number, unit: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => unit(i)).join("");
}

// A body of `n` statement lines, `prefix` before each: what an outline leaves out.
function _body(n: number, line: (k: number) => string): string {
  return Array.from({ length: n }, (_, k) => line(k)).join("\n") + "\n";
}

// Files long enough to be shown as a view, one per kind a Read meets, each mostly bodies.
const _FILES: readonly (readonly [string, string])[] = [
  [
    "service.ts",
    'import { join } from "node:path";\n\n' +
    _repeat(40, (i) =>
      `export class Part${i} {\n  step(x: number): string {\n` +
      _body(8, (k) => `    const v${k} = join("part", String(x + ${k}), "${i}");`) +
      `    return v0;\n  }\n}\n\n`),
  ],
  [
    "view.tsx",
    _repeat(40, (i) =>
      `export function View${i}(props: { n: number }) {\n` +
      _body(8, (k) => `  const v${k} = props.n * ${k + i};`) +
      `  return <div className="v">{v0}</div>;\n}\n\n`),
  ],
  [
    "util.js",
    _repeat(
      40,
      (i) =>
        `export function f${i}(a) {\n` + _body(8, (k) => `  const v${k} = a * ${k} + ${i};`) +
        `  return v0;\n}\n\n`,
    ),
  ],
  [
    "tool.py",
    _repeat(40, (i) =>
      `class Part${i}:\n    def step(self, x):\n` +
      _body(8, (k) => `        v${k} = x * ${k} + ${i}`) + `        return v0\n\n`),
  ],
  [
    "main.go",
    "package main\n\n" +
    _repeat(40, (i) =>
      `func f${i}(a int) int {\n` + _body(8, (k) => `\tv${k} := a * ${k} + ${i}`) +
      _body(8, (k) => `\t_ = v${k}`) + `\treturn a\n}\n\n`),
  ],
  [
    "lib.rs",
    _repeat(
      40,
      (i) =>
        `pub fn f${i}(a: i32) -> i32 {\n` + _body(8, (k) => `    let v${k} = a * ${k} + ${i};`) +
        `    v0\n}\n\n`,
    ),
  ],
  [
    "Main.java",
    "public class Main {\n" +
    _repeat(
      40,
      (i) =>
        `  int f${i}(int a) {\n` + _body(8, (k) => `    int v${k} = a * ${k} + ${i};`) +
        `    return v0;\n  }\n\n`,
    ) + "}\n",
  ],
  [
    "data.json",
    JSON.stringify(
      Array.from({ length: 120 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })),
      null,
      2,
    ) + "\n",
  ],
  [
    "guide.md",
    _repeat(
      40,
      (i) => `## Section ${i}\n\n` + _body(8, (k) => `Text ${k} of section ${i}.`) + "\n",
    ),
  ],
  [
    "app.log",
    _repeat(
      300,
      (i) =>
        `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z ${
          i % 50 === 0 ? "ERROR" : "INFO"
        } request ${i} done\n`,
    ),
  ],
  [
    "package-lock.json",
    JSON.stringify(
      {
        name: "app",
        lockfileVersion: 3,
        packages: Object.fromEntries(
          Array.from({ length: 60 }, (_, i) => [
            `node_modules/p${i}`,
            {
              version: `1.0.${i}`,
              resolved: `https://registry.npmjs.org/p${i}/-/p${i}-1.0.${i}.tgz`,
              integrity: `sha512-${"a".repeat(86)}==`,
            },
          ]),
        ),
      },
      null,
      2,
    ) + "\n",
  ],
  ["notes.txt", _repeat(300, (i) => `line ${i} of plain text\n`)],
];

const _GIT_LOG = _repeat(
  60,
  (i) =>
    `commit ${
      i.toString(16).padStart(40, "a")
    }\nAuthor: A <a@example.com>\nDate:   Mon Jan 1 00:00:00 2026 +0000\n\n    change ${i}\n\n`,
);

const _TEST_RUN = _repeat(200, (i) => `ok ${i} - case ${i}\n`) +
  "not ok 201 - parses a date\n  Error: expected 1, got 2\n    at src/date_test.ts:12:3\n" +
  "# tests 201, pass 200, fail 1\n";

/** The sample events, in the order a session tends to meet them. */
function _events(dir: string): Record<string, unknown>[] {
  const base = { session_id: "rtok-warm", cwd: dir, transcript_path: `${dir}/t.jsonl` };
  const pre = (tool: string, input: Record<string, unknown>) => ({
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
  });
  const post = (tool: string, input: Record<string, unknown>, response: unknown) => ({
    ...base,
    hook_event_name: "PostToolUse",
    tool_name: tool,
    tool_input: input,
    tool_response: response,
  });
  const read = ([name, content]: readonly [string, string]) => {
    const filePath = `${dir}/${name}`;
    const n = content.split("\n").length - 1;
    return post("Read", { file_path: filePath }, {
      type: "text",
      file: { filePath, content, numLines: n, startLine: 1, totalLines: n },
    });
  };
  const bash = (command: string, stdout: string) =>
    post("Bash", { command }, { stdout, stderr: "", interrupted: false, isImage: false });
  return [
    pre("Bash", { command: "git status && git log -5", description: "status" }),
    // The first whole Read of code: the runtime and the TypeScript grammar, first.
    read(_FILES[0]),
    pre("Grep", { pattern: "Part1", path: dir }),
    pre("Read", { file_path: `${dir}/${_FILES[0][0]}` }),
    bash("git log", _GIT_LOG),
    bash("npm test", _TEST_RUN),
    post("Grep", { pattern: "step", path: dir, output_mode: "content", "-n": true }, {
      mode: "content",
      numFiles: 1,
      filenames: [],
      content: _repeat(300, (i) => `${dir}/service.ts:${i + 1}:  step(x: number): string {`),
      numLines: 300,
    }),
    ..._FILES.slice(1).map(read),
  ];
}

/**
 * Warms what a first hook event would load, one sample event at a time, each after `idle()`
 * resolves (no request in flight), until `signal` aborts.
 */
export async function warmUp(
  config: Config,
  idle: () => Promise<void>,
  signal: AbortSignal,
): Promise<WarmReport> {
  const started = performance.now();
  const failures: string[] = [];
  let events = 0;
  const dir = await Deno.makeTempDir({ prefix: "rtok-warm-" });
  try {
    await using hook = await dryHook(config);
    for (const [name, content] of _FILES) await Deno.writeTextFile(`${dir}/${name}`, content);
    for (const event of _events(dir)) {
      // A turn of the event loop between events lets a request that came in be read first.
      await new Promise((r) => setTimeout(r, 0));
      await idle();
      if (signal.aborted) break;
      const reply = await hook.call(event);
      events++;
      if (reply.failure) failures.push(`${event.tool_name}: ${reply.failure}`);
    }
    // What no Claude Code event loads: the other hosts' adapters, the symbol lookup, SQLite.
    for (const id of HOST_IDS) {
      await idle();
      if (signal.aborted) break;
      await loadHost(id).catch((e) => failures.push(`host ${id}: ${(e as Error).message}`));
    }
    await lazyImport<typeof import("../../plugins/graph/mod.ts")>(
      new URL("../../plugins/graph/mod.ts", import.meta.url),
    ).then((g) => g.warmLookup()).catch((e) =>
      failures.push(`symbol lookup: ${(e as Error).message}`)
    );
  } catch (e) {
    failures.push((e as Error).message);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return { ms: performance.now() - started, events, failures };
}
