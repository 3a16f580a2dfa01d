import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { tmpdir } from "node:os";
import Anthropic from "@anthropic-ai/sdk";
import {
  buildLab,
  denoDir,
  rtok,
  RTOK_PERMS,
  run,
  type RunningRtok,
  startRtok,
  tempDir,
  which,
} from "./_helpers.ts";
import type { Snapshot } from "./_dashboard_browser.ts";
import { gitLogTurns, startProxy, startUpstream } from "./_upstream.ts";

// Debian's package (`apt-get install -y chromium`, in .ci/run); the test is skipped only
// without it, as the Prometheus test is without prometheus.
const CHROMIUM = which("chromium");

/** Where the test leaves its screenshot of the filled page, to be looked at. */
const SCREENSHOT = `${tmpdir()}/rtok-dashboard.png`;

// A file name that is markup: the page must show it as text.
const MARKUP = `<img src=pwned onerror="window.pwned=1">`;

/** `rtok dashboard` as a running process on a free port. */
function startDashboard(home: string, cwd?: string): Promise<RunningRtok> {
  return startRtok(
    home,
    ["dashboard"],
    /^rtok dashboard: (http:\/\/127\.0\.0\.1:\d+\/) \(ledger .*, read-only/m,
    { cwd },
  );
}

const DRIVER = new URL("./_dashboard_browser.ts", import.meta.url).pathname;

/** Headless Chromium with one page, driven by tests/_dashboard_browser.ts. */
interface Browser extends AsyncDisposable {
  /** Sends one command; returns its answer, or throws what the driver said. */
  send<T = unknown>(cmd: Record<string, unknown>): Promise<T>;
}

async function launch(profile: string): Promise<Browser> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      // playwright-core looks at /proc/sys when it loads, which Deno grants only with -A.
      "-A",
      // The tests' import map: playwright-core is no package rtok itself runs.
      "--config",
      new URL("../dev.json", import.meta.url).pathname,
      DRIVER,
      CHROMIUM!,
      profile,
    ],
    env: { DENO_DIR: await denoDir() },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const err = new Response(child.stderr).text();
  let buffer = "";
  const next = async (): Promise<string> => {
    while (!buffer.includes("\n")) {
      const { done, value } = await lines.read();
      if (done) throw new Error(`the browser driver ended: ${await err}`);
      buffer += value;
    }
    const at = buffer.indexOf("\n");
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    return line;
  };
  let closed = false;
  const send = async <T>(cmd: Record<string, unknown>): Promise<T> => {
    await writer.write(new TextEncoder().encode(JSON.stringify(cmd) + "\n"));
    const a = JSON.parse(await next());
    if (a.error !== undefined) throw new Error(`${cmd.op}: ${a.error}`);
    if (cmd.op === "close") closed = true;
    return a.ok as T;
  };
  return {
    send,
    async [Symbol.asyncDispose]() {
      if (!closed) {
        try {
          await send({ op: "close" });
        } catch { /* already gone */ }
      }
      await writer.close().catch(() => {});
      lines.releaseLock();
      await child.stdout.cancel().catch(() => {});
      await child.status;
      await err;
    },
  };
}

async function json(home: string, cwd: string, ...args: string[]): Promise<unknown> {
  const r = await rtok(home, ["gain", ...args, "--format", "json"], { cwd });
  strictEqual(r.code, 0, r.err);
  return JSON.parse(r.out);
}

function onlyLoopback(requests: readonly string[], origin: string): void {
  ok(requests.length > 0, "the page made requests");
  for (const u of requests) {
    ok(u.startsWith(origin) || u.startsWith("data:"), `a request left rtok's origin: ${u}`);
  }
}

interface Gain {
  runs: number;
  rawTokens: number;
  emittedTokens: number;
  savedTokens: number;
  failures: number;
  commands: {
    command: string;
    runs: number;
    rawTokens: number;
    emittedTokens: number;
    savedTokens: number;
    savedPct: number;
  }[];
  sessions: { contextTokenTurns: number };
  expandRates: { family: string; ratePct: number }[];
  proxy: {
    requests: number;
    models: { provider: string; model: string; inputTokens: number; cacheReadTokens: number }[];
  };
  money: { spentUsd: number; models: { provider: string; model: string; spentUsd: number }[] };
}

