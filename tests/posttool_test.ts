import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { defaultConfig } from "../src/core/config.ts";
import { storePath } from "../src/core/store.ts";
import { answerClaudeHook, makeHookDeps } from "../src/surfaces/_hook_answer.ts";
import { drain, ledger, pointerId, rtok, sha256, tempDir } from "./_helpers.ts";

// A module of 6 classes of 5 methods and 10 functions, 361 lines; each symbol's true range.
function longModule(): { text: string; symbols: Map<string, [number, number]> } {
  const lines = ["// A long module.", 'import { readFileSync } from "node:fs";', ""];
  const symbols = new Map<string, [number, number]>();
  for (let c = 0; c < 6; c++) {
    const start = lines.length + 1;
    lines.push(`export class Service${c} {`);
    for (let m = 0; m < 5; m++) {
      const from = lines.length + 1;
      lines.push(`  method${c}_${m}(x: number): number {`);
      for (let k = 0; k < 6; k++) lines.push(`    const v${k} = x * ${k} + ${m};`);
      lines.push("    return x;", "  }");
      symbols.set(`Service${c}.method${c}_${m}`, [from, lines.length]);
    }
    lines.push("}");
    symbols.set(`Service${c}`, [start, lines.length]);
    lines.push("");
  }
  for (let f = 0; f < 10; f++) {
    const from = lines.length + 1;
    lines.push(`export function helper${f}(s: string): string {`);
    for (let k = 0; k < 4; k++) lines.push(`  s = s + "${k}";`);
    lines.push("  return s;", "}");
    symbols.set(`helper${f}`, [from, lines.length]);
  }
  return { text: lines.join("\n") + "\n", symbols };
}

interface World {
  readonly home: string;
  readonly project: string;
  answer(event: Record<string, unknown>, env?: Record<string, string>): Promise<string>;
}

function world(root: string): World {
  const home = `${root}/rtok`;
  const project = `${root}/project`;
  Deno.mkdirSync(project, { recursive: true });
  return {
    home,
    project,
    async answer(event, env = {}) {
      const deps = makeHookDeps({
        config: defaultConfig(),
        home,
        env: { RTOK_HOME: home, ...env },
      });
      const bytes = new TextEncoder().encode(JSON.stringify({
        session_id: "sess-1",
        cwd: project,
        hook_event_name: "PostToolUse",
        ...event,
      }));
      const r = await answerClaudeHook(bytes, deps);
      strictEqual(r.failure, null);
      for (const e of deps.registry.errors.splice(0)) {
        await deps.registry.failure({
          surface: "hook",
          plugin: e.plugin,
          family: "hook claude",
          command: "rtok hook claude",
          error: String((e.error as Error).message ?? e.error),
          fallbackOk: true,
        }, deps.ctx("sess-1"));
      }
      return r.answer;
    },
  };
}

function read(path: string, text: string, input: Record<string, unknown> = {}) {
  const n = text.split("\n").length;
  return {
    tool_name: "Read",
    tool_input: { file_path: path, ...input },
    tool_response: {
      type: "text",
      file: { filePath: path, content: text, numLines: n, startLine: 1, totalLines: n },
    },
  };
}

function bash(command: string, stdout: string) {
  return {
    tool_name: "Bash",
    tool_input: { command },
    tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
  };
}

// deno-lint-ignore no-explicit-any -- each tool's own output shape, read field by field below
type _Answer = { hookSpecificOutput: { additionalContext?: string; updatedToolOutput?: any } };
const parse = (a: string): _Answer => JSON.parse(a);

function failures(home: string): string[] {
  drain(home);
  const db = new DatabaseSync(storePath(home), { readOnly: true });
  try {
    return db.prepare("SELECT error FROM failures").all().map((r) => String(r.error));
  } finally {
    db.close();
  }
}

Deno.test("a whole Read of a long module shows its first lines numbered true and every symbol with its lines", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const { text, symbols } = longModule();
  const path = `${w.project}/big.ts`;
  Deno.writeTextFileSync(path, text);
  const a = parse(await w.answer(read(path, text)));
  const head: string = a.hookSpecificOutput.updatedToolOutput.file.content;
  const lines = text.split("\n");
  // Claude Code numbers each line of content from 1: each must be that line of the file.
  head.split("\n").forEach((line, i) => strictEqual(line, lines[i], `line ${i + 1}`));
  ok(!head.endsWith("\n"), "no final newline: it would number an empty line that is not there");
  ok(head.split("\n").length <= 30);
  const context = a.hookSpecificOutput.additionalContext!;
  for (const [name, [from, to]] of symbols) {
    ok(context.includes(`${name} L${from}-${to}`), `${name} L${from}-${to} in:\n${context}`);
  }
  match(context, /has 361 lines/);
  const id = pointerId(context);
  ok(id, context);
  const expanded = await rtok(w.home, ["expand", id!]);
  strictEqual(expanded.code, 0, expanded.err);
  strictEqual(await sha256(expanded.stdout), await sha256(new TextEncoder().encode(text)));
  const rows = ledger(w.home);
  strictEqual(rows.length, 1);
  deepStrictEqual(
    [rows[0].family, rows[0].raw_chars, rows[0].lossy, rows[0].archive_id],
    ["Read", text.length, 1, id],
  );
  ok(rows[0].emitted_chars < text.length / 2, `${rows[0].emitted_chars} of ${text.length}`);
});

