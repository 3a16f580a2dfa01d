import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { BUILTIN_PRICES, priceOf } from "../src/plugins/proxy/prices.ts";
import {
  baseSettings,
  geminiBinary,
  geminiEnv,
  type GeminiStandIn,
  runGemini,
  startGeminiStandIn,
  trustFolder,
} from "./_gemini.ts";
import { buildLab, pointerId, rtok, sh, tempDir } from "./_helpers.ts";
import { proxyRows, startProxy, startUpstream } from "./_upstream.ts";

const MODEL = "gemini-2.5-flash";
const KEY = "rtok-test-key"; // what geminiEnv gives the CLI as GEMINI_API_KEY

// The one function response of the last run: its output as the stand-in received it.
function received(api: GeminiStandIn): string {
  const responses = api.functionResponses();
  strictEqual(responses.length, 1, JSON.stringify(api.requests.map((q) => q.path)));
  strictEqual(responses[0].name, "run_shell_command");
  deepStrictEqual(Object.keys(responses[0].response), ["output"]);
  return String(responses[0].response.output);
}

// Every file under `dir`, as bytes.
function* files(dir: string): Generator<Uint8Array> {
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* files(path);
    else if (e.isFile) yield Deno.readFileSync(path);
  }
}

Deno.test({
  name: "rtok proxy compresses the real Gemini CLI's shell result and records Gemini's usage",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const gemini = await geminiBinary();
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const geminiHome = `${tmp.path}/gemini-home`;
    const rtokHome = `${tmp.path}/rtok`;
    const lab = `${tmp.path}/lab`;
    Deno.mkdirSync(home);
    await buildLab(lab);
    trustFolder(geminiHome, lab);
    Deno.writeTextFileSync(`${geminiHome}/.gemini/settings.json`, JSON.stringify(baseSettings()));
    await using api = startGeminiStandIn();
    api.usage = {
      promptTokenCount: 5321,
      cachedContentTokenCount: 4096,
      candidatesTokenCount: 77,
      thoughtsTokenCount: 11,
      totalTokenCount: 5409,
    };
    await using proxy = await startProxy(rtokHome, "http://127.0.0.1:9", [
      "--gemini-upstream",
      api.url,
      "--verbose",
    ]);
    // Gemini CLI talks to the proxy; rtok is not installed as its hook.
    const env = { ...geminiEnv({ url: proxy.url }, geminiHome), HOME: home };
    // A named model skips Gemini CLI's routing classifier (one more request per turn).
    const ask = async (command: string) => {
      api.reset();
      api.command = command;
      const r = await runGemini(gemini, lab, env, ["--approval-mode", "yolo", "-m", MODEL]);
      strictEqual(r.code, 0, r.err.slice(-2000));
      return received(api);
    };
    const raw = (await sh("git", ["log"], lab)).trimEnd();

    await t.step("the stand-in gets git log compressed inside Gemini CLI's wrapping", async () => {
      const output = await ask("git log");
      for (const q of api.requests) {
        strictEqual(q.path, `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
        strictEqual(q.headers["x-goog-api-key"], KEY, "the key goes upstream as the CLI sent it");
      }
      const m =
        /^<untrusted_context>\nOutput: ([\s\S]*)\nProcess Group PGID: \d+\n<\/untrusted_context>$/
          .exec(output);
      ok(m, output.slice(0, 200));
      const shown = m[1];
      ok(shown.length < raw.length / 2, `${shown.length} chars of ${raw.length}`);
      // Each commit shown keeps its subject.
      const subjects = new Map(
        [...raw.matchAll(/^commit ([0-9a-f]{40})\n(?:.*\n)*?\n {4}(.*)$/gm)].map((c) => [
          c[1].slice(0, 10),
          c[2],
        ]),
      );
      strictEqual(subjects.size, 13);
      const lines = [...shown.matchAll(/^([0-9a-f]{10}) (.*)$/gm)];
      for (const [, hash, subject] of lines) strictEqual(subject, subjects.get(hash), hash);
      // Every commit is shown, and the newest one's message (its trailers aside) in full.
      strictEqual(lines.length, 13, shown);
      const newest = raw.slice(0, raw.indexOf("\ncommit "));
      const message = newest.split("\n").filter((l) => l.startsWith("    ")).map((l) => l.trim());
      for (const line of message.filter((l) => l && !/^[A-Za-z-]+: /.test(l))) {
        ok(shown.includes(line), line);
      }
      const id = pointerId(shown);
      ok(id, shown.slice(-200));
      const expanded = await rtok(rtokHome, ["expand", id]);
      strictEqual(expanded.code, 0, expanded.err);
      strictEqual(expanded.out.trimEnd(), raw, "the archive holds git's output");
      console.log(
        `gemini proxy e2e: git log ${raw.length} chars; the stand-in got ${shown.length} ` +
          `(${output.length} with Gemini CLI's wrapping)`,
      );
    });

    await t.step("the ledger holds the usage the stand-in reported, per request", async () => {
      const rows = await proxyRows(rtokHome, 2);
      strictEqual(rows.length, 2);
      for (const r of rows) {
        deepStrictEqual(
          [r.provider, r.route, r.model, r.status, r.streamed],
          ["gemini", "stream_generate", MODEL, 200, 1],
        );
        // Input is the prompt not read from the cache; output counts the thinking.
        deepStrictEqual(
          [r.input_tokens, r.cache_read_tokens, r.cache_write_tokens, r.output_tokens],
          [5321 - 4096, 4096, null, 77 + 11],
        );
        strictEqual(r.note, null);
      }
      deepStrictEqual([rows[0].results_seen, rows[0].results_compressed], [0, 0]);
      deepStrictEqual([rows[1].results_seen, rows[1].results_compressed], [1, 1]);
      ok(rows[1].chars_saved > raw.length / 2, `${rows[1].chars_saved} chars saved`);
      const db = new DatabaseSync(`${rtokHome}/rtok.db`, { readOnly: true });
      try {
        const results = db.prepare("SELECT shape, archive_id FROM proxy_results").all();
        strictEqual(results.length, 1);
        strictEqual(results[0].shape, "git log");
      } finally {
        db.close();
      }
    });

    await t.step("a failing command's result goes upstream whole", async () => {
      const output = await ask("seq 1 3000; exit 3");
      const numbers = Array.from({ length: 3000 }, (_, i) => i + 1).join("\n");
      match(
        output,
        new RegExp(`^<untrusted_context>\\nOutput: ${numbers}\\nExit Code: 3\\nProcess Group`),
      );
      const rows = await proxyRows(rtokHome, 4);
      deepStrictEqual(
        rows.slice(2).map((r) => [r.results_seen, r.results_compressed, r.chars_saved]),
        [[0, 0, 0], [1, 0, 0]],
      );
    });

    await t.step("/metrics counts Gemini in the same series", async () => {
      const text = await (await fetch(`${proxy.url}/metrics`)).text();
      // The caller is Gemini CLI's key, hashed under this installation's salt.
      const caller = 'caller="key-[0-9a-f]{12}"';
      const labels = `provider="gemini",model="${MODEL.replaceAll(".", "\\.")}"`;
      const has = (line: string) => match(text, new RegExp(`^${line}$`, "m"));
      has(
        `rtok_proxy_requests_total\\{${labels},route="stream_generate",status="200",${caller}\\} 4`,
      );
      has(`rtok_proxy_tokens_total\\{${labels},kind="input",${caller}\\} ${4 * 1225}`);
      has(`rtok_proxy_tokens_total\\{${labels},kind="cache_read",${caller}\\} ${4 * 4096}`);
      has(`rtok_proxy_tokens_total\\{${labels},kind="output",${caller}\\} ${4 * 88}`);
      has(`rtok_proxy_tool_results_compressed_total\\{provider="gemini",${caller}\\} 1`);
    });

    await t.step(
      "with no Gemini price, rtok gain shows the tokens and an unknown cost",
      async () => {
        strictEqual(priceOf(BUILTIN_PRICES, MODEL), null, "prices.json has no Gemini model");
        const r = await rtok(rtokHome, ["gain", "--format", "json"]);
        strictEqual(r.code, 0, r.err);
        const money = JSON.parse(r.out).money;
        ok(money.unpriced.includes(MODEL), JSON.stringify(money));
        const m = money.models.find((x: { model: string }) => x.model === MODEL);
        deepStrictEqual([m.provider, m.requests, m.spentUsd], ["gemini", 4, null]);
      },
    );

    await t.step("the key is never stored or logged", () => {
      const key = new TextEncoder().encode(KEY);
      for (const bytes of files(rtokHome)) {
        ok(Buffer.from(bytes).indexOf(key) < 0, "a file of RTOK_HOME holds the key");
      }
      ok(!proxy.stderr().includes(KEY), proxy.stderr());
      match(
        proxy.stderr(),
        /proxy: key-[0-9a-f]{12} gemini stream_generate 200 gemini-2\.5-flash /,
      );
    });
  },
});

Deno.test({
  name: "rtok proxy forwards a Gemini body it cannot read untouched, and records it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    await using proxy = await startProxy(tmp.path, "http://127.0.0.1:9", [
      "--gemini-upstream",
      up.url,
      "--verbose",
    ]);
    const path = `/v1beta/models/${MODEL}:generateContent`;
    const post = async (body: string, query = "") => {
      const r = await fetch(`${proxy.url}${path}${query}`, { method: "POST", body });
      await r.body?.cancel();
      const got = up.received.at(-1)!;
      strictEqual(got.path, path + query);
      strictEqual(got.text, body, "forwarded byte for byte");
    };
    const long = "x ".repeat(2000);

    await t.step("a body that is not JSON", async () => {
      await post(`{"contents":[{"parts":[{"functionResponse":{"response":{"output":"${long}"`);
      const [row] = await proxyRows(tmp.path, 1);
      deepStrictEqual([row.provider, row.route, row.model, row.note], [
        "gemini",
        "generate",
        MODEL,
        "not JSON",
      ]);
    });

    await t.step("a JSON body without a contents list, the key in the query", async () => {
      const body = JSON.stringify({ generateContentRequest: { contents: [] }, pad: long });
      await post(body, "?key=query-secret-3");
      const rows = await proxyRows(tmp.path, 2);
      deepStrictEqual([rows[1].provider, rows[1].results_seen, rows[1].note], [
        "gemini",
        0,
        "no contents list",
      ]);
    });

    await t.step("another Gemini path goes to the Gemini upstream as it came", async () => {
      const r = await fetch(`${proxy.url}/v1beta/models?key=query-secret-3&pageSize=5`);
      await r.body?.cancel();
      strictEqual(up.received.at(-1)!.path, "/v1beta/models?key=query-secret-3&pageSize=5");
      const rows = await proxyRows(tmp.path, 3);
      deepStrictEqual([rows[2].provider, rows[2].route], ["gemini", "other"]);
    });

    await t.step("the query's key is never stored or logged", () => {
      const key = new TextEncoder().encode("query-secret-3");
      for (const bytes of files(tmp.path)) ok(Buffer.from(bytes).indexOf(key) < 0);
      ok(!proxy.stderr().includes("query-secret-3"), proxy.stderr());
    });
  },
});

