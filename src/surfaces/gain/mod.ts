/**
 * `rtok gain`: what the ledger says was saved, as text, JSON or CSV.
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  type FailureRow,
  gainFailures,
  gainHistory,
  gainPeriods,
  gainSessions,
  type GainSummary,
  type HistoryRow,
  hookRows,
  type Period,
  type PeriodTotals,
  type SessionRow,
  untiedHookRows,
} from "../../plugins/measure/gain.ts";
import { absolutePath, defaultRoot } from "../_transcripts.ts";
import { EXPAND_RATE_LIMIT_PCT, type ExpandRate } from "../../plugins/measure/expand_rate.ts";
import { guardText } from "../../plugins/guard/report.ts";
import type { ProxyGain, StyleComparison } from "../../plugins/proxy/gain.ts";
import { formatUsd, type ProxyCost } from "../../plugins/proxy/cost.ts";
import { boot, drain, openStore } from "../_boot.ts";
import { gainGraph, renderGainGraph, useColor } from "../_gain_graph.ts";
import {
  type CallerGain,
  type FamilyRefetch,
  gainByCaller,
  gainJson,
  gainReport,
  NOTHING_YET,
} from "../_gain_report.ts";
import { wholeNumber } from "../_flags.ts";
import { print, warn } from "../_io.ts";

/** `rtok gain --help`. */
export const GAIN_HELP = `rtok gain: token savings recorded in the ledger (estimates, by text class)

Usage: rtok gain [--project] [--history [--limit N] | --daily | --weekly | --monthly | --failures
                 | --graph | --sessions [--limit N] | --by caller] [--format text|json|csv]

  --project     only runs in the current directory and below
  --history     the newest runs, one per line (--limit N, default 20)
  --daily       totals per day; --weekly per week; --monthly per month
  --failures    filters that threw (their raw output went out instead)
  --graph       the last 30 days as a chart: per day stacked by surface, and per family
  --sessions    the newest agent sessions with their context-token-turns (--limit N)
  --verify      the hook's rows checked against Claude Code's transcripts (--transcripts
                DIR, default ~/.claude/projects): verified when the transcript shows the
                model got rtok's view (its pointer id), not applied when it shows the raw
                output; the verified share
  --by caller   the proxy's requests, usage, savings and dollars per caller (its
                x-rtok-caller name, or key- and a salted hash of its provider key)
  --format      text (default), json or csv

A hook answer the host gave up on before it arrived (past the hook's timeout) saved
nothing: its row is left out of every figure and counted on a line of its own.

The summary ends with the expand rate of each filter that cut something: the share
of its cut outputs asked for again in full; above 5 % it is marked "too aggressive?".

Where the proxy recorded usage, the summary prices it: what was spent (the providers'
token counts × list prices, real) and what the compressed tool results would have cost
more sent raw (estimated). The built-in prices carry their source and date; set your own
per model in config.toml (a model without a price shows its tokens, its cost unknown):

  [plugins.proxy.prices.claude-sonnet-4-5]    # or any name, with model = "gpt-4.1"
  input = 3.0        # US dollars per million tokens; also output, cache_write, cache_read

The numbers cover what the tools printed after rtok's stage-1 shaping (asking the tool
for less); what stage 1 saved before the tool printed is not in them.
`;

