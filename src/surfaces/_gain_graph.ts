/**
 * `rtok gain --graph`: the last 30 days of estimated tokens saved, one bar per day stacked by
 * surface (a terminal's `rtok <cmd>`, the agent hook, MCP, the proxy), and one bar per family.
 * The renderer is pure (data, width, colour in; text out) so its output can be held to goldens;
 * without colour the surfaces are told apart by their glyphs alone.
 *
 * @module
 */

import type { Store } from "../core/store.ts";
import { savedByDay } from "../plugins/measure/gain.ts";
import { proxySavedByDay } from "../plugins/proxy/gain.ts";

/** Days the graph covers, today included. */
export const GRAPH_DAYS = 30;

/** The surfaces a bar is stacked from, bottom of the stack first. */
export const GRAPH_SURFACES: readonly GraphSurface[] = ["cli", "hook", "mcp", "proxy"];

/** A surface that saves tokens. */
export type GraphSurface = "cli" | "hook" | "mcp" | "proxy";

/** Estimated tokens saved per surface. */
export type SurfaceTokens = { readonly [S in GraphSurface]: number };

/** One day's savings. */
export interface GraphDay extends SurfaceTokens {
  /** The local date, `YYYY-MM-DD`. */
  readonly day: string;
  /** Σ over the surfaces. */
  readonly total: number;
}

/** One family's savings over the window. */
export interface GraphFamily extends SurfaceTokens {
  /** `git log`, `grep`; for the proxy, the content filter (`json`, `text`). */
  readonly family: string;
  /** Σ over the surfaces. */
  readonly total: number;
}

/** The graph's data: also what `--graph --format json` prints. */
export interface GainGraph {
  /** The figures are rtok's estimates (by text class), not providers' counts. */
  readonly estimated: true;
  /** The project subtree, or `null` for all projects (the proxy's rows have no project). */
  readonly project: string | null;
  /** The first day, `YYYY-MM-DD`. */
  readonly from: string;
  /** The last day (today), `YYYY-MM-DD`. */
  readonly to: string;
  /** Every day of the window, oldest first, days with nothing included. */
  readonly days: readonly GraphDay[];
  /** Every family that saved or cost something in the window, most saved first. */
  readonly families: readonly GraphFamily[];
}

/** How the graph is drawn. */
export interface GraphOptions {
  /** Columns, at least 40. */
  readonly width: number;
  /** ANSI colours; otherwise glyphs only. */
  readonly color: boolean;
}

/** Families drawn; the rest are counted in one line. */
export const GRAPH_FAMILIES = 10;

const _GLYPH: Record<GraphSurface, string> = { cli: "█", hook: "▓", mcp: "▒", proxy: "░" };
const _COLOR: Record<GraphSurface, string> = {
  cli: "\x1b[36m",
  hook: "\x1b[32m",
  mcp: "\x1b[35m",
  proxy: "\x1b[33m",
};
const _RESET = "\x1b[0m";
const _LABEL: Record<GraphSurface, string> = {
  cli: "cli",
  hook: "hook (PostToolUse)",
  mcp: "mcp",
  proxy: "proxy",
};

/** Colour only on a terminal, and never with `NO_COLOR` set (read by Deno, no env permission). */
export function useColor(): boolean {
  return Deno.stdout.isTerminal() && !Deno.noColor;
}

/** The window's savings from the ledger: `runs` by surface and family, the proxy's results. */
export function gainGraph(
  store: Store,
  scope: { readonly project: string | null },
  now: Date = new Date(),
): GainGraph {
  const days = Array.from(
    { length: GRAPH_DAYS },
    (_, i) =>
      _localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - (GRAPH_DAYS - 1 - i))),
  );
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (GRAPH_DAYS - 1))
    .getTime();
  const byDay = new Map(days.map((d) => [d, _zero()]));
  const byFamily = new Map<string, Record<GraphSurface, number>>();
  const add = (day: string, family: string, surface: string, saved: number) => {
    if (!(GRAPH_SURFACES as readonly string[]).includes(surface)) return;
    const s = surface as GraphSurface;
    const d = byDay.get(day);
    if (!d) return; // past midnight after `now`: tomorrow is not drawn
    d[s] += saved;
    const f = byFamily.get(family) ?? _zero();
    f[s] += saved;
    byFamily.set(family, f);
  };
  for (const r of savedByDay(store, scope, start)) add(r.day, r.family, r.surface, r.saved);
  if (scope.project === null) {
    for (const r of proxySavedByDay(store, start)) add(r.day, r.family, "proxy", r.saved);
  }
  return {
    estimated: true,
    project: scope.project,
    from: days[0],
    to: days[days.length - 1],
    days: days.map((d) => ({ day: d, ...byDay.get(d)!, total: _sum(byDay.get(d)!) })),
    families: [...byFamily].map(([family, s]) => ({ family, ...s, total: _sum(s) }))
      .filter((f) => GRAPH_SURFACES.some((s) => f[s] !== 0))
      .sort((a, b) => b.total - a.total || a.family.localeCompare(b.family)),
  };
}