Deno.test("a second whole Read of the same file gets the file; a changed file is viewed afresh", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const { text } = longModule();
  const path = `${w.project}/big.ts`;
  ok(await w.answer(read(path, text)), "the first read is viewed");
  strictEqual(await w.answer(read(path, text)), "", "the agent asked twice: the file as it is");
  const changed = text.replace("helper9", "helperNine");
  ok(await w.answer(read(path, changed)), "a file that changed since is viewed again");
});

Deno.test("a whole Read of a file the session has edited gets the file, even changed since", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const { text } = longModule();
  const path = `${w.project}/big.ts`;
  const other = `${w.project}/other.ts`;
  const edit = (file: string) => ({
    tool_name: "Edit",
    tool_input: { file_path: file, old_string: "helper9", new_string: "helperNine" },
    tool_response: { filePath: file, oldString: "helper9", newString: "helperNine" },
  });
  strictEqual(await w.answer(edit(path)), "", "an Edit's result is the host's to show");
  const changed = text.replace("helper9", "helperNine");
  strictEqual(await w.answer(read(path, changed)), "", "the file it works in comes whole");
  ok(await w.answer(read(other, text)), "a file it has not edited is still viewed");
});

Deno.test("a whole Read whose view would save too little of the file gets the file", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  // 300 one-line functions: the outline (`function fn12 L13`) is most of the file again.
  const lines = Array.from({ length: 300 }, (_, i) => `export function fn${i}(a) {}`);
  const text = lines.join("\n") + "\n";
  const path = `${w.project}/values.ts`;
  strictEqual(await w.answer(read(path, text)), "");
});

Deno.test("ranged, short, disabled and rtok's own results go through untouched", async (t) => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const { text } = longModule();
  const path = `${w.project}/big.ts`;
  await t.step("a ranged Read", async () => {
    strictEqual(await w.answer(read(path, text, { offset: 10, limit: 400 })), "");
  });
  await t.step("a short file", async () => {
    strictEqual(await w.answer(read(path, text.slice(0, 400))), "");
  });
  await t.step("RTOK_DISABLED=1", async () => {
    strictEqual(await w.answer(read(`${path}x`, text), { RTOK_DISABLED: "1" }), "");
  });
  for (
    const line of [
      "rtok git log",
      "cd sub && /home/u/.deno/bin/rtok git status -s",
      "deno run cli.ts ls",
    ]
  ) {
    await t.step(`an rtok command's output: ${line}`, async () => {
      strictEqual(await w.answer(bash(line, "x\n".repeat(600))), "");
    });
  }
  await t.step("rtok's own MCP tools", async () => {
    const ev = {
      tool_name: "mcp__rtok__rtok_run",
      tool_input: {},
      tool_response: [{ type: "text", text: "y\n".repeat(900) }],
    };
    strictEqual(await w.answer(ev), "");
  });
  await t.step("an output that only mentions rtok is still compressed", async () => {
    ok(await w.answer(bash("cat notes.txt | grep -v rtoken", "rtok line\n".repeat(900))));
  });
  await t.step("output that carries a pointer line", async () => {
    const out = "line\n".repeat(300) + "[rtok: cut 3 lines; raw: rtok expand 0123456789ab]\n";
    strictEqual(await w.answer(bash("cat notes | head -400", out)), "");
  });
  await t.step("[plugins.posttool] read = false", async () => {
    const deps = makeHookDeps({
      config: { ...defaultConfig(), plugins: { posttool: { read: false } } },
      home: w.home,
      env: {},
    });
    const ev = {
      session_id: "s",
      cwd: w.project,
      hook_event_name: "PostToolUse",
      ...read(`${path}y`, text),
    };
    strictEqual(
      (await answerClaudeHook(new TextEncoder().encode(JSON.stringify(ev)), deps)).answer,
      "",
    );
  });
});

