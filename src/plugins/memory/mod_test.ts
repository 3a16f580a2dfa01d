import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../../core/config.ts";
import { parseSpool, spoolPath } from "../../core/spool.ts";
import { Store, storePath } from "../../core/store.ts";
import { makeCtx, Registry } from "../../core/registry.ts";
import { DISPATCH_ORDER } from "../catalogue.ts";
import { answerClaudeHook, makeHookDeps } from "../../surfaces/_hook_answer.ts";
import { DIGEST_HEADER } from "./digest.ts";
import { digestPath } from "./digest_file.ts";
import { memoryPlugin } from "./mod.ts";
import { findDigest } from "./rows.ts";

const SESSION = "3a74724a-0000-4000-8000-000000000001";
const enc = new TextEncoder();

function transcriptLines(cwd: string): string[] {
  return [
    JSON.stringify({
      type: "user",
      message: { role: "user", content: "Fix the rounding bug in invoice.ts" },
    }),
    JSON.stringify({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "node --test" } }],
      },
    }),
    JSON.stringify({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "t1",
          content: "not ok 1 - rounds half up",
          is_error: true,
        }],
      },
    }),
    JSON.stringify({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "t2",
          name: "Read",
          input: { file_path: `${cwd}/invoice.ts` },
        }],
      },
    }),
  ];
}

function world(budget?: number) {
  const home = Deno.makeTempDirSync({ prefix: "rtok-memory-" });
  const cwd = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "rtok-memory-cwd-" }));
  const config = defaultConfig();
  if (budget !== undefined) config.plugins.memory = { budget_tokens: budget };
  const deps = makeHookDeps({ config, home, env: {}, plugins: [memoryPlugin] });
  const hook = async (payload: Record<string, unknown>) =>
    (await answerClaudeHook(
      enc.encode(JSON.stringify({ session_id: SESSION, cwd, ...payload })),
      deps,
    ))
      .answer;
  return {
    home,
    cwd,
    deps,
    hook,
    spool: () =>
      parseSpool((() => {
        try {
          return Deno.readTextFileSync(spoolPath(home));
        } catch {
          return "";
        }
      })()).entries.filter((e) => e.kind === "memory.digest"),
    [Symbol.dispose]() {
      Deno.removeSync(home, { recursive: true });
      Deno.removeSync(cwd, { recursive: true });
    },
  };
}

Deno.test("memoryPlugin: PreCompact keeps the digest; SessionStart compact and resume inject it", async (t) => {
  using w = world();
  const transcript = `${w.cwd}/s.jsonl`;
  Deno.writeTextFileSync(transcript, transcriptLines(w.cwd).join("\n") + "\nnot json\n");
  strictEqual(
    await w.hook({ hook_event_name: "PreCompact", trigger: "manual", transcript_path: transcript }),
    "",
  );
  const kept = JSON.parse(Deno.readTextFileSync(digestPath(w.home, SESSION)));
  ok(kept.text.startsWith(DIGEST_HEADER));
  for (const want of ["Fix the rounding bug in invoice.ts", "rounds half up", "invoice.ts"]) {
    ok(kept.text.includes(want), want);
  }
  const [entry] = w.spool();
  deepStrictEqual(
    [entry.data.session, entry.data.text, entry.data.badLines, entry.data.trigger],
    [SESSION, kept.text, 1, "manual"],
  );
  for (const source of ["compact", "resume", "startup", "clear"]) {
    await t.step(`SessionStart ${source}`, async () => {
      const answer = await w.hook({ hook_event_name: "SessionStart", source });
      if (source === "compact" || source === "resume") {
        deepStrictEqual(JSON.parse(answer), {
          hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: kept.text },
        });
      } else strictEqual(answer, "");
    });
  }
  await t.step("ingest puts it in the store; the newest of the project is found", () => {
    const store = Store.open(storePath(w.home));
    try {
      const reg = new Registry([memoryPlugin], defaultConfig(), DISPATCH_ORDER);
      reg.drain(makeCtx(reg, { config: defaultConfig(), store, home: w.home }));
      deepStrictEqual(reg.errors, []);
      const row = findDigest(store.db, { project: w.cwd });
      deepStrictEqual([row?.session, row?.text, row?.badLines], [SESSION, kept.text, 1]);
      strictEqual(findDigest(store.db, { session: "other" }), null);
    } finally {
      store.close();
    }
  });
});

