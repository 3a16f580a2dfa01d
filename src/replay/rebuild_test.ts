import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { rebuildOutput, unnumberRead } from "./rebuild.ts";
import { readNumbering, renderOutput } from "./render.ts";

Deno.test("unnumberRead() takes a file's lines back from both numberings, without the reminder", async (t) => {
  await t.step("1.0 arrows with the reminder", () => {
    const text =
      "    12→alpha\n    13→  beta\n\n<system-reminder>\nconsider it\n</system-reminder>\n";
    deepStrictEqual(unnumberRead(text), { content: "alpha\n  beta", startLine: 12 });
  });
  await t.step("2.1 tabs", () => {
    deepStrictEqual(unnumberRead("1\tone\n2\t\ttwo\n3\t"), {
      content: "one\n\ttwo\n",
      startLine: 1,
    });
  });
  await t.step("not a Read's text", () => strictEqual(unnumberRead("hello\nworld"), null));
});

Deno.test("rebuildOutput() gives a 1.0 Read with no toolUseResult its 2.1 shape", () => {
  const r = rebuildOutput({
    tool: "Read",
    input: { file_path: "/p/a.ts" },
    text: "     1→x\n     2→y",
    structured: null,
  });
  ok("response" in r);
  deepStrictEqual(r.response, {
    type: "text",
    file: { filePath: "/p/a.ts", content: "x\ny", numLines: 2, startLine: 1, totalLines: 2 },
  });
  // Rendered again the way the transcript numbered it: the same text.
  strictEqual(renderOutput("Read", r.response, readNumbering("     1→x")), "     1→x\n     2→y");
});

Deno.test("rebuildOutput() reads a 1.0 Grep with no mode as the file list it was", () => {
  const r = rebuildOutput({
    tool: "Grep",
    input: { pattern: "x" },
    text: "Found 2 files\n/p/a.ts\n/p/b.ts",
    structured: { filenames: ["/p/a.ts", "/p/b.ts"], numFiles: 2 },
  });
  ok("response" in r);
  strictEqual((r.response as { mode: string }).mode, "files_with_matches");
  strictEqual(r.raw, "/p/a.ts\n/p/b.ts");
  strictEqual(renderOutput("Grep", r.response), "Found 2 files\n/p/a.ts\n/p/b.ts");
});

Deno.test("rebuildOutput() reads a Glob's truncation from the text when no structure says", () => {
  const r = rebuildOutput({
    tool: "Glob",
    input: { pattern: "**" },
    text: "/p/a\n/p/b\n(Results are truncated. Consider using a more specific path or pattern.)",
    structured: null,
  });
  ok("response" in r);
  deepStrictEqual((r.response as { filenames: string[] }).filenames, ["/p/a", "/p/b"]);
  strictEqual((r.response as { truncated: boolean }).truncated, true);
});

Deno.test("rebuildOutput() skips what no hook could replace or read", async (t) => {
  const skip = (tool: string, structured: Record<string, unknown> | null, text = "x") => {
    const r = rebuildOutput({ tool, input: {}, text, structured });
    ok("skip" in r, JSON.stringify(r));
    return r.skip;
  };
  await t.step("an image read", () => ok(skip("Read", { type: "image" }).includes("image")));
  await t.step("a saved output whose file is gone", () => {
    const s = skip("Bash", { stdout: "x", persistedOutputPath: "/nonexistent/rtok/x.txt" });
    ok(s.includes("gone"), s);
  });
});

Deno.test("rebuildOutput() passes any other tool's result on as it was, for the hook to see", () => {
  const edit = { filePath: "/p/a.ts", oldString: "x", newString: "y" };
  deepStrictEqual(rebuildOutput({ tool: "Edit", input: {}, text: "ok", structured: edit }), {
    response: edit,
    raw: "ok",
  });
  deepStrictEqual(rebuildOutput({ tool: "TodoWrite", input: {}, text: "ok", structured: null }), {
    response: "ok",
    raw: "ok",
  });
});