Deno.test("a tool response of a shape rtok does not know goes through and leaves one failure row", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const ev = {
    tool_name: "Read",
    tool_input: { file_path: "/x" },
    tool_response: { type: "text", file: { content: 42 } },
  };
  strictEqual(await w.answer(ev), "");
  const rows = failures(w.home);
  strictEqual(rows.length, 1);
  match(rows[0], /^Read: no "file" with "filePath" and "content"/);
});

Deno.test("cat of one long log keeps every ERROR and WARN line whole, in the hook", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const lines: string[] = [];
  const wanted: string[] = [];
  for (let i = 1; i <= 900; i++) {
    const level = i % 97 === 0 ? "ERROR" : i % 41 === 0 ? "WARN" : "INFO";
    const line = `2026-12-04T10:${String(i % 60).padStart(2, "0")}:00Z ${level} request ${i} done`;
    if (level !== "INFO") wanted.push(line);
    lines.push(line);
  }
  const log = lines.join("\n") + "\n";
  Deno.writeTextFileSync(`${w.project}/server.log`, log);
  const a = parse(await w.answer(bash("cat server.log", log)));
  const stdout: string = a.hookSpecificOutput.updatedToolOutput.stdout;
  for (const line of wanted) ok(stdout.includes(line), `kept whole: ${line}`);
  ok(stdout.length < log.length / 4, `${stdout.length} of ${log.length}`);
  ok(pointerId(stdout), stdout.slice(-200));
  strictEqual(ledger(w.home)[0].family, "cat");
});

Deno.test("Grep content is grouped by file with every file named whole and counted", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const hits: string[] = [];
  const counts = new Map<string, number>();
  for (let f = 0; f < 12; f++) {
    const file = `src/module_${f}/service_${f}.ts`;
    const n = 3 + (f % 5) * 4;
    counts.set(file, n);
    for (let i = 1; i <= n; i++) {
      hits.push(`${file}:${i * 7}:  const parser${i} = makeParser(${i});`);
    }
  }
  const content = hits.join("\n");
  const a = parse(
    await w.answer({
      tool_name: "Grep",
      tool_input: { pattern: "makeParser", output_mode: "content", "-n": true },
      tool_response: {
        mode: "content",
        numFiles: 0,
        filenames: [],
        content,
        numLines: hits.length,
        totalLines: hits.length,
      },
    }),
  );
  const out: string = a.hookSpecificOutput.updatedToolOutput.content;
  ok(out.length < content.length, `${out.length} of ${content.length}`);
  for (const [file, n] of counts) {
    ok(out.includes(file), `${file} named whole`);
    ok(new RegExp(`${file.replaceAll(".", "\\.")}.*\\b${n}\\b`).test(out), `${file} counted ${n}`);
  }
});

Deno.test("Grep content with context and no line numbers keeps the -- between groups", async (t) => {
  // Claude Code 1.0.x sent no `-n`, and printed no numbers unless asked; 2.x with `-n: false`.
  for (const input of [{ "-C": 1 }, { "-C": 1, "-n": false }]) {
    await t.step(JSON.stringify(input), async () => {
      using tmp = tempDir();
      const w = world(tmp.path);
      const groups: string[] = [];
      for (let f = 0; f < 10; f++) {
        for (let g = 0; g < 4; g++) {
          const file = `src/ledger_${f}.ts`;
          groups.push(
            `${file}-  const before${g} = ${g};\n${file}:  throw new LedgerError(${f}, ${g});\n` +
              `${file}-  const after${g} = ${g};`,
          );
        }
      }
      const content = groups.join("\n--\n");
      const answer = await w.answer({
        tool_name: "Grep",
        tool_input: { pattern: "LedgerError", output_mode: "content", ...input },
        tool_response: {
          mode: "content",
          numFiles: 0,
          filenames: [],
          content,
          numLines: content.split("\n").length,
        },
      });
      ok(answer, "the hits are grouped");
      const out: string = parse(answer).hookSpecificOutput.updatedToolOutput.content;
      // Within a file, no two hits run together: a separator stands between each match and
      // the next group's first line.
      const lines = out.split("\n");
      for (let i = 1; i < lines.length; i++) {
        if (/const before/.test(lines[i]) && /const after/.test(lines[i - 1])) {
          throw new Error(`groups run together at line ${i}:\n${out}`);
        }
      }
      strictEqual(lines.filter((l) => l.trim() === "--").length, 10 * 3);
    });
  }
});