Deno.test({
  name: "rtok dashboard in headless Chromium shows rtok gain's figures and follows new runs",
  ignore: CHROMIUM === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const lab = `${tmp.path}/lab`;
    await Deno.mkdir(home);
    await Deno.mkdir(lab);
    // Each run moves its row into the ledger at once, so the page can follow it.
    await Deno.writeTextFile(`${home}/config.toml`, "[ledger]\nspool_kb = 0\n");
    await buildLab(lab);
    await Deno.writeTextFile(`${lab}/${MARKUP}`, "x\n");

    // Real runs: a filtered and cut git log, an ls naming markup, a passthrough, a session
    // the hook saw, a filter that throws, a proxy request priced by model.
    for (const args of [["git", "log"], ["ls", "-la", MARKUP], ["git", "log", "-3"]]) {
      const r = await rtok(home, args, { cwd: lab });
      strictEqual(r.code, 0, r.err);
    }
    const call = (tool: string, input: Record<string, unknown>) =>
      rtok(home, ["hook", "claude"], {
        cwd: lab,
        stdin: JSON.stringify({
          hook_event_name: "PostToolUse",
          session_id: "session-<b>1</b>",
          cwd: lab,
          tool_name: tool,
          tool_input: input,
          tool_response: { stdout: "", stderr: "" },
        }),
      });
    strictEqual((await call("Bash", { command: "rtok git log -3" })).code, 0);
    strictEqual((await call("Read", { file_path: `${lab}/app.py` })).code, 0);
    await _throwingRun(home, lab);
    {
      await using up = startUpstream();
      await using proxy = await startProxy(home, up.url);
      const client = new Anthropic({
        apiKey: "sk-ant-x",
        baseURL: proxy.url,
        maxRetries: 0,
        defaultHeaders: { "x-rtok-caller": "alice" },
      });
      await client.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 10,
        messages: gitLogTurns(),
      });
    }

    // The CLI's view of the same store (it moves anything spooled into the ledger first).
    const gain = await json(home, lab) as Gain;
    const graph = await json(home, lab, "--graph") as { days: { day: string; total: number }[] };
    const sessions = await json(home, lab, "--sessions") as {
      session: string;
      contextTokenTurns: number;
    }[];
    const failures = await json(home, lab, "--failures") as { command: string; error: string }[];
    const callers = await json(home, lab, "--by", "caller") as {
      caller: string;
      requests: number;
      spentUsd: number;
    }[];
    ok(gain.commands.some((c) => c.command === "git log"), "git log was recorded");
    ok(gain.proxy.requests >= 1, "the proxy request was recorded");
    ok(sessions.length === 1 && sessions[0].contextTokenTurns > 0, JSON.stringify(sessions));
    ok(failures.length >= 1, "the filter failure was recorded");

    await using dash = await startDashboard(home, lab);
    const origin = dash.url.replace(/\/$/, "");
    const api = await (await fetch(`${dash.url}api/gain`)).json();
    deepStrictEqual(api.gain, gain, "GET /api/gain is rtok gain --format json");
    deepStrictEqual(api.graph, graph, "and rtok gain --graph --format json");
    deepStrictEqual(api.sessions, sessions);
    deepStrictEqual(api.failures, failures);
    deepStrictEqual(api.callers, callers, "and rtok gain --by caller --format json");

    await using browser = await launch(`${tmp.path}/profile`);
    await browser.send({ op: "open", url: dash.url });
    const seen = await browser.send<Snapshot>({ op: "read" });
    const shown = seen.figures;
    deepStrictEqual(
      [shown.runs, shown.rawTokens, shown.emittedTokens, shown.savedTokens, shown.failures],
      [gain.runs, gain.rawTokens, gain.emittedTokens, gain.savedTokens, gain.failures],
    );
    strictEqual(shown.contextTokenTurns, gain.sessions.contextTokenTurns);
    strictEqual(shown.proxyRequests, gain.proxy.requests);
    strictEqual(shown.spentUsd, gain.money.spentUsd);

    deepStrictEqual(Object.keys(seen.families), gain.commands.map((c) => c.command));
    for (const c of gain.commands) {
      const row = seen.families[c.command];
      deepStrictEqual(
        [row.runs, row.rawTokens, row.emittedTokens, row.savedTokens, row.savedPct],
        [c.runs, c.rawTokens, c.emittedTokens, c.savedTokens, c.savedPct],
        c.command,
      );
    }
    for (const r of gain.expandRates) strictEqual(seen.families[r.family].expandRatePct, r.ratePct);
    deepStrictEqual(seen.days, graph.days.map((d) => [d.day, d.total]));
    deepStrictEqual(
      Object.entries(seen.sessions).map(([s, r]) => [s, r.contextTokenTurns]),
      sessions.map((s) => [s.session, s.contextTokenTurns]),
    );
    for (const m of gain.proxy.models) {
      const row = seen.models[`${m.provider}/${m.model}`];
      deepStrictEqual([row.inputTokens, row.cacheReadTokens], [m.inputTokens, m.cacheReadTokens]);
      const cost = gain.money.models.find((c) => c.model === m.model && c.provider === m.provider);
      strictEqual(row.spentUsd, cost!.spentUsd);
    }
    for (const f of failures) ok(seen.failureText.includes(f.error), seen.failureText);
    deepStrictEqual(callers.map((c) => c.caller), ["alice"]);
    strictEqual(seen.callers.alice.requests, callers[0].requests);
    strictEqual(seen.callers.alice.spentUsd, callers[0].spentUsd);

    // Markup in a command and a session id arrives as text, and runs nothing.
    ok(seen.historyText.includes(MARKUP), seen.historyText);
    strictEqual(seen.markup, 0);
    strictEqual(seen.pwned, undefined);

    // The page follows a new run without a reload.
    await browser.send({ op: "mark" });
    const r = await rtok(home, ["git", "status"], { cwd: lab });
    strictEqual(r.code, 0, r.err);
    await browser.send({ op: "waitRuns", n: shown.runs + 1 });
    const later = await browser.send<Snapshot>({ op: "read" });
    strictEqual(later.stayed, true, "the page was not reloaded");
    const after = await json(home, lab) as Gain;
    strictEqual(later.figures.runs, after.runs);
    strictEqual(later.figures.savedTokens, after.savedTokens);

    await browser.send({ op: "screenshot", path: SCREENSHOT });
    ok((await Deno.stat(SCREENSHOT)).size > 10_000, `a screenshot at ${SCREENSHOT}`);
    const { requests, errors } = await browser.send<{ requests: string[]; errors: string[] }>(
      { op: "close" },
    );
    deepStrictEqual(errors, [], "no console error");
    onlyLoopback(requests, origin);
    ok(requests.includes(`${origin}/api/gain`), "the page asked for the figures");
    ok(!requests.some((u) => u.includes("pwned")), "the markup fetched nothing");
  },
});

