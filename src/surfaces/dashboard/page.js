// @ts-check
/// <reference lib="dom" />
// rtok dashboard: draws GET /api/gain into the page, and asks again every few seconds.
// Every string from the ledger goes in as a text node or an attribute value, never as markup.
// Served as it is (no build): its types are JSDoc, checked by `deno check` (page_test.ts).
"use strict";

/** @typedef {import("./data.ts").DashboardData} DashboardData */
/** @typedef {import("./data.ts").DashboardError} DashboardError */
/** @typedef {import("./data.ts").GainJson} GainJson */
/** @typedef {import("../_gain_graph.ts").GainGraph} GainGraph */
/** @typedef {import("../_gain_graph.ts").GraphSurface} GraphSurface */
/** @typedef {DashboardData["sessions"][number]} SessionRow */
/** @typedef {DashboardData["history"][number]} HistoryRow */
/** @typedef {DashboardData["failures"][number]} FailureRow */
/** @typedef {DashboardData["callers"][number]} CallerGain */
/**
 * An element's attributes; a `null` or `undefined` value leaves its attribute out.
 *
 * @typedef {Record<string, string | number | null | undefined>} Attrs
 */
/**
 * An element's child: a node, or text; `null`, `undefined` and `false` are left out.
 *
 * @typedef {Node | string | number | false | null | undefined} Child
 */

const SVG_NS = "http://www.w3.org/2000/svg";
/** @type {readonly GraphSurface[]} */
const SURFACES = ["cli", "hook", "mcp", "proxy"];
/** @type {Readonly<Record<GraphSurface, string>>} */
const SURFACE_LABELS = { cli: "cli", hook: "hook (PostToolUse)", mcp: "mcp", proxy: "proxy" };

/**
 * An HTML element with attributes and children (strings become text nodes).
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} attrs
 * @param {...(Child | readonly Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, attrs, ...children) {
  return _fill(document.createElement(tag), attrs, children);
}

/**
 * An SVG element, the same way.
 *
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} attrs
 * @param {...(Child | readonly Child[])} children
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs, ...children) {
  return _fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * `node` with `attrs` set and `children` appended, one level of arrays flattened.
 *
 * @template {Element} E
 * @param {E} node
 * @param {Attrs | null} attrs
 * @param {readonly (Child | readonly Child[])[]} children
 * @returns {E}
 */
function _fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(
      typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c,
    );
  }
  return node;
}

/**
 * Compact counts as rtok gain prints them: 950, 12.3K, 4.1M.
 *
 * @param {number} n
 * @returns {string}
 */
function human(n) {
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  if (abs < 1_000_000) return (n / 1000).toFixed(1) + "K";
  return (n / 1_000_000).toFixed(1) + "M";
}

/**
 * Dollars as rtok gain prints them; `unknown` for a cost no price gives.
 *
 * @param {number | null | undefined} v
 * @returns {string}
 */
function usd(v) {
  if (v === null || v === undefined) return "unknown";
  if (v === 0) return "$0.00";
  const abs = Math.abs(v);
  const s = abs >= 1 ? abs.toFixed(2) : abs >= 0.0001 ? abs.toFixed(4) : "<0.0001";
  return (v < 0 ? "-" : "") + "$" + s;
}

/**
 * A percentage with one decimal.
 *
 * @param {number} v
 * @returns {string}
 */
function pct(v) {
  return Number(v).toFixed(1) + "%";
}

/**
 * An ISO 8601 time as `YYYY-MM-DD hh:mm:ss`.
 *
 * @param {string} iso
 * @returns {string}
 */
function time(iso) {
  return String(iso).slice(0, 19).replace("T", " ");
}

/**
 * A number cell: shown compact, the exact value in data-value.
 *
 * @overload
 * @param {number} value
 * @param {string | null} shown
 * @param {string} key
 * @returns {HTMLTableCellElement}
 */
/**
 * A number that may be unknown (`null`) comes with the text that says so.
 *
 * @overload
 * @param {number | null} value
 * @param {string} shown
 * @param {string} key
 * @returns {HTMLTableCellElement}
 */
