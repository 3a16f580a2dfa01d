import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { dirname } from "node:path";
import { pinnedPackages } from "../scripts/npm_mirror.ts";
import { runtimeModules } from "../scripts/install.ts";
import { loopbackRegistry } from "./_npm_registry.ts";
import { buildLab, run, tempDir } from "./_helpers.ts";

const REPO = new URL("../", import.meta.url).pathname;

// The mirror of deno.lock's packages `scripts/npm_mirror.ts` fills (.ci/run does, before the
// tests); without it this test cannot install from an empty cache, and says so by being ignored.
const MIRROR = Deno.env.get("RTOK_NPM_MIRROR") ?? "";
const _haveMirror = (() => {
  try {
    return MIRROR !== "" && Deno.statSync(`${MIRROR}/zod/package.json`).isFile;
  } catch {
    return false;
  }
})();

// Any request that is not to loopback goes to a port where nothing listens.
const NO_NETWORK = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1",
  DENO_NO_UPDATE_CHECK: "1",
};

function _module(): string {
  const lines = ['import { join } from "node:path";', ""];
  for (let c = 0; lines.length < 480; c++) {
    lines.push(`export class Part${c} {`, "  step(x: number): string {");
    for (let k = 0; k < 6; k++) lines.push(`    const v${k} = join("p", String(x + ${k}));`);
    lines.push("    return v0;", "  }", "}", "");
  }
  return lines.join("\n") + "\n";
}