/** Runs `rtok gain`; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      project: { type: "boolean" },
      history: { type: "boolean" },
      limit: { type: "string" },
      daily: { type: "boolean" },
      weekly: { type: "boolean" },
      monthly: { type: "boolean" },
      failures: { type: "boolean" },
      graph: { type: "boolean" },
      sessions: { type: "boolean" },
      verify: { type: "boolean" },
      transcripts: { type: "string" },
      by: { type: "string" },
      format: { type: "string", default: "text" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    await print(GAIN_HELP);
    return 0;
  }
  const format = values.format;
  if (format !== "text" && format !== "json" && format !== "csv") {
    throw new TypeError(`--format "${format}": expected text, json or csv`);
  }
  const limit = wholeNumber("--limit", values.limit ?? "20", 1);
  const periods = (["daily", "weekly", "monthly"] as const).filter((p) => values[p]);
  const views = [
    values.history,
    values.failures,
    values.graph,
    values.sessions,
    values.verify,
    values.by !== undefined,
    periods.length > 0,
  ]
    .filter(Boolean).length;
  if (periods.length > 1 || views > 1) {
    throw new TypeError(
      "choose one of --history, --daily, --weekly, --monthly, --failures, --graph, --sessions, " +
        "--verify, --by",
    );
  }
  if (values.by !== undefined && values.by !== "caller") {
    throw new TypeError(`--by "${values.by}": expected caller`);
  }
  const b = await boot();
  const store = await openStore(b);
  if (!store) throw new Error("the ledger cannot be read (see the line above)");
  await drain(b, store);
  const scope = { project: values.project ? Deno.cwd() : null };
  try {
    if (values.graph) {
      const g = gainGraph(store, scope);
      await print(
        format === "text"
          ? renderGainGraph(g, { width: _columns(), color: useColor() })
          : format === "json"
          ? JSON.stringify(g, null, 2) + "\n"
          : csv(g.days),
      );
    } else if (values.by === "caller") {
      const rows = gainByCaller(store, b.home, b.config, warn);
      await print(render(format, rows, callersText));
    } else if (values.history) {
      await print(render(format, gainHistory(store, scope, limit), historyText));
    } else if (values.sessions) {
      await print(render(format, gainSessions(store, scope, limit), sessionsText));
    } else if (values.verify) {
      const { verifyHookRows, verifyText } = await import("./verify.ts");
      const { findArchived, readArchived } = await import("../../plugins/archive/archive.ts");
      const raw = async (id: string) => {
        try {
          const bytes = await readArchived(b.home ?? "", findArchived(store, id, b.home ?? ""));
          return new TextDecoder().decode(bytes);
        } catch {
          return null;
        }
      };
      const root = values.transcripts ? absolutePath(values.transcripts) : defaultRoot();
      const r = await verifyHookRows(
        hookRows(store, scope),
        untiedHookRows(store, scope),
        root,
        raw,
      );
      await print(format === "json" ? JSON.stringify(r, null, 2) + "\n" : verifyText(r));
    } else if (values.failures) {
      await print(render(format, gainFailures(store, limit), failuresText));
    } else if (periods.length) {
      const rows = gainPeriods(store, scope, periods[0] as Period);
      await print(render(format, rows, (r) => periodsText(r, periods[0] as Period)));
    } else {
      const r = gainReport(store, scope, b.home, b.config, warn);
      await print(
        format === "text"
          ? summaryText(r.summary) + expandRateText(r.rates, r.refetches) +
            servedRawText(r.raw) + proxyText(r.proxy) + (r.money ? moneyText(r.money) : "") +
            styleText(r.style) + guardText(r.guard)
          : format === "json"
          ? JSON.stringify(gainJson(r), null, 2) + "\n"
          : csv(withExpandRates(r.summary.commands, r.rates)),
      );
    }
  } finally {
    store.close();
  }
  return 0;
}

// The graph's width: 80 columns, fewer on a narrower terminal.
function _columns(): number {
  try {
    return Deno.stdout.isTerminal() ? Math.min(80, Deno.consoleSize().columns) : 80;
  } catch {
    return 80;
  }
}

// One line per caller: what went through the proxy, what compression saved, the dollars.
function callersText(rows: readonly CallerGain[]): string {
  if (rows.length === 0) return "no proxy request in the ledger yet\n";
  const usd = (v: number | null) => v === null ? "unknown" : formatUsd(v);
  const table = [
    ["caller", "requests", "errors", "in", "out", "compressed", "tokens saved", "spent", "saved"],
    ...rows.map((r) => [
      r.caller || "(none)",
      String(r.requests),
      String(r.errors),
      human(r.inputTokens),
      human(r.outputTokens),
      String(r.resultsCompressed),
      human(r.estimatedTokensSaved),
      usd(r.spentUsd),
      usd(r.savedUsd),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const lines = table.map((row) =>
    row.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ")
      .trimEnd()
  );
  return [
    "proxy · by caller · tokens as the providers reported them; saved tokens and dollars estimated",
    "",
    ...lines,
    "",
  ].join("\n");
}

// Money, apart from the tokens: spent is real usage at list prices; the raw figure an estimate.
function moneyText(c: ProxyCost): string {
  if (c.models.length === 0) return "";
  const unpriced = c.unpriced.map((m) => m || "(no model named)");
  return [
    "",
    "money · proxy requests · US dollars at list prices",
    "",
    ...c.sources.map((s, i) =>
      `${i ? "        " : "prices  "} ${s.provider}${
        s.asOf ? `, as of ${s.asOf}` : ""
      }: ${s.source}`
    ),
    c.spentUsd === null
      ? "spent    unknown (no model above has a price)"
      : `spent    ${formatUsd(c.spentUsd)} (real usage × list prices${
        unpriced.length ? "; the priced models only" : ""
      })`,
    c.savedUsd === null
      ? "raw      unknown more had the compressed results gone raw"
      : `raw      ${formatUsd(c.savedUsd)} more had the compressed results gone raw (estimated${
        unpriced.length ? "; the priced models only" : ""
      })`,
    ...(unpriced.length
      ? [
        `no price for ${unpriced.join(", ")}: its tokens are above, its cost unknown`,
        "         (set one with [plugins.proxy.prices.<name>] in config.toml; rtok gain --help)",
      ]
      : []),
    "",
  ].join("\n") + "\n" + table(
    ["provider", "model", "requests", "spent", "saved tok", "re-sent tok", "saved", "price"],
    c.models.map((m) => [
      m.provider,
      m.model || "-",
      String(m.requests),
      m.spentUsd === null ? "unknown" : formatUsd(m.spentUsd),
      human(m.savedInputTokens),
      human(m.savedCacheReadTokens),
      m.savedUsd === null ? "unknown" : formatUsd(m.savedUsd),
      m.priceFrom ?? "-",
    ]),
    2,
  );
}

function render<T extends object>(
  format: "text" | "json" | "csv",
  rows: readonly T[],
  text: (rows: readonly T[]) => string,
): string {
  if (format === "json") return JSON.stringify(rows, null, 2) + "\n";
  if (format === "csv") return csv(rows);
  return text(rows);
}

/** Compact counts: 950, 12.3K, 4.1M. */
function human(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  if (abs < 1_000_000) return `${(n / 1000).toFixed(1)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function ms(n: number): string {
  return n < 1000 ? `${Math.round(n)}ms` : `${(n / 1000).toFixed(1)}s`;
}

// The first `left` columns are text, left-aligned; the rest are numbers.
function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  left = 1,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** The summary as text. */
function summaryText(s: GainSummary): string {
  const scope = s.project ? `project ${s.project}` : "all projects";
  const avg = s.runs ? s.elapsedMs / s.runs : 0;
  const head = [
    `rtok gain · ${scope} · estimated tokens`,
    "",
    `runs     ${s.runs}  (${s.filtered} filtered, ${s.passedThrough} passed through, ${s.lossy} cut and archived)`,
    `in       ${human(s.rawTokens)} tokens printed by the tools`,
    `out      ${human(s.emittedTokens)} tokens emitted by rtok`,
    `saved    ${human(s.savedTokens)} tokens (${s.savedPct.toFixed(1)}%)`,
    `time     ${ms(s.elapsedMs)} in all, ${ms(avg)} per run`,
    ...(s.sessions.toolCalls
      ? [
        `sessions ${s.sessions.sessions} (${s.sessions.toolCalls} tool calls seen by the hook; ` +
        `${s.sessions.runs} runs tied to one)`,
        `turns    ${human(s.sessions.contextTokenTurns)} context-token-turns saved ` +
        "(tokens saved × the requests that would have re-sent them)",
      ]
      : []),
    ...(s.hosts.length
      ? [
        `hosts    ${
          s.hosts.map((h) => `${h.host} ${h.runs} runs, ${human(h.savedTokens)} saved`).join("; ")
        }`,
      ]
      : []),
    ...(s.failures ? [`failures ${s.failures} (rtok gain --failures)`] : []),
    ...(s.undelivered.runs
      ? [
        `lost     ${s.undelivered.runs} hook ${
          s.undelivered.runs === 1 ? "answer" : "answers"
        } the host gave up on before ${s.undelivered.runs === 1 ? "it" : "they"} arrived (${
          human(s.undelivered.savedTokens)
        } tokens not saved; left out of every figure above)`,
      ]
      : []),
    "",
  ].join("\n") + "\n";
  if (s.commands.length === 0) return head + NOTHING_YET + "\n";
  return head + table(
    ["command", "runs", "in", "out", "saved", "saved%", "avg"],
    s.commands.map((c) => [
      c.command,
      String(c.runs),
      human(c.rawTokens),
      human(c.emittedTokens),
      human(c.savedTokens),
      `${c.savedPct.toFixed(1)}%`,
      ms(c.runs ? c.elapsedMs / c.runs : 0),
    ]),
  );
}

// The expand rate, a section of its own: lossy filters only, the too-aggressive ones marked.
function expandRateText(
  rates: readonly ExpandRate[],
  refetches: readonly FamilyRefetch[] = [],
): string {
  if (rates.length === 0) return "";
  const flagged = rates.filter((r) => r.flagged).length;
  const re = new Map(refetches.map((r) => [r.family, r]));
  return "\nexpand rate: lossy outputs asked for again (rtok expand, MCP, or read from the archive);\n" +
    "re-fetch rate: lossy outputs expanded or run again wider within 3 runs (since a reset)\n" +
    table(
      ["filter", "lossy", "expands", "rate", "re-fetched", "rate", ""],
      rates.map((r) => [
        r.family,
        String(r.lossyRuns),
        String(r.expands),
        `${r.ratePct.toFixed(1)}%`,
        String(re.get(r.family)?.refetched ?? 0),
        `${(re.get(r.family)?.ratePct ?? 0).toFixed(1)}%`,
        r.flagged ? "too aggressive?" : "",
      ]),
      1,
    ) +
    (flagged
      ? `${flagged} filter${flagged === 1 ? "" : "s"} above ${EXPAND_RATE_LIMIT_PCT}%: ` +
        "agents often need what they cut\n"
      : "");
}

// CSV rows of the per-command table with each family's expand figures (blank when not lossy).
function withExpandRates(
  commands: readonly object[],
  rates: readonly ExpandRate[],
): object[] {
  const by = new Map(rates.map((r) => [r.family, r]));
  return commands.map((c) => {
    const r = by.get((c as { command: string }).command);
    return {
      ...c,
      lossyRuns: r?.lossyRuns ?? "",
      expands: r?.expands ?? "",
      expandRatePct: r?.ratePct ?? "",
      tooAggressive: r ? r.flagged : "",
    };
  });
}

// The proxy's figures: the providers' own token counts, never mixed with the estimates above.
function proxyText(p: ProxyGain): string {
  if (p.requests === 0) return "";
  const pct = p.charsSeen ? (p.charsSaved / p.charsSeen * 100).toFixed(1) : "0.0";
  return [
    "",
    "proxy · all projects · tokens as the providers reported them",
    "",
    `requests ${p.requests}${p.errors ? ` (${p.errors} errors)` : ""}`,
    `results  ${p.resultsCompressed} of ${p.resultsSeen} tool results compressed; ` +
    `${human(p.charsSaved)} of ${human(p.charsSeen)} chars cut (${pct}%), ` +
    `~${human(p.estimatedTokensSaved)} tokens (estimated)`,
    "",
  ].join("\n") + "\n" + (p.models.length
    ? table(
      ["provider", "model", "requests", "input", "output", "cache write", "cache read"],
      p.models.map((m) => [
        m.provider,
        m.model || "-",
        String(m.requests),
        human(m.inputTokens),
        human(m.outputTokens),
        human(m.cacheWriteTokens),
        human(m.cacheReadTokens),
      ]),
      2,
    )
    : "");
}

// The families rtok serves raw, per project, and how to take each back.
function servedRawText(
  raw: readonly { project: string; family: string; ratePct: number }[],
): string {
  if (raw.length === 0) return "";
  return "\nserved raw (agents fetched again too much of what the filter cut):\n" +
    raw.map((r) =>
      `  ${r.family} in ${r.project}: re-fetch rate ${r.ratePct.toFixed(1)}%; ` +
      `rtok filters reset ${r.family} (in that directory) filters it again\n`
    ).join("");
}

// The style holdout: output tokens per request in each arm, and what that shows, if anything.
function styleText(s: StyleComparison): string {
  if (s.arms.every((a) => a.requests === 0)) return "";
  return [
    "",
    "style holdout · output tokens per request as the providers reported them",
    "",
    ...s.arms.map((a) =>
      `${a.arm.padEnd(8)} ${a.requests} requests, mean ${a.meanOutputTokens} ` +
      `(95 % interval ${a.low95} to ${a.high95})`
    ),
    s.verdict,
    "",
  ].join("\n");
}

function historyText(rows: readonly HistoryRow[]): string {
  if (rows.length === 0) return "No runs recorded yet.\n";
  return table(
    ["time (UTC)", "command", "in", "out", "stage", "archive", "exit"],
    rows.map((r) => [
      r.time.slice(0, 19).replace("T", " "),
      r.command.length > 48 ? r.command.slice(0, 47) + "…" : r.command,
      human(r.rawTokens),
      human(r.emittedTokens),
      r.passthrough ? "passthrough" : r.stage,
      r.archiveId ?? "",
      // Only a command rtok ran can have died by a signal; a hook's or the proxy's run has no
      // exit code of its own.
      r.exitCode !== null ? String(r.exitCode) : r.surface === "cli" ? "signal" : "-",
    ]),
    2,
  );
}

function periodsText(rows: readonly PeriodTotals[], period: Period): string {
  if (rows.length === 0) return "No runs recorded yet.\n";
  return table(
    [
      period === "daily" ? "day" : period === "weekly" ? "week" : "month",
      "runs",
      "in",
      "out",
      "saved",
      "saved%",
    ],
    rows.map((r) => [
      r.period,
      String(r.runs),
      human(r.rawTokens),
      human(r.emittedTokens),
      human(r.savedTokens),
      `${r.savedPct.toFixed(1)}%`,
    ]),
  );
}

function sessionsText(rows: readonly SessionRow[]): string {
  if (rows.length === 0) {
    return "No agent sessions recorded yet: the hook records them (rtok init).\n";
  }
  return "context-token-turns: tokens saved × the session's tool calls from that run on\n" +
    table(
      ["last (UTC)", "session", "host", "calls", "runs", "saved", "token-turns"],
      rows.map((r) => [
        r.last.slice(0, 19).replace("T", " "),
        r.session,
        r.host ?? "-",
        String(r.toolCalls),
        String(r.runs),
        human(r.savedTokens),
        human(r.contextTokenTurns),
      ]),
      3,
    );
}

function failuresText(rows: readonly FailureRow[]): string {
  if (rows.length === 0) return "No filter failures recorded.\n";
  return rows.map((r) =>
    `${r.time.slice(0, 19).replace("T", " ")}  ${r.family}  ${r.command}\n  ${r.error}\n`
  ).join("");
}

/** Rows as CSV with a header line; fields quoted where needed. */
function csv(rows: readonly object[]): string {
  if (rows.length === 0) return "";
  const keys = Object.keys(rows[0]);
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? "" : String(v);
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [
    keys.join(","),
    ...rows.map((r) => keys.map((k) => cell((r as Record<string, unknown>)[k])).join(",")),
  ]
    .join("\n") + "\n";
}