/**
 * @param {number | null} value
 * @param {string | null} shown
 * @param {string} key
 * @returns {HTMLTableCellElement}
 */
function num(value, shown, key) {
  return el(
    "td",
    { class: "num", "data-col": key, "data-value": value },
    shown ?? human(/** @type {number} */ (value)),
  );
}

/**
 * A text cell.
 *
 * @param {string} value
 * @param {string} key
 * @returns {HTMLTableCellElement}
 */
function txt(value, key) {
  return el("td", { "data-col": key }, value);
}

/**
 * A figure card: a label, the number shown, the exact number in data-value.
 *
 * @overload
 * @param {string} name
 * @param {string} label
 * @param {number} value
 * @param {string | null} [shown]
 * @param {string} [note]
 * @returns {HTMLDivElement}
 */
/**
 * A figure that may be unknown (`null`) comes with the text that says so.
 *
 * @overload
 * @param {string} name
 * @param {string} label
 * @param {number | null} value
 * @param {string} shown
 * @param {string} [note]
 * @returns {HTMLDivElement}
 */
/**
 * @param {string} name
 * @param {string} label
 * @param {number | null} value
 * @param {string | null} [shown]
 * @param {string} [note]
 * @returns {HTMLDivElement}
 */
function card(name, label, value, shown, note) {
  return el(
    "div",
    { class: "card" },
    el("div", { class: "label" }, label),
    el(
      "div",
      { class: "value", "data-figure": name, "data-value": value },
      shown ?? human(/** @type {number} */ (value)),
    ),
    note ? el("div", { class: "note" }, note) : null,
  );
}

/**
 * A section: its id, a heading, a note under it when there is one, and its body.
 *
 * @param {string} id
 * @param {string} title
 * @param {string | null} note
 * @param {...(Child | readonly Child[])} body
 * @returns {HTMLElement}
 */
function section(id, title, note, ...body) {
  return el(
    "section",
    { id },
    el("h2", {}, title),
    note ? el("p", { class: "note" }, note) : null,
    ...body,
  );
}

/**
 * A table: its id, its column heads, its rows.
 *
 * @param {string} id
 * @param {readonly string[]} head
 * @param {readonly HTMLTableRowElement[]} rows
 * @returns {HTMLTableElement}
 */
function table(id, head, rows) {
  return el(
    "table",
    { id },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows),
  );
}

/**
 * The last 30 days, a bar a day stacked by surface.
 *
 * @param {GainGraph} graph
 * @returns {SVGSVGElement}
 */
function dayChart(graph) {
  const w = 720, h = 220, left = 48, bottom = 28, top = 12;
  const days = graph.days;
  const max = Math.max(1, ...days.map((d) => SURFACES.reduce((n, s) => n + Math.max(0, d[s]), 0)));
  const step = (w - left - 8) / days.length;
  /** @param {number} v */
  const y = (v) => (h - bottom) - (v / max) * (h - bottom - top);
  const bars = days.map((d, i) => {
    let base = 0;
    const parts = SURFACES.filter((s) => d[s] > 0).map((s) => {
      const r = svg("rect", {
        class: "s-" + s,
        x: (left + i * step + 1).toFixed(1),
        y: y(base + d[s]).toFixed(1),
        width: Math.max(1, step - 2).toFixed(1),
        height: (y(base) - y(base + d[s])).toFixed(1),
      });
      base += d[s];
      return r;
    });
    const tip = d.day + ": " + human(d.total) + " tokens saved" +
      SURFACES.filter((s) => d[s] !== 0).map((s) => ", " + s + " " + human(d[s])).join("");
    return svg("g", { "data-day": d.day, "data-total": d.total }, svg("title", {}, tip), ...parts);
  });
  // The first and last day labels stay inside the chart: anchored at their outer ends.
  const ticks = /** @type {[number, string][]} */ (
    [[0, "start"], [Math.floor(days.length / 2), "middle"], [days.length - 1, "end"]]
  )
    .map(([i, anchor]) =>
      svg(
        "text",
        {
          x: (left + i * step + (anchor === "start" ? 0 : anchor === "end" ? step : step / 2))
            .toFixed(1),
          y: h - 8,
          class: "tick",
          "text-anchor": anchor,
        },
        days[i].day,
      )
    );
  return svg(
    "svg",
    {
      viewBox: "0 0 " + w + " " + h,
      class: "chart",
      role: "img",
      "aria-label": "tokens saved per day",
    },
    svg("line", { x1: left, y1: h - bottom, x2: w - 4, y2: h - bottom, class: "axis" }),
    svg("text", { x: left - 6, y: top + 4, class: "tick", "text-anchor": "end" }, human(max)),
    svg("text", { x: left - 6, y: h - bottom, class: "tick", "text-anchor": "end" }, "0"),
    ...bars,
    ...ticks,
  );
}