Deno.test({
  name:
    "rtok proxy takes the Gemini upstream from config.toml, a flag over it, and refuses a bad one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    using tmp = tempDir();
    await using up = startUpstream();
    Deno.writeTextFileSync(
      `${tmp.path}/config.toml`,
      `[plugins.proxy]\ngemini_upstream = "${up.url}/"\n`,
    );
    await t.step("from config.toml", async () => {
      await using proxy = await startProxy(tmp.path, "http://127.0.0.1:9");
      ok(proxy.stderr().includes(`gemini → ${up.url})`), proxy.stderr());
      const r = await fetch(`${proxy.url}/v1beta/models/m:countTokens`, {
        method: "POST",
        body: '{"contents":[]}',
      });
      deepStrictEqual(await r.json(), { object: "list", data: [] });
      strictEqual(up.received.at(-1)!.path, "/v1beta/models/m:countTokens");
    });
    await t.step("the flag wins", async () => {
      await using proxy = await startProxy(tmp.path, "http://127.0.0.1:9", [
        "--gemini-upstream",
        "http://127.0.0.1:7/",
      ]);
      ok(proxy.stderr().includes("gemini → http://127.0.0.1:7)"), proxy.stderr());
    });
    await t.step("a URL that is not http", async () => {
      const r = await rtok(tmp.path, ["proxy", "--gemini-upstream", "ftp://h/x"]);
      strictEqual(r.code, 1);
      strictEqual(
        r.err.trim(),
        'rtok: --gemini-upstream "ftp://h/x": expected an http or https URL',
      );
    });
    await t.step("a value in config.toml that is not a string", async () => {
      Deno.writeTextFileSync(`${tmp.path}/config.toml`, "[plugins.proxy]\ngemini_upstream = 5\n");
      const r = await rtok(tmp.path, ["proxy"]);
      strictEqual(r.code, 1);
      strictEqual(r.err.trim(), "rtok: config [plugins.proxy] gemini_upstream: expected a string");
    });
  },
});
