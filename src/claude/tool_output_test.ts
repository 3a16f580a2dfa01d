import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readToolOutput, writeToolOutput } from "./tool_output.ts";

// Each response as Claude Code 2.1.332 sent it to a PostToolUse hook (scripts/probe).
const READ = {
  type: "text",
  file: {
    filePath: "/p/src/a.ts",
    content: "one\ntwo\n",
    numLines: 3,
    startLine: 1,
    totalLines: 3,
  },
};
const GREP_CONTENT = {
  mode: "content",
  numFiles: 0,
  filenames: [],
  content: "src/a.ts:1:import { parser } from './b.ts';\nsrc/b.ts:1:export function parser() {",
  numLines: 2,
  totalLines: 2,
};
const GREP_FILES = {
  mode: "files_with_matches",
  filenames: ["src/a.ts", "src/b.ts"],
  numFiles: 2,
  totalFiles: 2,
};
const GLOB = {
  filenames: ["src/b.ts", "src/a.ts"],
  durationMs: 47,
  numFiles: 2,
  truncated: false,
  totalMatches: 2,
  countIsComplete: true,
};
const BASH = {
  stdout: "ok\n",
  stderr: "",
  interrupted: false,
  isImage: false,
  noOutputExpected: false,
};

Deno.test("readToolOutput() reads each tool's own shape into one result", async (t) => {
  const cases: [string, Record<string, unknown>, unknown, Record<string, unknown>][] = [
    ["Read", { file_path: "/p/src/a.ts" }, READ, {
      kind: "file",
      text: "one\ntwo\n",
      path: "/p/src/a.ts",
      ranged: false,
      totalLines: 3,
    }],
    ["Read", { file_path: "/p/src/a.ts", offset: 2 }, READ, {
      kind: "file",
      text: "one\ntwo\n",
      path: "/p/src/a.ts",
      ranged: true,
      totalLines: 3,
    }],
    ["Grep", { pattern: "parser", output_mode: "content" }, GREP_CONTENT, {
      kind: "search",
      text: GREP_CONTENT.content,
      mode: "content",
    }],
    ["Grep", { pattern: "parser" }, GREP_FILES, {
      kind: "paths",
      text: "src/a.ts\nsrc/b.ts",
      mode: "files_with_matches",
    }],
    ["Glob", { pattern: "**/*.ts" }, GLOB, { kind: "paths", text: "src/b.ts\nsrc/a.ts" }],
    ["Bash", { command: "npm test | tail" }, BASH, {
      kind: "shell",
      text: "ok\n",
      command: "npm test | tail",
    }],
    ["mcp__db__query", {}, [{ type: "text", text: '{"rows":[]}' }], {
      kind: "mcp",
      text: '{"rows":[]}',
    }],
    ["mcp__db__query", {}, '{"n":1}', { kind: "mcp", text: '{"n":1}' }],
  ];
  for (const [tool, input, response, want] of cases) {
    await t.step(`${tool} ${JSON.stringify(input)}`, () => {
      const read = readToolOutput(tool, input, response);
      ok("result" in read, JSON.stringify(read));
      deepStrictEqual(read.result, { tool, ...want });
    });
  }
});

Deno.test("readToolOutput() leaves images, persisted output and other tools alone, and names unknown shapes", async (t) => {
  const skipped: [string, unknown][] = [
    ["Read", { type: "image", file: { base64: "…" } }],
    ["Bash", { ...BASH, persistedOutputPath: "/nonexistent/x.txt", persistedOutputSize: 90000 }],
    ["Bash", { ...BASH, isImage: true }],
    ["Edit", { filePath: "/p/a.ts" }],
    ["mcp__x__y", [{ type: "text", text: "a" }, { type: "text", text: "b" }]],
    ["mcp__x__y", [{ type: "image", data: "…" }]],
  ];
  for (const [tool, response] of skipped) {
    await t.step(`skips ${tool} ${JSON.stringify(response).slice(0, 40)}`, () => {
      ok("skip" in readToolOutput(tool, {}, response));
    });
  }
  const unknown: [string, unknown, RegExp][] = [
    ["Read", { type: "text", file: { content: 3 } }, /^Read: no "file"/],
    ["Grep", { mode: "lines" }, /^Grep: unknown mode "lines"/],
    ["Glob", { filenames: "a" }, /^Glob: no "filenames"/],
    ["Bash", "text", /^Bash: the response is not an object/],
    ["mcp__x__y", { content: [] }, /^mcp__x__y: the response is not content blocks/],
  ];
  for (const [tool, response, message] of unknown) {
    await t.step(`names ${tool} ${JSON.stringify(response)}`, () => {
      const read = readToolOutput(tool, {}, response);
      ok("unknown" in read && message.test(read.unknown), JSON.stringify(read));
    });
  }
});

Deno.test("writeToolOutput() puts the text where the model reads it and keeps every other field", () => {
  const read = writeToolOutput("Read", READ, "one\ntwo") as typeof READ;
  deepStrictEqual(read, { ...READ, file: { ...READ.file, content: "one\ntwo", numLines: 2 } });
  const grep = writeToolOutput("Grep", GREP_CONTENT, "x") as typeof GREP_CONTENT;
  deepStrictEqual(grep, { ...GREP_CONTENT, content: "x", numLines: 1 });
  const files = writeToolOutput("Grep", GREP_FILES, "src/: a.ts, b.ts") as typeof GREP_FILES;
  deepStrictEqual(files, { ...GREP_FILES, filenames: ["src/: a.ts, b.ts"] });
  strictEqual(files.numFiles, 2, "the header still counts every file");
  deepStrictEqual(writeToolOutput("Glob", GLOB, "a\nb"), { ...GLOB, filenames: ["a", "b"] });
  deepStrictEqual(writeToolOutput("Bash", BASH, "short"), { ...BASH, stdout: "short" });
  deepStrictEqual(writeToolOutput("mcp__x__y", [{ type: "text", text: "a" }], "b"), [
    { type: "text", text: "b" },
  ]);
  strictEqual(writeToolOutput("mcp__x__y", "a", "b"), "b");
});

Deno.test({
  name:
    "readToolOutput() reads output Claude Code saved to a file whole; the answer drops the file",
  permissions: { read: true, write: true },
  fn() {
    const dir = Deno.makeTempDirSync();
    try {
      const whole = "line\n".repeat(9000);
      Deno.writeTextFileSync(`${dir}/out.txt`, whole);
      const response = {
        ...BASH,
        stdout: whole.slice(0, 2000),
        persistedOutputPath: `${dir}/out.txt`,
        persistedOutputSize: whole.length,
      };
      const read = readToolOutput("Bash", { command: "cat big.log" }, response);
      ok("result" in read);
      strictEqual(read.result.text, whole);
      deepStrictEqual(writeToolOutput("Bash", response, "short"), { ...BASH, stdout: "short" });
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
