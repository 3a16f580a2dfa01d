import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { prng } from "../../tests/_prng.ts";
import { estimate } from "../core/tokens.ts";
import {
  compressLog,
  isLog,
  levelOf,
  LOG_HEAD_LINES,
  LOG_TAIL_LINES,
  type LogLevel,
} from "./log_levels.ts";

// One line of a generated log, with the level it was written at (null: a continuation line).
interface GenLine {
  readonly text: string;
  readonly level: LogLevel | null;
}

type Format = (ts: string, level: LogLevel, msg: string, i: number) => string;

const FORMATS: Record<string, Format> = {
  "log4j": (ts, l, msg) => `${ts} ${l.padEnd(5)} [main] com.acme.Service - ${msg}`,
  "bracketed": (ts, l, msg) => `[${ts}] [${l.toLowerCase()}] ${msg}`,
  "logfmt": (ts, l, msg) => `ts=${ts} level=${l.toLowerCase()} msg="${msg}" component=api`,
  "pino JSON": (_ts, l, msg, i) =>
    JSON.stringify({
      level: { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50, FATAL: 60 }[l as string],
      time: 1714557600000 + i,
      pid: 4242,
      msg,
    }),
  "JSON with a level name": (ts, l, msg) =>
    JSON.stringify({ ts, msg, "log.level": l.toLowerCase(), svc: "billing" }),
  "python logging": (ts, l, msg) =>
    `${ts.replace("T", " ").slice(0, 19)},123 - worker - ${l === "WARN" ? "WARNING" : l} - ${msg}`,
  "glog": (_ts, l, msg, i) =>
    `${l[0]}0501 10:${String(i % 60).padStart(2, "0")}:00.123456    4242 server.go:${
      100 + (i % 50)
    }] ${msg}`,
};

const MESSAGES = [
  "GET /api/v1/orders/{id} 200 12ms",
  "cache hit for key user:1234",
  "processed batch of 50 events",
  "connection pool size=20 idle=18",
];

// A log of `n` entries at mostly INFO and DEBUG, a few WARN and ERROR (errors with a stack
// trace under them), so what must be kept is known without reading it back.
function generate(n: number, format: Format, seed: number): GenLine[] {
  const rand = prng(seed);
  const out: GenLine[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    const level: LogLevel = r < 0.01 ? "ERROR" : r < 0.03 ? "WARN" : r < 0.75 ? "INFO" : "DEBUG";
    const ts = `2024-05-01T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
      String(i % 60).padStart(2, "0")
    }.${String(i % 1000).padStart(3, "0")}Z`;
    const msg = level === "ERROR"
      ? `request ${i} failed: ECONNRESET upstream=payments-7f9c`
      : level === "WARN"
      ? `slow query took ${900 + i}ms on orders_${i % 7}`
      : MESSAGES[i % MESSAGES.length];
    out.push({ text: format(ts, level, msg, i), level });
    if (level === "ERROR" && format === FORMATS.log4j) {
      for (const frame of ["at com.acme.Client.send(Client.java:88)", "at com.acme.Service.run"]) {
        out.push({ text: `\t${frame}`, level: null });
      }
      out.push({ text: "Caused by: java.net.SocketException: Connection reset", level: null });
    }
  }
  return out;
}

const text = (lines: readonly GenLine[]) => lines.map((l) => l.text).join("\n") + "\n";

