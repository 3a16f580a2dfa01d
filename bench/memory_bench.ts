/**
 * `deno bench`: the memory plugin's digest of a session of 500 tool calls (Reads, Edits, test
 * and build runs, rtok-cut outputs; about 11 MB of Claude Code transcript with its
 * attachment lines, one of about 20 KB a call as in real ones), from the transcript's text and from its file. The bound: under
 * 50 ms.
 *
 * @module
 */

import { readTranscript, readTranscriptFile } from "../src/claude/transcript.ts";
import { sessionTranscript } from "./_transcript.ts";
import { buildDigest } from "../src/plugins/memory/digest.ts";

const text = sessionTranscript();
const dir = Deno.makeTempDirSync({ prefix: "rtok-memory-bench-" });
const path = `${dir}/session.jsonl`;
Deno.writeTextFileSync(path, text);
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

Deno.bench({
  name: "memory digest: 500 tool calls, from the transcript file",
  baseline: true,
  fn() {
    const r = readTranscriptFile(path);
    if (!r.ok) throw new Error(r.reason);
    buildDigest(r.transcript.entries, { budgetTokens: 600, cwd: "/work/app" });
  },
});

Deno.bench("memory digest: 500 tool calls, transcript already read", {
  n: 100,
}, () => {
  buildDigest(readTranscript(text).entries, { budgetTokens: 600, cwd: "/work/app" });
});

const entries = readTranscript(text).entries;
Deno.bench("memory digest: 500 tool calls, building only", () => {
  buildDigest(entries, { budgetTokens: 600, cwd: "/work/app" });
});
