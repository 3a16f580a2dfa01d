import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { existsSync } from "node:fs";
import {
  commandHookPath,
  commandHookSource,
  commandHookWords,
  writeCommandHook,
} from "../src/hosts/command_hook.ts";
import { writeServeState } from "../src/surfaces/_serve_state.ts";
import { tempDir } from "./_helpers.ts";

// A stand-in for rtok: the fallback prints its words and the event it read; `serve --ensure`
// is noted in ensure.log.
function _stub(dir: string): string {
  const path = `${dir}/rtok stub`;
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = serve ]; then echo "$*" >>"${dir}/ensure.log"; exit 0; fi\n` +
      `printf 'fallback %s:' "$*"; cat\n`,
    { mode: 0o755 },
  );
  return `'${path}'`;
}

interface _Seen {
  readonly path: string;
  readonly auth: string | null;
  readonly body: string;
}

// A loopback stand-in for rtok serve that answers with `reply` and notes each request.
function _server(reply: () => Response) {
  const seen: _Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({
      path: url.pathname + url.search,
      auth: req.headers.get("authorization"),
      body: await req.text(),
    });
    return reply();
  });
  return { seen, port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

async function _hook(
  shell: string,
  home: string,
  event: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const [program, ...flags] = shell.split(" ");
  const o = await new Deno.Command(program, {
    args: [...flags, commandHookPath(home), "hook", "codex"],
    env: { PATH: "/usr/bin:/bin", HOME: home, RTOK_HOME: home, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = o.stdin.getWriter();
  await w.write(new TextEncoder().encode(event));
  await w.close();
  const r = await o.output();
  const d = new TextDecoder();
  return { code: r.code, out: d.decode(r.stdout), err: d.decode(r.stderr) };
}

// Quotes, a backslash, a percent sign, multibyte text and a newline inside a string.
const EVENT = '{"hook_event_name":"PostToolUse","tool_response":"a \\"q\\" \\\\ 100% é 日本\\nz"}';
const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";

Deno.test("rtok_hook.sh asks the server first, under bash and sh alike", async (t) => {
  // bash as sh (POSIX mode) too: where /bin/sh is bash, `sh rtok_hook.sh` runs that way.
  for (const shell of ["bash", "sh", "bash --posix"]) {
    await t.step(`${shell}: the server's answer, byte for byte, and no fallback`, async () => {
      using tmp = tempDir();
      const stub = _stub(tmp.path);
      await writeCommandHook(tmp.path, stub);
      await using s = _server(() => new Response('{"output":"cut"}\n'));
      writeServeState(tmp.path, { port: s.port, secret: SECRET, pid: 1, version: "x" });
      const r = await _hook(shell, tmp.path, EVENT);
      strictEqual(r.code, 0, r.err);
      strictEqual(r.out, '{"output":"cut"}\n');
      deepStrictEqual(s.seen, [{
        path: "/hook/codex?as=command",
        auth: `Bearer ${SECRET}`,
        body: EVENT,
      }]);
      ok(!existsSync(`${tmp.path}/ensure.log`), "no server started: one answered");
    });

    await t.step(`${shell}: the server's empty answer is no output`, async () => {
      using tmp = tempDir();
      await writeCommandHook(tmp.path, _stub(tmp.path));
      await using s = _server(() => new Response(""));
      writeServeState(tmp.path, { port: s.port, secret: SECRET, pid: 1, version: "x" });
      const r = await _hook(shell, tmp.path, EVENT);
      strictEqual(r.out, "");
      strictEqual(s.seen.length, 1);
    });

    await t.step(`${shell}: a refusal runs rtok with the same event`, async () => {
      using tmp = tempDir();
      await writeCommandHook(tmp.path, _stub(tmp.path));
      await using s = _server(() => new Response("no\n", { status: 401 }));
      writeServeState(tmp.path, { port: s.port, secret: SECRET, pid: 1, version: "x" });
      const r = await _hook(shell, tmp.path, EVENT);
      strictEqual(r.out, `fallback hook codex:${EVENT}`);
      strictEqual(s.seen.length, 1);
    });

    await t.step(
      `${shell}: no server runs rtok, and starts one at most once a minute`,
      async () => {
        using tmp = tempDir();
        await writeCommandHook(tmp.path, _stub(tmp.path));
        strictEqual((await _hook(shell, tmp.path, EVENT)).out, `fallback hook codex:${EVENT}`);
        strictEqual((await _hook(shell, tmp.path, EVENT)).out, `fallback hook codex:${EVENT}`);
        // The start is detached: give it a moment to write.
        for (let i = 0; i < 50 && !existsSync(`${tmp.path}/ensure.log`); i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        strictEqual(Deno.readTextFileSync(`${tmp.path}/ensure.log`), "serve --ensure\n");
      },
    );

    await t.step(
      `${shell}: a server gone from its port runs rtok with the same event`,
      async () => {
        using tmp = tempDir();
        await writeCommandHook(tmp.path, _stub(tmp.path));
        const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = listener.addr.port;
        listener.close();
        writeServeState(tmp.path, { port, secret: SECRET, pid: 1, version: "x" });
        const r = await _hook(shell, tmp.path, EVENT);
        strictEqual(r.code, 0, r.err);
        strictEqual(r.out, `fallback hook codex:${EVENT}`);
        strictEqual(r.err, "");
      },
    );

    await t.step(`${shell}: RTOK_DISABLED leaves the server unasked`, async () => {
      using tmp = tempDir();
      await writeCommandHook(tmp.path, _stub(tmp.path));
      await using s = _server(() => new Response("{}\n"));
      writeServeState(tmp.path, { port: s.port, secret: SECRET, pid: 1, version: "x" });
      const r = await _hook(shell, tmp.path, EVENT, { RTOK_DISABLED: "1" });
      strictEqual(r.out, `fallback hook codex:${EVENT}`);
      strictEqual(s.seen.length, 0);
      ok(!existsSync(`${tmp.path}/ensure.log`));
    });
  }
});

Deno.test("commandHookWords() runs the script with bash where PATH has it, else sh", () => {
  using tmp = tempDir();
  Deno.mkdirSync(`${tmp.path}/bin`);
  Deno.writeTextFileSync(`${tmp.path}/bin/bash`, "", { mode: 0o755 });
  strictEqual(commandHookWords("/h", `/nowhere:${tmp.path}/bin`), "bash /h/rtok_hook.sh");
  strictEqual(commandHookWords("/my home", "/nowhere"), "sh '/my home/rtok_hook.sh'");
});

Deno.test("writeCommandHook() writes once, and again only when rtok's words change", async () => {
  using tmp = tempDir();
  strictEqual(await writeCommandHook(tmp.path, "rtok"), true);
  strictEqual(await writeCommandHook(tmp.path, "rtok"), false);
  strictEqual(await writeCommandHook(tmp.path, "/opt/rtok"), true);
  strictEqual(Deno.readTextFileSync(commandHookPath(tmp.path)), commandHookSource("/opt/rtok"));
});