Deno.test("levelOf() reads the level of each log format", async (t) => {
  const cases: [string, LogLevel | null][] = [
    ["2024-05-01 10:00:00.123 ERROR [main] c.a.Service - boom", "ERROR"],
    ["2024-05-01 10:00:00 WARNING: disk at 91%", "WARN"],
    ["[2024-05-01T10:00:00Z INFO  my_crate::server] listening on :8080", "INFO"],
    ["[2024-05-01 10:00:00] [warn] deprecated option", "WARN"],
    ["<error> something", "ERROR"],
    ["ts=2024-05-01 level=debug msg=x", "DEBUG"],
    ['time="2024" level="warning" msg="x"', "WARN"],
    ['{"level":50,"time":1,"msg":"x"}', "ERROR"],
    ['{"msg":"' + "m".repeat(500) + '","level":"fatal"}', "FATAL"],
    ['{"severity":"CRITICAL","message":"x"}', "CRITICAL"],
    ["<11>May  1 10:00:00 host app[1]: failed", "ERROR"],
    ["<14>May  1 10:00:00 host app[1]: ok", "INFO"],
    ["E0501 10:00:00.123456    4242 server.go:12] boom", "ERROR"],
    ["05-01 10:00:00.123  1234  5678 W ActivityManager: slow", "WARN"],
    ["ERROR:root:division by zero", "ERROR"],
    ["2024-05-01 10:00:00,123 - worker - CRITICAL - out of memory", "CRITICAL"],
    ["info: server started", "INFO"],
    ["12 silly config load:file:/usr/lib/node_modules/npm/npmrc", "TRACE"],
    ["30 error A complete log of this run can be found in: x.log", "ERROR"],
    ["SEVERE: Servlet.service() threw exception", "ERROR"],
    ["2024-05-01 10:00:00 INFO retrying after ERROR from upstream", "INFO"],
    ["an error occurred while reading the file", null],
    ["    at Object.<anonymous> (index.js:1:1)", null],
    ["Information is power", null],
    ["", null],
  ];
  for (const [line, want] of cases) {
    await t.step(line.slice(0, 60) || "(empty)", () => strictEqual(levelOf(line), want));
  }
});

Deno.test("isLog() wants a clear majority of lines with a level", async (t) => {
  const cases: [string, string, boolean][] = [
    ["log4j with stack traces", text(generate(200, FORMATS.log4j, 1)), true],
    ["pino JSON lines", text(generate(50, FORMATS["pino JSON"], 2)), true],
    [
      "prose",
      "The quick brown fox.\nAn error is not a level.\nInfo desk is left.\n".repeat(20),
      false,
    ],
    ["a diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n".repeat(20), false],
    [
      "half the lines leveled",
      Array.from({ length: 40 }, (_, i) => (i % 2 ? `INFO step ${i}` : `step ${i} done`)).join(
        "\n",
      ),
      false,
    ],
    ["two leveled lines", "ERROR one\nWARN two\n", false],
    ["empty", "", false],
    ["CRLF", text(generate(100, FORMATS.logfmt, 3)).replaceAll("\n", "\r\n"), true],
  ];
  for (const [name, input, want] of cases) {
    await t.step(name, () => strictEqual(isLog(input), want));
  }
});

// Every `L<n>: <line>` of `out` must be input line n exactly; returns the numbers it shows.
function checkNumbered(out: string, lines: readonly GenLine[]): Set<number> {
  const shown = new Set<number>();
  for (const m of out.matchAll(/^L(\d+): (.*)$/gm)) {
    const n = Number(m[1]);
    strictEqual(m[2], lines[n - 1].text, `L${n}`);
    shown.add(n);
  }
  return shown;
}

Deno.test("compressLog() keeps every ERROR and WARN line whole with its true line number", async (t) => {
  for (const [name, format] of Object.entries(FORMATS)) {
    await t.step(name, () => {
      const lines = generate(3000, format, 11);
      const r = compressLog(text(lines));
      ok(r, "compressed");
      const outLines = r.text.split("\n");
      const shown = checkNumbered(r.text, lines);
      let severe = 0;
      lines.forEach((l, i) => {
        if (l.level !== "ERROR" && l.level !== "WARN") return;
        severe++;
        ok(shown.has(i + 1), `line ${i + 1} (${l.level}) kept with its number`);
        // Its continuation lines follow it, in order.
        const at = outLines.indexOf(`L${i + 1}: ${l.text}`);
        for (let j = i + 1; j < lines.length && lines[j].level === null; j++) {
          strictEqual(outLines[at + (j - i)], lines[j].text);
        }
      });
      ok(severe > 30, `${severe} WARN and ERROR lines`);
    });
  }
});

