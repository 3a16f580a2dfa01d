/**
 * The proxy's budgets, each measured against going direct in the same run:
 *
 * 1. Added latency for a 1 MB request (tool results of real captured output): p50 of
 *    (through `rtok proxy` − direct) ≤ 5 ms, the two interleaved request by request.
 * 2. Time to the first streamed byte: p50 of (through − direct) ≤ 5 ms.
 * 3. 50 concurrent streams through the proxy: its peak resident memory < 200 MiB.
 *
 * The stand-in upstream runs in this process; the proxy is `rtok proxy` in its own process,
 * as a user runs it.
 *
 * @module
 */

import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const FIXTURES = new URL("../tests/fixtures/", import.meta.url);

/** One budget's outcome. */
export interface ProxyBudget {
  /** What was measured. */
  readonly name: string;
  /** The figures. */
  readonly measured: string;
  /** The budget. */
  readonly budget: string;
  /** Whether it was met. */
  readonly ok: boolean;
}

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

// A 1 MB Anthropic request whose tool results are real outputs of real tools.
async function oneMegabyteBody(): Promise<string> {
  const outputs: string[] = [];
  for await (const e of Deno.readDir(FIXTURES)) {
    if (!e.isDirectory) continue;
    const raw = await Deno.readTextFile(new URL(`${e.name}/raw.out`, FIXTURES)).catch(() => "");
    if (raw.length > 2000) outputs.push(raw);
  }
  outputs.sort();
  const messages: unknown[] = [{ role: "user", content: "go" }];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const text = outputs[i % outputs.length];
    const id = `toolu_${i}`;
    messages.push({
      role: "assistant",
      content: [{ type: "tool_use", id, name: "Bash", input: { command: `step ${i}` } }],
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: text }],
    });
    size += text.length + 200;
  }
  return JSON.stringify({ model: "bench", max_tokens: 10, messages });
}

const EVENT = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,' +
  '"delta":{"type":"text_delta","text":"some words of an answer"}}\n\n';

function upstream(): { url: string; close(): Promise<void> } {
  const enc = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    if (!body.includes('"stream":true')) {
      return Response.json({ type: "message", usage: { input_tokens: 1, output_tokens: 1 } });
    }
    const events = Number(new URL(req.url).searchParams.get("events") ?? 1);
    const gap = Number(new URL(req.url).searchParams.get("gap") ?? 0);
    let n = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (n > 0 && gap) await new Promise((r) => setTimeout(r, gap));
        if (n++ >= events) return c.close();
        c.enqueue(enc.encode(EVENT));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    close: () => server.shutdown(),
  };
}

async function startProxy(home: string, up: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RTOK_PERMISSIONS, CLI, "proxy", "--port", "0", "--anthropic-upstream", up],
    env: { RTOK_HOME: home },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let err = "";
  while (!/listening on (http:\/\/\S+)/.test(err)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`rtok proxy did not start: ${err}`);
    err += value;
  }
  // Keep draining stderr so the proxy never blocks on it.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return { url: /listening on (http:\/\/\S+)/.exec(err)![1], child };
}

async function timeRequest(url: string, body: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${url}/v1/messages`, { method: "POST", body });
  await r.arrayBuffer();
  return performance.now() - t;
}

async function firstByte(url: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${url}/v1/messages?events=3`, {
    method: "POST",
    body: '{"model":"bench","stream":true,"messages":[]}',
  });
  const reader = r.body!.getReader();
  await reader.read();
  const ms = performance.now() - t;
  await reader.cancel();
  return ms;
}

// Deno reads /proc/<pid> only with every permission; `cat` reads it with --allow-run.
async function peakRss(pid: number): Promise<number> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/status`] }).output();
  const status = new TextDecoder().decode(out.stdout);
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Measures the proxy's budgets. */
export async function proxyBudgets(rounds: number): Promise<ProxyBudget[]> {
  const home = await Deno.makeTempDir({ prefix: "rtok-proxy-budget-" });
  const up = upstream();
  const proxy = await startProxy(home, up.url);
  try {
    const body = await oneMegabyteBody();
    const cold = await timeRequest(proxy.url, body);
    for (let i = 0; i < 3; i++) {
      await timeRequest(up.url, body);
      await timeRequest(proxy.url, body);
    }
    const added: number[] = [], direct: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const d = await timeRequest(up.url, body);
      const p = await timeRequest(proxy.url, body);
      direct.push(d);
      added.push(p - d);
    }
    const ttfb: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const d = await firstByte(up.url);
      const p = await firstByte(proxy.url);
      ttfb.push(p - d);
    }
    // A proxy of its own, so the 1 MB requests above do not count in its peak.
    const fresh = await startProxy(home, up.url);
    const idle = await peakRss(fresh.child.pid);
    let complete = false, rss = 0;
    try {
      const streams = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const r = await fetch(`${fresh.url}/v1/messages?events=200&gap=5`, {
            method: "POST",
            body: '{"model":"bench","stream":true,"messages":[]}',
          });
          return (await r.text()).length;
        }),
      );
      complete = streams.every((n) => n === EVENT.length * 200);
      rss = await peakRss(fresh.child.pid);
    } finally {
      fresh.child.kill("SIGTERM");
      await fresh.child.status;
    }
    return [
      {
        name: "proxy, added latency for a 1 MB request",
        measured: `p50 ${pct(added, 0.5).toFixed(2)} ms, p90 ${pct(added, 0.9).toFixed(2)} ms ` +
          `(direct p50 ${pct(direct, 0.5).toFixed(2)} ms; ${(body.length / 1e6).toFixed(2)} MB; ` +
          `first request through the proxy, cold: ${cold.toFixed(1)} ms)`,
        budget: "p50 ≤ 5 ms",
        ok: pct(added, 0.5) <= 5,
      },
      {
        name: "proxy, time to the first streamed byte",
        measured: `p50 +${pct(ttfb, 0.5).toFixed(2)} ms over direct`,
        budget: "p50 ≤ 5 ms later than direct",
        ok: pct(ttfb, 0.5) <= 5,
      },
      {
        name: "proxy, 50 concurrent streams",
        measured: `peak RSS ${rss.toFixed(1)} MiB (${idle.toFixed(1)} MiB before them); ${
          complete ? "all 50 complete" : "SOME INCOMPLETE"
        }`,
        budget: "< 200 MiB, every stream whole",
        ok: rss < 200 && complete,
      },
    ];
  } finally {
    proxy.child.kill("SIGTERM");
    await proxy.child.status;
    await up.close();
    await Deno.remove(home, { recursive: true });
  }
}