/**
 * The surfaces' colours.
 *
 * @returns {HTMLUListElement}
 */
function legend() {
  return el(
    "ul",
    { class: "legend" },
    SURFACES.map((s) => el("li", {}, el("span", { class: "swatch s-" + s }), SURFACE_LABELS[s])),
  );
}

/**
 * A horizontal bar, its length the share of the largest saving.
 *
 * @param {number} value
 * @param {number} max
 * @returns {SVGSVGElement}
 */
function bar(value, max) {
  const width = max > 0 ? Math.max(0, value) / max * 120 : 0;
  return svg(
    "svg",
    { viewBox: "0 0 120 10", class: "bar", "aria-hidden": "true" },
    svg("rect", { x: 0, y: 1, width: width.toFixed(1), height: 8, class: "fill" }),
  );
}

/**
 * The totals: runs, tokens in and out, saved, context-token-turns, failures.
 *
 * @param {GainJson} g
 * @returns {HTMLElement}
 */
function summary(g) {
  const s = g.sessions;
  return section(
    "totals",
    "Saved (estimated tokens)",
    "What the tools printed after rtok's stage-1 shaping, and what rtok emitted instead.",
    el(
      "div",
      { class: "cards" },
      card(
        "runs",
        "runs",
        g.runs,
        String(g.runs),
        g.filtered + " filtered, " + g.passedThrough + " passed through, " + g.lossy +
          " cut and archived",
      ),
      card("rawTokens", "in", g.rawTokens, null, "tokens printed by the tools"),
      card("emittedTokens", "out", g.emittedTokens, null, "tokens emitted by rtok"),
      card(
        "savedTokens",
        "saved",
        g.savedTokens,
        null,
        pct(g.savedPct) + " of what the tools printed",
      ),
      card(
        "contextTokenTurns",
        "context-token-turns",
        s.contextTokenTurns,
        null,
        s.sessions + (s.sessions === 1 ? " session, " : " sessions, ") + s.toolCalls +
          " tool calls",
      ),
      card(
        "failures",
        "filter failures",
        g.failures,
        String(g.failures),
        "their raw output went out instead",
      ),
    ),
  );
}

/**
 * The savings of the last 30 days, with their legend.
 *
 * @param {GainGraph} graph
 * @returns {HTMLElement}
 */
function overTime(graph) {
  return section(
    "over-time",
    "Savings over the last 30 days",
    "Estimated tokens saved per day (" + graph.from + " to " + graph.to + "), stacked by surface.",
    legend(),
    dayChart(graph),
  );
}

/**
 * Each family's savings, expand rate and re-fetch rate, and the families served raw.
 *
 * @param {GainJson} g
 * @returns {HTMLElement}
 */