Deno.test("compressLog() counts match an independent count, and so do the cut phrases", () => {
  const lines = generate(5000, FORMATS.log4j, 21);
  const r = compressLog(text(lines));
  ok(r);
  const all = new Map<string, number>();
  for (const l of lines) all.set(l.level ?? "none", (all.get(l.level ?? "none") ?? 0) + 1);
  const fmt = (c: number) => c.toLocaleString("en-US");
  const want = ["ERROR", "WARN", "INFO", "DEBUG"].map((l) => `${fmt(all.get(l)!)} ${l}`);
  strictEqual(
    r.text.split("\n")[0],
    `${fmt(lines.length)} lines: ${want.join(", ")}, ${fmt(all.get("none")!)} without a level`,
  );
  // Cut: the INFO and DEBUG lines outside the head and the tail; nothing else.
  const middle = lines.slice(LOG_HEAD_LINES, lines.length - LOG_TAIL_LINES);
  const cutInfo = middle.filter((l) => l.level === "INFO").length;
  const cutDebug = middle.filter((l) => l.level === "DEBUG").length;
  deepStrictEqual(r.cut, [`${fmt(cutInfo)} INFO lines`, `${fmt(cutDebug)} DEBUG lines`]);
  // The gap lines add up to the same.
  let gaps = 0;
  for (const m of r.text.matchAll(/^… ([\d,]+) lines? cut: /gm)) {
    gaps += Number(m[1].replaceAll(",", ""));
  }
  strictEqual(gaps, cutInfo + cutDebug);
  // The first and last lines are there.
  const shown = checkNumbered(r.text, lines);
  for (let i = 1; i <= LOG_HEAD_LINES; i++) ok(shown.has(i) || lines[i - 1].level === null);
  ok(r.text.trimEnd().endsWith(lines.at(-1)!.text));
});

Deno.test("compressLog() is strictly smaller on realistic logs, in chars and tokens", async (t) => {
  for (const [name, format] of Object.entries(FORMATS)) {
    await t.step(name, () => {
      const input = text(generate(2000, format, 31));
      const r = compressLog(input);
      ok(r);
      ok(r.text.length < input.length / 4, `${r.text.length} of ${input.length}`);
      ok(estimate(r.text, "log") < estimate(input, "log"));
    });
  }
});

Deno.test("compressLog() reads CRLF logs as their LF twins", () => {
  const lf = text(generate(1000, FORMATS.bracketed, 41));
  const crlf = lf.replaceAll("\n", "\r\n");
  const a = compressLog(lf);
  ok(a);
  deepStrictEqual(compressLog(crlf), a);
});

Deno.test("compressLog() returns null for what it cannot help, and never throws", async (t) => {
  const cases: Record<string, string> = {
    "empty": "",
    "not a log": "just some prose\n".repeat(500),
    "a huge single line": "ERROR " + "x".repeat(1_000_000),
    "a short log: nothing to cut": text(generate(15, FORMATS.log4j, 51)),
    "only errors: nothing to cut": Array.from({ length: 300 }, (_, i) => `ERROR fail ${i}`).join(
      "\n",
    ),
    "binary-ish noise": "\u0000\u0001\u0002ERROR\u0003\n".repeat(3),
  };
  for (const [name, input] of Object.entries(cases)) {
    await t.step(name, () => strictEqual(compressLog(input), null));
  }
});

Deno.test("compressLog() gives the same bytes for the same text, every time", () => {
  const input = text(generate(3000, FORMATS["pino JSON"], 61));
  deepStrictEqual(compressLog(input), compressLog(input));
});