Deno.test("a truncated Glob's replacement tells the model the true counts", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const paths: string[] = [];
  for (let d = 0; d < 10; d++) {
    for (let f = 0; f < 10; f++) paths.push(`packages/pkg_${d}/src/file_${f}.ts`);
  }
  const response = {
    filenames: paths,
    durationMs: 5,
    numFiles: 100,
    truncated: true,
    totalMatches: 250,
    countIsComplete: true,
  };
  const a = parse(
    await w.answer({
      tool_name: "Glob",
      tool_input: { pattern: "**/*.ts" },
      tool_response: response,
    }),
  );
  const out = a.hookSpecificOutput.updatedToolOutput;
  // Claude Code would add "(Showing <lines> of 250 …)": off, and rtok's own note says it right.
  strictEqual(out.truncated, false);
  const text: string = out.filenames.join("\n");
  ok(out.filenames.length < paths.length, "names grouped by directory");
  ok(text.includes("first 100 of 250 matching files"), text);
  ok(text.includes("150 more are not listed"), text);
  for (const p of paths) {
    const dir = p.slice(0, p.lastIndexOf("/") + 1);
    ok(text.split("\n").some((l) => l.includes(dir) && l.includes(p.slice(dir.length))), p);
  }
});

Deno.test("Glob keeps every path of a list whole", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const paths: string[] = [];
  for (let d = 0; d < 8; d++) {
    for (let f = 0; f < 15; f++) paths.push(`packages/pkg_${d}/src/lib/file_${f}.ts`);
  }
  const a = parse(
    await w.answer({
      tool_name: "Glob",
      tool_input: { pattern: "**/*.ts" },
      tool_response: {
        filenames: paths,
        durationMs: 5,
        numFiles: paths.length,
        truncated: false,
        totalMatches: paths.length,
        countIsComplete: true,
      },
    }),
  );
  const out: string[] = a.hookSpecificOutput.updatedToolOutput.filenames;
  const text = out.join("\n");
  ok(text.length < paths.join("\n").length);
  for (const p of paths) {
    const dir = p.slice(0, p.lastIndexOf("/") + 1);
    const name = p.slice(p.lastIndexOf("/") + 1);
    ok(out.some((l) => l.startsWith(dir) && l.includes(name)), `${p} whole under ${dir}`);
  }
});

Deno.test("an MCP tool's JSON keeps every record id", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const rows = Array.from({ length: 120 }, (_, i) => ({
    id: `ord_${1000 + i * 3}`,
    status: i % 7 === 0 ? "failed" : "paid",
    amount: 10 + i,
    customer: { name: `Customer ${i}`, country: "NL" },
  }));
  const text = JSON.stringify({ rows, total: rows.length }, null, 2);
  const a = parse(
    await w.answer({
      tool_name: "mcp__shop__orders",
      tool_input: {},
      tool_response: [{ type: "text", text }],
    }),
  );
  const [block] = a.hookSpecificOutput.updatedToolOutput;
  strictEqual(block.type, "text");
  ok(block.text.length < text.length / 2, `${block.text.length} of ${text.length}`);
  for (const r of rows) ok(block.text.includes(r.id), `${r.id} kept`);
});

Deno.test("a binary file read whole or by cat goes through as the host gave it, with one failure row", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const bytes = new Uint8Array(6000).map((_, i) => (i * 37) % 256);
  Deno.writeFileSync(`${w.project}/blob.dat`, bytes);
  const shown = new TextDecoder().decode(bytes);
  strictEqual(await w.answer(read(`${w.project}/blob.dat`, shown)), "");
  strictEqual(await w.answer(bash("cat blob.dat", shown)), "");
  const rows = failures(w.home);
  strictEqual(rows.length, 2, rows.join("\n"));
  match(rows[0], /^Read .*blob\.dat: not UTF-8 text \(binary\); sent as the host gave it/);
  match(rows[1], /^cat .*blob\.dat: not UTF-8 text/);
});

Deno.test("a replacement's ledger row names its session and turn, and rtok gain counts it", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const { text } = longModule();
  const path = `${w.project}/big.ts`;
  for (let i = 0; i < 2; i++) {
    strictEqual(await w.answer({ hook_event_name: "UserPromptSubmit", prompt: `step ${i}` }), "");
  }
  ok(await w.answer(read(path, text)));
  const [row] = ledger(w.home) as unknown as { session: string; turn: number; surface: string }[];
  deepStrictEqual([row.session, row.turn, row.surface], ["sess-1", 2, "hook"]);
  const gain = await rtok(w.home, ["gain", "--format", "json"]);
  strictEqual(gain.code, 0, gain.err);
  ok(JSON.stringify(JSON.parse(gain.out)).includes('"Read"'), gain.out.slice(0, 400));
});
