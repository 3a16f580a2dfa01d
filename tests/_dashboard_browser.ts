/**
 * Drives headless Chromium (playwright-core) for the dashboard test, in a process of its own:
 * playwright-core reads the home directory, the OS release and /proc/sys when it loads, which
 * Deno allows only with -A, and the test run is not given that. One JSON command a line on
 * stdin, one JSON answer a line on stdout.
 *
 * Commands: `{"op":"open","url":…}`, `{"op":"read"}`, `{"op":"mark"}`,
 * `{"op":"waitRuns","n":…}`, `{"op":"waitStatus","has":…}` or `{"op":"waitStatus","lacks":…}`, `{"op":"screenshot","path":…}`, `{"op":"close"}`.
 *
 * @module
 */

import { chromium, type Page } from "playwright-core";

const [executablePath, profile] = Deno.args;

/** What the page holds, as the test compares it with rtok gain's JSON. */
export interface Snapshot {
  /** data-figure → data-value. */
  readonly figures: Record<string, number>;
  /** Table rows by their key attribute: data-col → data-value (a number) or text. */
  readonly families: Record<string, Record<string, number | string>>;
  /** See `families`. */
  readonly sessions: Record<string, Record<string, number | string>>;
  /** See `families`. */
  readonly models: Record<string, Record<string, number | string>>;
  /** See `families`. */
  readonly callers: Record<string, Record<string, number | string>>;
  /** The chart's bars: [day, data-total]. */
  readonly days: [string, number][];
  /** Text of the failure and history tables. */
  readonly failureText: string;
  /** See `failureText`. */
  readonly historyText: string;
  /** The nothing-yet line, when the page shows it. */
  readonly nothingYet: string | null;
  /** img and b elements inside main: markup from the ledger would make some. */
  readonly markup: number;
  /** What an injected handler would have set. */
  readonly pwned: unknown;
  /** The status line under the title. */
  readonly status: string;
  /** What `mark` set, still there when the page was not reloaded. */
  readonly stayed: unknown;
}

// A new empty profile, as the persistent context wants it named (not as --user-data-dir).
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  viewport: { width: 1200, height: 900 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page: Page = browser.pages()[0] ?? await browser.newPage();
const requests: string[] = [];
const errors: string[] = [];
page.on("request", (r) => requests.push(r.url()));
page.on("console", (m) => {
  if (m.type() === "error") errors.push(m.text());
});
page.on("pageerror", (e) => errors.push(e.message));

const READ = `(() => {
  const rows = (key) => Object.fromEntries([...document.querySelectorAll("tr[" + key + "]")]
    .map((tr) => [tr.getAttribute(key), Object.fromEntries([...tr.querySelectorAll("td[data-col]")]
      .map((td) => [td.getAttribute("data-col"), td.hasAttribute("data-value")
        ? Number(td.getAttribute("data-value")) : td.textContent])) ]));
  const text = (sel) => document.querySelector(sel)?.textContent ?? "";
  return {
    figures: Object.fromEntries([...document.querySelectorAll("[data-figure][data-value]")]
      .map((e) => [e.getAttribute("data-figure"), Number(e.getAttribute("data-value"))])),
    families: rows("data-family"),
    sessions: rows("data-session"),
    models: rows("data-model"),
    callers: rows("data-caller"),
    days: [...document.querySelectorAll("g[data-day]")]
      .map((g) => [g.getAttribute("data-day"), Number(g.getAttribute("data-total"))]),
    failureText: text("#failure-table"),
    historyText: text("#history-table"),
    nothingYet: document.querySelector(".nothing-yet")?.textContent ?? null,
    markup: document.querySelectorAll("main img, main b").length,
    pwned: window.pwned,
    status: text("#status"),
    stayed: window.stayed,
  };
})()`;

async function answer(cmd: Record<string, unknown>): Promise<unknown> {
  switch (cmd.op) {
    case "open":
      await page.goto(String(cmd.url));
      await page.waitForSelector('[data-figure="runs"], .nothing-yet');
      return { ok: true };
    case "read":
      return await page.evaluate(READ) as Snapshot;
    case "mark":
      await page.evaluate("window.stayed = true");
      return { ok: true };
    case "waitRuns": {
      // Polled from outside: the page's policy forbids the string eval waitForFunction uses.
      const deadline = Date.now() + 20_000;
      while ((await page.evaluate(READ) as Snapshot).figures.runs !== Number(cmd.n)) {
        if (Date.now() > deadline) throw new Error(`the page never showed ${cmd.n} runs`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return { ok: true };
    }
    case "waitStatus": {
      const deadline = Date.now() + 20_000;
      // `has`: wait until the status says it; `lacks`: until it no longer does.
      const done = (status: string) =>
        cmd.lacks === undefined
          ? status.includes(String(cmd.has))
          : !status.includes(String(cmd.lacks));
      while (!done((await page.evaluate(READ) as Snapshot).status)) {
        if (Date.now() > deadline) {
          throw new Error(
            cmd.lacks === undefined
              ? `the status never said ${cmd.has}`
              : `the status kept saying ${cmd.lacks}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      return { ok: true };
    }
    case "screenshot":
      await page.screenshot({ path: String(cmd.path), fullPage: true });
      return { ok: true };
    case "close":
      await browser.close();
      return { requests, errors };
    default:
      throw new TypeError(`unknown op ${JSON.stringify(cmd.op)}`);
  }
}

const out = (v: unknown) =>
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(v) + "\n"));
let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  let nl: number;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const cmd = JSON.parse(line);
    try {
      out({ ok: await answer(cmd) });
    } catch (e) {
      out({ error: (e as Error).message });
    }
    if (cmd.op === "close") Deno.exit(0);
  }
}
await browser.close();