function families(g) {
  const rates = new Map(g.expandRates.map((r) => [r.family, r]));
  const refetch = new Map(g.refetchRates.map((r) => [r.family, r]));
  const max = Math.max(0, ...g.commands.map((c) => c.savedTokens));
  const rows = g.commands.map((c) => {
    const r = rates.get(c.command);
    const f = refetch.get(c.command);
    return el(
      "tr",
      { "data-family": c.command, class: r && r.flagged ? "flagged" : null },
      txt(c.command, "family"),
      num(c.runs, String(c.runs), "runs"),
      num(c.rawTokens, null, "rawTokens"),
      num(c.emittedTokens, null, "emittedTokens"),
      num(c.savedTokens, null, "savedTokens"),
      num(c.savedPct, pct(c.savedPct), "savedPct"),
      el("td", {}, bar(c.savedTokens, max)),
      r
        ? num(
          r.ratePct,
          pct(r.ratePct) + " of " + r.lossyRuns + (r.flagged ? " · too aggressive?" : ""),
          "expandRatePct",
        )
        : txt("-", "expandRatePct"),
      f
        ? num(f.ratePct, pct(f.ratePct) + " of " + f.lossyRuns, "refetchRatePct")
        : txt("-", "refetchRatePct"),
    );
  });
  const raw = g.servedRaw.map((r) =>
    el(
      "li",
      {},
      r.family + " in " + r.project + ": re-fetch rate " + pct(r.ratePct) +
        "; rtok filters reset " + r.family + " (in that directory) filters it again",
    )
  );
  return section(
    "families",
    "Per family",
    "Expand rate: lossy outputs asked for again in full; above 5 % a filter is too aggressive. " +
      "Re-fetch rate: lossy outputs expanded or run again wider within 3 runs.",
    table("family-table", [
      "family",
      "runs",
      "in",
      "out",
      "saved",
      "saved %",
      "",
      "expand rate",
      "re-fetch rate",
    ], rows),
    raw.length
      ? el("p", {}, "Served raw (agents fetched again too much of what the filter cut):")
      : null,
    raw.length ? el("ul", { id: "served-raw" }, raw) : null,
  );
}

/**
 * The agent sessions.
 *
 * @param {readonly SessionRow[]} rows
 * @returns {HTMLElement}
 */
function sessions(rows) {
  return section(
    "sessions",
    "Per session",
    "Context-token-turns: tokens saved × the session's tool calls from that run on (each later request re-sends an output).",
    rows.length
      ? table(
        "session-table",
        ["last (UTC)", "session", "host", "tool calls", "runs", "saved", "context-token-turns"],
        rows.map((s) =>
          el(
            "tr",
            { "data-session": s.session },
            txt(time(s.last), "last"),
            txt(s.session, "session"),
            txt(s.host ?? "-", "host"),
            num(s.toolCalls, String(s.toolCalls), "toolCalls"),
            num(s.runs, String(s.runs), "runs"),
            num(s.savedTokens, null, "savedTokens"),
            num(s.contextTokenTurns, null, "contextTokenTurns"),
          )
        ),
      )
      : el(
        "p",
        { class: "none" },
        "No agent sessions recorded yet: the hook records them (rtok init).",
      ),
  );
}

/**
 * The proxy's real tokens, its cost by model and by caller, and the prices used.
 *
 * @param {GainJson} g
 * @param {readonly CallerGain[]} callers
 * @returns {HTMLElement}
 */