Deno.test({
  name:
    "rtok dashboard on an empty home says nothing yet, then counts a spooled run before and after it lands",
  ignore: CHROMIUM === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    using tmp = tempDir();
    const home = `${tmp.path}/home`;
    const lab = `${tmp.path}/lab`;
    await Deno.mkdir(lab);
    await buildLab(lab);
    await using dash = await startDashboard(home);
    await using browser = await launch(`${tmp.path}/profile`);
    await browser.send({ op: "open", url: dash.url });
    const first = await browser.send<Snapshot>({ op: "read" });
    // rtok gain's own words on an empty store (another home: this one must stay empty).
    const cli = await rtok(`${tmp.path}/other`, ["gain"]);
    strictEqual(cli.code, 0, cli.err);
    ok(first.nothingYet && cli.out.includes(first.nothingYet), `${first.nothingYet} / ${cli.out}`);
    ok(!first.status.includes("spool"), first.status);

    // A run waits in the spool (the default spool_kb): the page counts it in its figures
    // already; the next rtok gain moves it into the ledger, and the figures stay the same.
    strictEqual((await rtok(home, ["git", "log"], { cwd: lab })).code, 0);
    await browser.send({ op: "waitStatus", has: "1 run from the spool counted" });
    await browser.send({ op: "waitRuns", n: 1 });
    const spooled = await browser.send<Snapshot>({ op: "read" });
    strictEqual(spooled.nothingYet, null);
    strictEqual((await rtok(home, ["gain"], { cwd: lab })).code, 0);
    await browser.send({ op: "waitStatus", lacks: "spool" });
    const landed = await browser.send<Snapshot>({ op: "read" });
    strictEqual(landed.nothingYet, null);
    strictEqual(landed.figures.runs, spooled.figures.runs);

    const { requests, errors } = await browser.send<{ requests: string[]; errors: string[] }>(
      { op: "close" },
    );
    deepStrictEqual(errors, []);
    onlyLoopback(requests, dash.url.replace(/\/$/, ""));
  },
});

// The filter that throws, run by a third-party program built on rtok's module.
async function _throwingRun(home: string, cwd: string): Promise<void> {
  const r = await run(
    Deno.execPath(),
    [
      "run",
      ...RTOK_PERMS,
      new URL("./_throwing_filter.ts", import.meta.url).pathname,
      "seq",
      "1",
      "400",
    ],
    { cwd, env: { RTOK_HOME: home, DENO_DIR: await denoDir() } },
  );
  strictEqual(r.code, 0, r.err);
}