/** The graph as text, at most `opts.width` columns a line. */
export function renderGainGraph(g: GainGraph, opts: GraphOptions): string {
  const width = Math.max(40, opts.width);
  const scope = g.project ? `project ${g.project} (proxy not included)` : "all projects";
  const head = _wrap(`tokens saved (estimated), ${g.from} to ${g.to} · ${scope}`, width);
  if (!g.days.some((d) => GRAPH_SURFACES.some((s) => d[s] !== 0))) {
    return head + "\n" + _wrap(
      `Nothing saved in the last ${GRAPH_DAYS} days yet. Start with \`rtok git status\` in a ` +
        "terminal, `rtok init` to install your agent's hook, or `rtok proxy` in front of the " +
        "API; then `rtok gain --graph` again.",
      width,
    );
  }
  const legend = GRAPH_SURFACES.map((s) => `${_paint(s, 1, opts.color)} ${_LABEL[s]}`).join("  ");
  const valueWidth = 7;
  const dayBar = width - 7 - 1 - valueWidth; // "12-04 │" + bar + " " + value
  const dayMax = Math.max(0, ...g.days.map(_positive));
  const lines = [head.trimEnd(), "", legend, ""];
  for (const d of g.days) {
    lines.push(_row(d.day.slice(5), 5, d, dayMax, dayBar, valueWidth, opts.color));
  }
  lines.push(`${" ".repeat(5)} └ one full bar is ${_human(dayMax)} tokens in a day`);
  if (g.families.length) {
    const shown = g.families.slice(0, GRAPH_FAMILIES);
    const nameWidth = Math.min(16, Math.max(6, ...shown.map((f) => f.family.length)));
    const famBar = width - nameWidth - 2 - 1 - valueWidth;
    const famMax = Math.max(0, ...shown.map(_positive));
    lines.push("", `by family, last ${GRAPH_DAYS} days`, "");
    for (const f of shown) {
      const name = f.family.length > nameWidth ? f.family.slice(0, nameWidth - 1) + "…" : f.family;
      lines.push(_row(name, nameWidth, f, famMax, famBar, valueWidth, opts.color));
    }
    const rest = g.families.length - shown.length;
    if (rest > 0) lines.push(`… and ${rest} more famil${rest === 1 ? "y" : "ies"} (rtok gain)`);
  }
  return lines.join("\n") + "\n";
}

// One labelled bar: the surfaces stacked in order, each segment ending where its running sum
// rounds to, so the segments always add up to the whole bar.
function _row(
  label: string,
  labelWidth: number,
  v: SurfaceTokens & { readonly total: number },
  max: number,
  barWidth: number,
  valueWidth: number,
  color: boolean,
): string {
  let bar = "";
  let used = 0;
  let sum = 0;
  for (const s of GRAPH_SURFACES) {
    sum += Math.max(0, v[s]);
    const end = max > 0 ? Math.round((sum / max) * barWidth) : 0;
    bar += _paint(s, end - used, color);
    used = end;
  }
  const value = v.total === 0 && used === 0 ? "" : _human(v.total).padStart(valueWidth);
  return `${label.padEnd(labelWidth)} │${bar}${" ".repeat(barWidth - used)} ${value}`.trimEnd();
}

function _paint(s: GraphSurface, n: number, color: boolean): string {
  if (n <= 0) return "";
  return color ? `${_COLOR[s]}${"█".repeat(n)}${_RESET}` : _GLYPH[s].repeat(n);
}

function _positive(v: SurfaceTokens): number {
  return GRAPH_SURFACES.reduce((a, s) => a + Math.max(0, v[s]), 0);
}

function _sum(v: SurfaceTokens): number {
  return GRAPH_SURFACES.reduce((a, s) => a + v[s], 0);
}

function _zero(): Record<GraphSurface, number> {
  return { cli: 0, hook: 0, mcp: 0, proxy: 0 };
}

function _localDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

// Compact counts: 950, 12.3K, 4.1M.
function _human(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  if (abs < 1_000_000) return `${(n / 1000).toFixed(1)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

// `project = root` or below it; GLOB so `_` and `%` in paths are ordinary characters.
function _wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join("\n") + "\n";
}