function proxy(g, callers) {
  const p = g.proxy;
  if (!p.requests) {
    return section(
      "proxy",
      "Proxy (real tokens)",
      null,
      el("p", { class: "none" }, "No proxy requests recorded: see rtok proxy --help."),
    );
  }
  const money = g.money ?? null;
  const cost = new Map(
    (money ? money.models : []).map((m) => [m.provider + "\u0000" + m.model, m]),
  );
  const charsPct = p.charsSeen ? (p.charsSaved / p.charsSeen * 100).toFixed(1) + "%" : "0.0%";
  return section(
    "proxy",
    "Proxy (real tokens, as the providers reported them)",
    "Spent is real usage × list prices; saved is what the compressed tool results would have cost more sent raw (estimated).",
    el(
      "div",
      { class: "cards" },
      card(
        "proxyRequests",
        "requests",
        p.requests,
        String(p.requests),
        p.errors ? p.errors + " errors" : "no errors",
      ),
      card(
        "resultsCompressed",
        "tool results compressed",
        p.resultsCompressed,
        String(p.resultsCompressed),
        "of " + p.resultsSeen + " seen",
      ),
      card(
        "charsSaved",
        "chars cut",
        p.charsSaved,
        null,
        charsPct + " of " + human(p.charsSeen) + " chars",
      ),
      card("estimatedTokensSaved", "tokens cut (estimated)", p.estimatedTokensSaved),
      money
        ? card(
          "spentUsd",
          "spent",
          money.spentUsd,
          usd(money.spentUsd),
          money.spentUsd === null
            ? "no model has a price"
            : money.unpriced.length
            ? "priced models only × list prices"
            : "real usage × list prices",
        )
        : null,
      money
        ? card(
          "savedUsd",
          "saved",
          money.savedUsd,
          usd(money.savedUsd),
          money.unpriced.length && money.savedUsd !== null
            ? "estimated, priced models only"
            : "estimated",
        )
        : null,
    ),
    table(
      "model-table",
      [
        "provider",
        "model",
        "requests",
        "input",
        "output",
        "cache write",
        "cache read",
        "spent",
        "saved (est.)",
      ],
      p.models.map((m) => {
        const c = cost.get(m.provider + "\u0000" + m.model);
        return el(
          "tr",
          { "data-model": m.provider + "/" + m.model },
          txt(m.provider, "provider"),
          txt(m.model || "-", "model"),
          num(m.requests, String(m.requests), "requests"),
          num(m.inputTokens, null, "inputTokens"),
          num(m.outputTokens, null, "outputTokens"),
          num(m.cacheWriteTokens, null, "cacheWriteTokens"),
          num(m.cacheReadTokens, null, "cacheReadTokens"),
          num(c ? c.spentUsd : null, usd(c ? c.spentUsd : null), "spentUsd"),
          num(c ? c.savedUsd : null, usd(c ? c.savedUsd : null), "savedUsd"),
        );
      }),
    ),
    callers.some((c) => c.caller)
      ? table(
        "caller-table",
        [
          "caller",
          "requests",
          "errors",
          "input",
          "output",
          "tokens cut (est.)",
          "spent",
          "saved (est.)",
        ],
        callers.map((c) =>
          el(
            "tr",
            { "data-caller": c.caller },
            txt(c.caller || "(none)", "caller"),
            num(c.requests, String(c.requests), "requests"),
            num(c.errors, String(c.errors), "errors"),
            num(c.inputTokens, null, "inputTokens"),
            num(c.outputTokens, null, "outputTokens"),
            num(c.estimatedTokensSaved, null, "estimatedTokensSaved"),
            num(c.spentUsd, usd(c.spentUsd), "spentUsd"),
            num(c.savedUsd, usd(c.savedUsd), "savedUsd"),
          )
        ),
      )
      : null,
    money && money.unpriced.length
      ? el(
        "p",
        { class: "note" },
        "No price for " + money.unpriced.map((m) => m || "(no model named)").join(", ") +
          ": its tokens are shown, its cost unknown.",
      )
      : null,
    money
      ? el(
        "p",
        { class: "note" },
        "Prices: " +
          money.sources.map((s) =>
            s.provider + (s.asOf ? ", as of " + s.asOf : "") + ": " + s.source
          ).join("; "),
      )
      : null,
  );
}

/**
 * The recent runs.
 *
 * @param {readonly HistoryRow[]} rows
 * @returns {HTMLElement}
 */
