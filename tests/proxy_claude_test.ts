import { match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { claudeBinary, runClaude, startStandIn } from "./_claude.ts";
import { buildLab, pointerId, rtok, sh, tempDir } from "./_helpers.ts";
import { startProxy } from "./_upstream.ts";

Deno.test({
  name: "Claude Code through rtok proxy: the turn completes and the API gets the compressed result",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    await buildLab(lab);
    const raw = await sh("git", ["log"], lab);
    await using api = startStandIn();
    api.command = "git log";
    await using proxy = await startProxy(rtokHome, api.url);
    const r = await runClaude(claude, api, lab, { HOME: home, ANTHROPIC_BASE_URL: proxy.url });
    strictEqual(r.result?.is_error, false, r.err);
    strictEqual(r.result?.result, "done");
    const [result] = api.toolResults();
    ok(result, "the stand-in received the tool result");
    ok(result.text.length < raw.length, `${result.text.length} < ${raw.length}`);
    match(result.text, /\[rtok: cut .+; raw: rtok expand [0-9a-f]{12}\]$/);
    // Every subject git printed is still there; the raw output is one expand away.
    const subjects = (await sh("git", ["log", "--format=%s"], lab)).trim().split("\n");
    strictEqual(subjects.length, 13);
    for (const subject of subjects) ok(result.text.includes(subject), subject);
    const expanded = await rtok(rtokHome, ["expand", pointerId(result.text)!]);
    strictEqual(expanded.out.trimEnd(), raw.trimEnd());
    const db = new DatabaseSync(`${rtokHome}/rtok.db`, { readOnly: true });
    try {
      const read = () =>
        db.prepare(
          "SELECT route, status, input_tokens, output_tokens, results_compressed FROM proxy_requests",
        ).all() as {
          route: string;
          status: number;
          output_tokens: number;
          results_compressed: number;
        }[];
      // The proxy records a request off its path, once the response has gone: the last row
      // may land a moment after Claude Code exits.
      let rows = read();
      for (let i = 0; i < 50 && rows.filter((x) => x.route === "messages").length < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        rows = read();
      }
      const messages = rows.filter((x) => x.route === "messages");
      ok(messages.length >= 2, JSON.stringify(rows));
      ok(messages.every((x) => x.status === 200 && x.output_tokens === 6));
      ok(messages.some((x) => x.results_compressed === 1));
    } finally {
      db.close();
    }
  },
});