Deno.test({
  name:
    "deno task install fills an empty Deno cache with what rtok runs; then every surface works offline",
  ignore: !_haveMirror,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir("rtok-offline-");
    const cache = `${tmp.path}/cache`;
    const root = `${tmp.path}/root`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(`${tmp.path}/home`);
    await buildLab(lab);
    const PATH = `${root}/bin:${dirname(Deno.execPath())}:/usr/bin:/bin`;
    const base = { ...NO_NETWORK, HOME: `${tmp.path}/home`, PATH, DENO_DIR: cache };

    // Deno keeps npm packages by registry: the same URL stays set after the registry is gone.
    let registryUrl = "";
    await t.step("the install fetches the runtime packages and nothing else", async () => {
      await using registry = loopbackRegistry(MIRROR);
      registryUrl = registry.url;
      const r = await run(Deno.execPath(), ["task", "-q", "install", "--root", root], {
        cwd: REPO,
        env: { ...base, NPM_CONFIG_REGISTRY: registry.url },
      });
      strictEqual(r.code, 0, r.err);
      const runtime = new Set(
        pinnedPackages(Deno.readTextFileSync(`${REPO}deno.lock`)).map((p) => p.name),
      );
      const tarballs = new Set(
        registry.requests.filter((p) => p.endsWith(".tgz")).map((p) =>
          p.slice(0, p.indexOf("/-/"))
        ),
      );
      deepStrictEqual([...tarballs].filter((n) => !runtime.has(n)), [], "only deno.lock's");
      deepStrictEqual([...runtime].filter((n) => !tarballs.has(n)), [], "every one of them");
      for (const devOnly of ["openai", "@anthropic-ai/sdk", "playwright-core", "gpt-tokenizer"]) {
        ok(!registry.requests.includes(devOnly), `${devOnly} is the tests' and benches' only`);
      }
    });

    // From here on the registry is gone too.
    const env = { ...base, NPM_CONFIG_REGISTRY: registryUrl, RTOK_HOME: rtokHome };
    const rtok = (args: string[], stdin?: string) =>
      run(`${root}/bin/rtok`, args, { cwd: lab, env, ...(stdin === undefined ? {} : { stdin }) });
    Deno.writeTextFileSync(`${lab}/service.ts`, _module());
    Deno.writeTextFileSync(
      `${lab}/data.json`,
      JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `n${i}` })), null, 2),
    );

    await t.step("a filtered command", async () => {
      const r = await rtok(["git", "log"]);
      strictEqual(r.code, 0, r.err);
      match(r.out, /\[rtok: cut .*raw: rtok expand [0-9a-f]+\]/);
    });

    await t.step("a Read outline (the tree-sitter runtime and grammar) and JSON", async () => {
      const code = await rtok(["read", "service.ts"]);
      strictEqual(code.code, 0, code.err);
      match(code.out, /class Part3\b.*\d+[–-]\d+/);
      const json = await rtok(["read", "data.json"]);
      strictEqual(json.code, 0, json.err);
      ok(json.out.length < Deno.readTextFileSync(`${lab}/data.json`).length, json.out);
    });

    await t.step("the hook, and another host's installer (smol-toml)", async () => {
      const event = JSON.stringify({
        session_id: "s",
        cwd: lab,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "git log -5", description: "d" },
      });
      const r = await rtok(["hook", "claude"], event);
      strictEqual(r.code, 0, r.err);
      match(r.out, /rtok git log -5/);
      const init = await rtok(["init", "--host", "codex", "--dry-run"]);
      strictEqual(init.code, 0, init.err);
      match(init.out, /would (create|change) .*hooks\.json/);
    });

    await t.step("the MCP server (its SDK and zod)", async () => {
      const lines = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ];
      const r = await rtok(["mcp"], lines.map((l) => JSON.stringify(l) + "\n").join(""));
      strictEqual(r.code, 0, r.err);
      const answers = r.out.trim().split("\n").map((l) => JSON.parse(l));
      const tools = answers.find((a) => a.id === 2)?.result?.tools ?? [];
      ok(tools.some((x: { name: string }) => x.name === "rtok_run"), r.out);
    });

    await t.step("the resident server answers a whole Read with its outline", async () => {
      const ensure = await rtok(["serve", "--ensure"]);
      strictEqual(ensure.code, 0, ensure.err);
      try {
        const state = JSON.parse(Deno.readTextFileSync(`${rtokHome}/serve.json`));
        const content = _module();
        const n = content.split("\n").length - 1;
        const r = await fetch(`http://127.0.0.1:${state.port}/hook/claude`, {
          method: "POST",
          headers: { authorization: `Bearer ${state.secret}` },
          body: JSON.stringify({
            session_id: "s2",
            cwd: lab,
            hook_event_name: "PostToolUse",
            tool_name: "Read",
            tool_input: { file_path: `${lab}/service.ts` },
            tool_response: {
              type: "text",
              file: {
                filePath: `${lab}/service.ts`,
                content,
                numLines: n,
                startLine: 1,
                totalLines: n,
              },
            },
          }),
        });
        const answer = await r.json();
        // The head stays as the file's first lines; the outline of the rest comes beside it.
        const view = JSON.stringify(answer.hookSpecificOutput ?? {});
        match(view, /class Part30\b[^"]*\d+[–-]\d+/, view.slice(-1500));
      } finally {
        await rtok(["serve", "--stop"]);
      }
    });

    await t.step("the proxy forwards a request to a loopback upstream", async () => {
      const seen: string[] = [];
      await using upstream = (() => {
        const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
          seen.push(await req.text());
          return Response.json({ id: "m", type: "message", content: [] });
        });
        return {
          url: `http://127.0.0.1:${s.addr.port}`,
          [Symbol.asyncDispose]: () => s.shutdown(),
        };
      })();
      const child = new Deno.Command(`${root}/bin/rtok`, {
        args: ["proxy", "--port", "0", "--anthropic-upstream", upstream.url],
        cwd: lab,
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // The proxy says where it listens on stderr.
      const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
      try {
        let text = "";
        while (!/listening on (http:\/\/\S+)/.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
        ok(url, text);
        const r = await fetch(`${url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": "k" },
          body: JSON.stringify({ model: "m", max_tokens: 1, messages: [] }),
        });
        strictEqual(r.status, 200);
        await r.body?.cancel();
        strictEqual(seen.length, 1);
      } finally {
        child.kill("SIGTERM");
        await reader.cancel();
        await child.stdout.cancel();
        await child.status;
      }
    });
  },
});

Deno.test("deno.json maps exactly the packages rtok's own modules import, as dev.json pins them, with the same compiler options", () => {
  const [rt, dv] = ["deno.json", "dev.json"].map((f) =>
    JSON.parse(Deno.readTextFileSync(REPO + f))
  );
  const runtime = rt.imports as Record<string, string>;
  for (const [name, spec] of Object.entries(runtime)) strictEqual(dv.imports[name], spec, name);
  // dev.json repeats what type checks and runs the tests: it must say the same.
  deepStrictEqual(dv.compilerOptions, rt.compilerOptions);
  deepStrictEqual(dv.unstable, rt.unstable);
  const used = new Set<string>();
  for (const file of runtimeModules(REPO)) {
    const text = Deno.readTextFileSync(file);
    const specs = text.matchAll(
      /^\s*(?:import|export)\b[^"]*?\bfrom\s+"([^"]+)"|\bimport\("([^"]+)"\)/gm,
    );
    for (const m of specs) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith(".") || spec.startsWith("/")) continue;
      if (/^(node|npm|jsr|https?):/.test(spec) || spec === "@rtok/cli") continue;
      const parts = spec.split("/");
      used.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
    }
  }
  deepStrictEqual([...used].sort(), Object.keys(runtime).sort());
});