function history(rows) {
  return section(
    "history",
    "Recent runs",
    null,
    rows.length
      ? table(
        "history-table",
        ["time (UTC)", "command", "in", "out", "stage", "archive", "exit"],
        rows.map((r) =>
          el(
            "tr",
            {},
            txt(time(r.time), "time"),
            el("td", { "data-col": "command" }, el("code", {}, r.command)),
            num(r.rawTokens, null, "rawTokens"),
            num(r.emittedTokens, null, "emittedTokens"),
            txt(r.passthrough ? "passthrough" : r.stage, "stage"),
            txt(r.archiveId ?? "", "archiveId"),
            txt(
              r.exitCode !== null ? String(r.exitCode) : r.surface === "cli" ? "signal" : "-",
              "exitCode",
            ),
          )
        ),
      )
      : el("p", { class: "none" }, "No runs yet."),
  );
}

/**
 * The recorded filter failures.
 *
 * @param {readonly FailureRow[]} rows
 * @returns {HTMLElement}
 */
function failures(rows) {
  return section(
    "failures",
    "Filter failures",
    "A filter that threw: the raw output went out instead.",
    rows.length
      ? table(
        "failure-table",
        ["time (UTC)", "family", "command", "error"],
        rows.map((f) =>
          el(
            "tr",
            {},
            txt(time(f.time), "time"),
            txt(f.family, "family"),
            el("td", { "data-col": "command" }, el("code", {}, f.command)),
            txt(f.error, "error"),
          )
        ),
      )
      : el("p", { class: "none", "data-figure": "noFailures" }, "No filter failures recorded."),
  );
}

/**
 * What the page says before the ledger holds anything.
 *
 * @param {DashboardData} data
 * @returns {HTMLElement}
 */
function nothingYet(data) {
  return section(
    "nothing-yet",
    "Nothing yet",
    null,
    el("p", { class: "nothing-yet" }, data.nothingYet),
    el(
      "p",
      {},
      "Run a command through rtok, install the agent hook (rtok init), or send requests through rtok proxy: this page updates by itself.",
    ),
  );
}

/**
 * Draws `data` into the page, in place of what was there.
 *
 * @param {DashboardData} data
 * @returns {void}
 */
function render(data) {
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  if (data.empty) {
    app.replaceChildren(nothingYet(data), data.gain ? proxy(data.gain, data.callers) : "");
  } else {
    app.replaceChildren(
      summary(data.gain),
      overTime(data.graph),
      families(data.gain),
      sessions(data.sessions),
      proxy(data.gain, data.callers),
      failures(data.failures),
      history(data.history),
    );
  }
}

/**
 * The status line: its state (`live`, `error`), its text, and the time the figures were read.
 *
 * @param {string} state
 * @param {string} text
 * @param {string} [at]
 * @returns {void}
 */
function status(state, text, at) {
  const s = /** @type {HTMLElement} */ (document.getElementById("status"));
  s.setAttribute("data-state", state);
  if (at) s.setAttribute("data-at", at);
  s.textContent = text;
}

let pollMs = 3000;
let last = "";

/**
 * Asks for the figures, draws them when one changed, and asks again in `pollMs`.
 *
 * @returns {Promise<void>}
 */
async function refresh() {
  try {
    const res = await fetch("/api/gain", { cache: "no-store" });
    const body = await res.text();
    // An answer that is not ok holds only `error` (a 503 when the store cannot be read).
    /** @type {DashboardData & Partial<DashboardError>} */
    const data = JSON.parse(body);
    if (!res.ok) {
      status("error", "cannot read the ledger: " + (data.error ?? res.status));
    } else {
      pollMs = data.pollMs ?? pollMs;
      // The read time changes on every answer; redraw only when a figure did.
      const figures = JSON.stringify({ ...data, at: null });
      if (figures !== last) {
        render(data);
        last = figures;
      }
      const waiting = data.spooledRuns
        ? " · " + data.spooledRuns + " run" + (data.spooledRuns === 1 ? "" : "s") +
          " from the spool counted (not in the ledger file yet)"
        : "";
      status("live", "updated " + new Date(data.at).toLocaleTimeString() + waiting, data.at);
    }
  } catch (e) {
    status(
      "error",
      "rtok dashboard is not answering (" + /** @type {Error} */ (e).message + "); retrying",
    );
  }
  setTimeout(refresh, pollMs);
}

refresh();
