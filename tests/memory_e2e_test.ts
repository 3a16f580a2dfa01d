import { ok, strictEqual } from "node:assert/strict";
import { assistantReply, type Call, claudeBinary, serveMessages } from "./_claude.ts";
import { denoDir, installRtok, type Recorded, run, stopServer, tempDir } from "./_helpers.ts";
import { DIGEST_HEADER, DIGEST_TEXT_CLASS } from "../src/plugins/memory/digest.ts";
import { estimate } from "../src/core/tokens.ts";

const REQUEST = "Make the invoice totals round half up, and keep the public API as it is.";
const FAILING = ["rounds 2.5 up to 3", "rounds -2.5 to -3"];

// A project whose tests fail by name, and the tool calls the stand-in asks for in its first run.
function project(dir: string): Call[] {
  Deno.mkdirSync(`${dir}/src`, { recursive: true });
  Deno.mkdirSync(`${dir}/test`);
  Deno.writeTextFileSync(
    `${dir}/src/invoice.mjs`,
    Array.from({ length: 60 }, (_, i) => `export const rate${i} = ${i} / 100;`).join("\n") + "\n",
  );
  Deno.writeTextFileSync(
    `${dir}/test/round.test.mjs`,
    [
      'import { test } from "node:test";',
      'import assert from "node:assert";',
      `test("${FAILING[0]}", () => assert.strictEqual(Math.round(2.5) + 1, 3));`,
      `test("${FAILING[1]}", () => assert.strictEqual(Math.round(-2.5), -3));`,
      'test("keeps whole numbers", () => assert.strictEqual(Math.round(4), 4));',
    ].join("\n") + "\n",
  );
  return [
    {
      id: "toolu_mem_1",
      name: "Read",
      input: { file_path: `${dir}/src/invoice.mjs`, offset: 20, limit: 15 },
    },
    {
      id: "toolu_mem_2",
      name: "Bash",
      input: { command: "node --test test/", description: "Run the tests" },
    },
  ];
}

// A stand-in that asks for `calls` in the session's first run, and answers every other
// request (the compaction's summary, later turns) with text.
function standIn(calls: readonly Call[]) {
  const requests: Recorded[] = [];
  const state = { scripted: true };
  const server = serveMessages(requests, (body) => {
    const done = (JSON.stringify(body.messages).match(/"tool_result"/g) ?? []).length;
    const tools = (body.tools as unknown[] ?? []).length > 0;
    const call = state.scripted && tools && done < calls.length ? calls[done] : null;
    return assistantReply(body, call);
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    state,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

async function claude(
  bin: string,
  url: string,
  cwd: string,
  env: Record<string, string>,
  args: readonly string[],
): Promise<Record<string, unknown>> {
  const r = await run(bin, [...args, "--output-format", "json"], {
    cwd,
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "sk-rtok-test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...env,
    },
  });
  strictEqual(r.code, 0, r.err + r.out);
  return JSON.parse(r.out);
}

Deno.test({
  name:
    "memory: Claude Code's PreCompact keeps a digest within budget, and it reaches the model after",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const bin = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const dir = `${tmp.path}/project`;
    const calls = project(dir);
    const env = {
      PATH,
      DENO_DIR: await denoDir(),
      RTOK_HOME: `${tmp.path}/rtok`,
      HOME: `${tmp.path}/home`,
    };
    Deno.mkdirSync(env.HOME);
    using _server = { [Symbol.dispose]: () => stopServer(env.RTOK_HOME) };
    // The default install, through rtok serve: Claude Code skips HTTP hooks on SessionStart
    // ("HTTP hooks are not supported for SessionStart"), so init gives SessionStart the command
    // hook, and the injection leaves through it.
    const init = await run("rtok", ["init"], { env, cwd: dir });
    strictEqual(init.code, 0, init.err);
    await using api = standIn(calls);

    // 1. The session: the user's request, a ranged Read, a failing test run.
    const first = await claude(bin, api.url, dir, env, [
      "--allowedTools",
      "Read,Bash",
      "-p",
      REQUEST,
    ]);
    strictEqual(first.is_error, false, JSON.stringify(first));
    const session = String(first.session_id);
    api.state.scripted = false;
    // 2. Compaction, as a user asks for it.
    await claude(bin, api.url, dir, env, ["--resume", session, "-p", "/compact"]);
    const before = api.requests.length;
    // 3. The session goes on.
    await claude(bin, api.url, dir, env, ["--continue", "-p", "Carry on."]);

    const keep = Deno.env.get("RTOK_E2E_KEEP");
    if (keep) {
      await run("cp", ["-r", tmp.path, keep]);
      Deno.writeTextFileSync(`${keep}/requests.json`, JSON.stringify(api.requests));
    }
    const shown = await run("rtok", ["memory"], { env, cwd: dir });
    strictEqual(shown.code, 0, shown.err);
    const digest = shown.out.trimEnd();

    await t.step("the digest names the request, the files, the failing tests", () => {
      ok(digest.startsWith(DIGEST_HEADER), digest);
      for (
        const want of [
          REQUEST,
          "src/invoice.mjs lines 20-34",
          ...FAILING,
          "`node --test test/` failed",
        ]
      ) {
        ok(digest.includes(want), `${want}\n---\n${digest}`);
      }
    });
    await t.step("it is within the default budget of 600 estimated tokens", async () => {
      ok(estimate(digest, DIGEST_TEXT_CLASS) <= 600, `${estimate(digest, DIGEST_TEXT_CLASS)}`);
      const json = await run("rtok", ["memory", "--session", session, "--format", "json"], {
        env,
        cwd: dir,
      });
      const row = JSON.parse(json.out);
      strictEqual(row.text, digest);
      ok(row.tokens <= 600);
      strictEqual(row.trigger, "manual");
    });
    await t.step(
      "SessionStart after compact: the digest reaches the model with the next request",
      () => {
        const next = api.requests.slice(before).find((r) => r.path.startsWith("/v1/messages"));
        ok(next, "no request after the compaction");
        const body = JSON.stringify(next.body);
        const injected = JSON.stringify(`SessionStart hook additional context: ${digest}`).slice(
          1,
          -1,
        );
        // SessionStart(compact)'s answer, kept in the transcript, goes out with the next request.
        const seen = body.split(injected).length - 1;
        ok(seen >= 1, `${seen} injections of the digest in the request after compaction`);
      },
    );
    await t.step("before the compaction no request carried it", () => {
      for (const r of api.requests.slice(0, before)) {
        ok(!JSON.stringify(r.body).includes(DIGEST_HEADER.slice(1, 12)));
      }
    });
    await t.step("the transcript keeps the compact injection as an attachment", () => {
      const path = `${env.HOME}/.claude/projects/${
        Deno.realPathSync(dir).replace(/[^A-Za-z0-9]/g, "-")
      }/${session}.jsonl`;
      const lines = Deno.readTextFileSync(path).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      );
      const boundary = lines.findIndex((l) => l.subtype === "compact_boundary");
      ok(boundary > 0, "no compact boundary");
      ok(
        lines.slice(boundary).some((l) =>
          l.attachment?.type === "hook_additional_context" &&
          JSON.stringify(l.attachment.content).includes(DIGEST_HEADER.slice(1, 12))
        ),
      );
    });
  },
});
