import { ok, strictEqual } from "node:assert/strict";
import { classifyFile, type FileKind, lockfileKind } from "./text_kind.ts";

const LOG = Array.from({ length: 30 }, (_, i) => `2024-05-01T10:00:${i % 60}Z INFO step ${i}`)
  .join("\n");
const JSON_LINES_LOG = Array.from({ length: 10 }, (_, i) => `{"level":"info","msg":"m${i}"}`)
  .join("\n");
const JSON_LINES_DATA = Array.from({ length: 10 }, (_, i) => `{"id":${i},"v":"x"}`).join("\n");

Deno.test("classifyFile() reads a file's kind from its name, then its content", async (t) => {
  const cases: [string, string, FileKind][] = [
    ["/repo/package-lock.json", "{}", "lockfile"],
    ["/repo/Cargo.lock", "garbage", "lockfile"],
    ["go.sum", "", "lockfile"],
    ["C:\\proj\\yarn.lock", "", "lockfile"],
    ["/var/log/app.log", "no levels at all", "log"],
    ["events.jsonl", JSON_LINES_LOG, "log"],
    ["rows.ndjson", JSON_LINES_DATA, "text"],
    ["/repo/package.json", '{"name": "x"}', "json"],
    ["tsconfig.json", '{\n  // a comment\n  "a": 1\n}', "text"],
    ["settings.jsonc", '{"a": 1}', "json"],
    ["data.json", "[1, 2", "text"],
    ["src/main.ts", "export const a = 1;\n", "code"],
    ["lib/x.PY", "print(1)\n", "code"],
    ["Makefile", "all:\n\techo hi\n", "code"],
    ["Dockerfile", "FROM debian\n", "code"],
    ["src/index.js", '{"looks": "like json"}', "code"],
    ["response", '{"items": [1, 2]}', "json"],
    ["output.txt", LOG, "log"],
    ["nohup.out", LOG, "log"],
    ["README.md", "# Title\n\nSome prose.\n", "document"],
    ["docs/errors.md", "ERROR codes\nERROR 1: bad\nERROR 2: worse\nERROR 3: worst\n", "document"],
    ["guide.rst", "Guide\n=====\n", "document"],
    ["manual.adoc", "= Manual\n", "document"],
    ["notes.txt", "42", "text"],
    [".env", "A=1\n", "text"],
    ["", "", "text"],
    ["deep.json", "[".repeat(100_000) + "]".repeat(100_000), "json"],
    ["deep", "[".repeat(200_000), "text"],
    ["crlf.txt", LOG.replaceAll("\n", "\r\n"), "log"],
    ["huge-line.txt", "x".repeat(2_000_000), "text"],
  ];
  for (const [path, text, want] of cases) {
    await t.step(
      `${path || "(no name)"} → ${want}`,
      () => strictEqual(classifyFile(path, text), want),
    );
  }
});

Deno.test("classifyFile() names only its five kinds", () => {
  const kinds = new Set(["code", "json", "log", "lockfile", "text"]);
  for (const path of ["a.json", "a.log", "a.ts", "a", "yarn.lock"]) {
    for (const text of ["", "{}", LOG, "\u0000\u0001", "\ufeff{}"]) {
      ok(kinds.has(classifyFile(path, text)));
    }
  }
});

Deno.test("lockfileKind() knows each lockfile by its exact name", () => {
  strictEqual(lockfileKind("pnpm-lock.yaml"), "pnpm");
  strictEqual(lockfileKind("/x/Gemfile.lock"), "bundler");
  strictEqual(lockfileKind("/x/uv.lock"), "uv");
  strictEqual(lockfileKind("/x/poetry.lock"), "poetry");
  strictEqual(lockfileKind("/x/composer.lock"), "composer");
  strictEqual(lockfileKind("/x/package.json"), null);
  strictEqual(lockfileKind("/x/constructor"), null);
  strictEqual(lockfileKind("__proto__"), null);
});