Deno.test("memoryPlugin: a digest that cannot be built leaves nothing to inject, and no error", async (t) => {
  const cases: { name: string; transcript: (cwd: string) => string | undefined; note: RegExp }[] = [
    { name: "no transcript path", transcript: () => undefined, note: /names no transcript/ },
    { name: "a missing file", transcript: (cwd) => `${cwd}/gone.jsonl`, note: /cannot be read/ },
    { name: "a directory", transcript: (cwd) => cwd, note: /cannot be read/ },
    {
      name: "a format rtok does not know",
      transcript: (cwd) => {
        Deno.writeTextFileSync(`${cwd}/o.jsonl`, '{"event":"a"}\n{"event":"b"}\n');
        return `${cwd}/o.jsonl`;
      },
      note: /nothing rtok can read/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      using w = world();
      // A digest from an earlier compaction must not outlive one that failed.
      Deno.writeTextFileSync(`${w.cwd}/s.jsonl`, transcriptLines(w.cwd).join("\n"));
      await w.hook({ hook_event_name: "PreCompact", transcript_path: `${w.cwd}/s.jsonl` });
      const path = c.transcript(w.cwd);
      const answer = await w.hook({
        hook_event_name: "PreCompact",
        trigger: "auto",
        ...(path ? { transcript_path: path } : {}),
      });
      strictEqual(answer, "");
      deepStrictEqual(w.deps.registry.errors, []);
      strictEqual(await w.hook({ hook_event_name: "SessionStart", source: "compact" }), "");
      const last = w.spool().at(-1)!;
      ok(c.note.test(String(last.data.note)), String(last.data.note));
      strictEqual(last.data.text, "");
    });
  }
});

Deno.test("memoryPlugin: a failure while keeping it is isolated; the hook still answers nothing", async () => {
  using w = world();
  Deno.writeTextFileSync(`${w.cwd}/s.jsonl`, transcriptLines(w.cwd).join("\n"));
  // `sessions` is a file: the digest cannot be written.
  Deno.writeTextFileSync(`${w.home}/sessions`, "");
  strictEqual(
    await w.hook({ hook_event_name: "PreCompact", transcript_path: `${w.cwd}/s.jsonl` }),
    "",
  );
  strictEqual(w.deps.registry.errors.length, 1);
  strictEqual(await w.hook({ hook_event_name: "SessionStart", source: "compact" }), "");
});

Deno.test("memoryPlugin: [plugins.memory] budget_tokens bounds the digest", async (t) => {
  for (const budget of [60, 600]) {
    await t.step(`${budget} tokens`, async () => {
      using w = world(budget);
      const lines = transcriptLines(w.cwd);
      for (let i = 0; i < 200; i++) {
        lines.push(JSON.stringify({
          type: "assistant",
          message: {
            role: "assistant",
            content: [{
              type: "tool_use",
              id: `r${i}`,
              name: "Read",
              input: { file_path: `${w.cwd}/f${i}.ts` },
            }],
          },
        }));
      }
      Deno.writeTextFileSync(`${w.cwd}/s.jsonl`, lines.join("\n"));
      await w.hook({ hook_event_name: "PreCompact", transcript_path: `${w.cwd}/s.jsonl` });
      const kept = JSON.parse(Deno.readTextFileSync(digestPath(w.home, SESSION)));
      ok(kept.tokens <= budget && kept.tokens > budget / 3, `${kept.tokens} of ${budget}`);
    });
  }
});
