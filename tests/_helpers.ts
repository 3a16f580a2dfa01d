/**
 * Shared helpers for the cross-surface tests: run the real `rtok` in a child process, make
 * temp homes and git repositories, read the ledger.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { RTOK_PERMISSIONS } from "../scripts/permissions.ts";
import { defaultConfig } from "../src/core/config.ts";
import { makeCtx, Registry } from "../src/core/registry.ts";
import { Store, storePath } from "../src/core/store.ts";
import { BUILTIN_PLUGINS } from "../src/plugins/mod.ts";
import type { Measurement } from "../src/core/plugin.ts";

/** The CLI entry, as a path. */
export const CLI: string = new URL("../cli.ts", import.meta.url).pathname;

/** The permissions `rtok` runs with: the install task's list. */
export const RTOK_PERMS: readonly string[] = RTOK_PERMISSIONS;

/** What a child process did. */
export interface Ran {
  /** Exit code (128+n after a signal). */
  readonly code: number;
  /** The signal that killed it, if one did. */
  readonly signal: Deno.Signal | null;
  /** Its stdout bytes. */
  readonly stdout: Uint8Array;
  /** Its stdout as text. */
  readonly out: string;
  /** Its stderr as text. */
  readonly err: string;
}

/** Options for {@linkcode run}. */
export interface RunOptions {
  /** Working directory. */
  readonly cwd?: string;
  /** Extra environment. */
  readonly env?: Record<string, string>;
  /** Bytes for stdin. */
  readonly stdin?: string | Uint8Array;
}

/** Runs a program to completion. */
export async function run(
  cmd: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<Ran> {
  const child = new Deno.Command(cmd, {
    args: [...args],
    cwd: opts.cwd,
    env: { NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(
      typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin,
    );
    await w.close();
  }
  const o = await child.output();
  return {
    code: o.code,
    signal: o.signal,
    stdout: o.stdout,
    out: new TextDecoder().decode(o.stdout),
    err: new TextDecoder().decode(o.stderr),
  };
}

/**
 * Runs `rtok args…` with `RTOK_HOME=home`. The child uses this process's Deno cache, so a test
 * that gives it a temp `HOME` does not send it to fetch npm packages into a fresh one (Deno
 * resolves every npm package the program can import, lazily loaded ones too, at start-up).
 */
export async function rtok(
  home: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<Ran> {
  return run(Deno.execPath(), ["run", ...RTOK_PERMS, CLI, ...args], {
    ...opts,
    env: { RTOK_HOME: home, DENO_DIR: await denoDir(), ...opts.env },
  });
}

let denoDirOnce: Promise<string> | null = null;

/** This process's Deno cache directory. */
export function denoDir(): Promise<string> {
  denoDirOnce ??= (async () => {
    const set = Deno.env.get("DENO_DIR");
    if (set) return set;
    const o = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const dir = JSON.parse(new TextDecoder().decode(o.stdout)).denoDir;
    if (typeof dir !== "string") throw new Error("deno info --json gave no denoDir");
    return dir;
  })();
  return denoDirOnce;
}

/** An rtok command running as a server, found by the URL it printed. */
export interface RunningRtok extends AsyncDisposable {
  /** The URL its start-up line names. */
  readonly url: string;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Its process id. */
  readonly pid: number;
  /** Sends `signal` and resolves with its exit status once it has ended. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts `rtok args…` with `RTOK_HOME=home` and waits, 30 s at most, until what it printed
 * (stdout, then stderr) matches `urlIn`, whose first group is the URL; disposing of it stops
 * the process with SIGTERM and waits for it.
 */
export async function startRtok(
  home: string,
  args: readonly string[],
  urlIn: RegExp,
  opts: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<RunningRtok> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RTOK_PERMS, CLI, ...args],
    cwd: opts.cwd,
    env: { RTOK_HOME: home, NO_COLOR: "1", DENO_DIR: await denoDir(), ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "", err = "";
  const pumps = Promise.all([
    (async () => {
      for await (const c of child.stdout.pipeThrough(new TextDecoderStream())) out += c;
    })(),
    (async () => {
      for await (const c of child.stderr.pipeThrough(new TextDecoderStream())) err += c;
    })(),
  ]);
  const deadline = Date.now() + 30_000;
  let ended = false;
  child.status.then(() => ended = true);
  let url = "";
  while (!url) {
    const m = urlIn.exec(out) ?? urlIn.exec(err);
    if (m) url = m[1];
    else if (Date.now() > deadline || ended) {
      try {
        child.kill();
      } catch { /* it ended by itself: what it printed says why */ }
      if (ended) await pumps;
      throw new Error(`rtok ${args[0]} did not start: ${out} ${err}`);
    } else await new Promise((r) => setTimeout(r, 20));
  }
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
    const status = await child.status;
    await pumps;
    return status;
  };
  return {
    url,
    stdout: () => out,
    stderr: () => err,
    pid: child.pid,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

/** A loopback port that was free a moment ago: for a server to take, or as one nobody answers on. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A program running in the background, its stderr kept; disposing stops it with SIGTERM. */
export interface Daemon extends AsyncDisposable {
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Stops it (SIGTERM) and waits for it and its stderr. */
  stop(): Promise<void>;
}

/** Starts `cmd args…` in the background (stdout to nowhere), with `env` added to this one's. */
export function spawnDaemon(
  cmd: string,
  args: readonly string[],
  env?: Record<string, string>,
): Daemon {
  const child = new Deno.Command(cmd, {
    args: [...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let err = "";
  const pump = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await pump;
  };
  return { stderr: () => err, stop, [Symbol.asyncDispose]: stop };
}

/**
 * The path of program `name` on this process's PATH (or in the sbin folders, where Debian puts
 * daemons such as haproxy and nginx), or `null` when it is not installed.
 */
export function which(name: string): string | null {
  for (const dir of [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/sbin", "/sbin"]) {
    try {
      if (dir && Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch { /* not here */ }
  }
  return null;
}

/** Runs a command and returns its stdout, throwing when it fails. */
export async function sh(
  cmd: string,
  args: readonly string[],
  cwd?: string,
  env?: Record<string, string>,
): Promise<string> {
  const r = await run(cmd, args, { cwd, env });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.code}): ${r.err}`);
  return r.out;
}

/** A fresh temp dir, removed by the returned disposer. */
export function tempDir(prefix = "rtok-test-"): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix });
  return {
    path,
    [Symbol.dispose]() {
      Deno.removeSync(path, { recursive: true });
    },
  };
}

/** Makes a git repository with a fixed identity and no signing. */
export async function gitInit(dir: string): Promise<void> {
  await sh("git", ["init", "-q", "-b", "main", dir]);
  for (
    const [k, v] of [["user.name", "Ada"], ["user.email", "ada@lab.dev"], [
      "commit.gpgsign",
      "false",
    ]]
  ) {
    await sh("git", ["config", k, v], dir);
  }
}

/** The date every test commit carries, so hashes and output sizes are stable. */
export const COMMIT_DATE = "2026-07-02T23:32:16-04:00";

/** Commits everything in `dir` with `message`, dated {@linkcode COMMIT_DATE}. */
export async function commitAll(dir: string, ...message: string[]): Promise<void> {
  await sh("git", ["add", "-A"], dir);
  await sh("git", ["commit", "-q", ...message.flatMap((m) => ["-m", m])], dir, {
    GIT_AUTHOR_DATE: COMMIT_DATE,
    GIT_COMMITTER_DATE: COMMIT_DATE,
  });
}

/**
 * The seed's git-log lab: 12 feature commits, then one fix with a three-paragraph body and
 * two trailers. Its raw `git log` is 2,387 chars.
 */
export async function buildLab(dir: string): Promise<void> {
  await gitInit(dir);
  for (let i = 1; i <= 12; i++) {
    await Deno.writeTextFile(`${dir}/app.py`, `line ${i}\n`, { append: true });
    await commitAll(dir, `feat: add feature ${i} to the parser module`);
  }
  await Deno.writeTextFile(`${dir}/notes.md`, "notes\n");
  await commitAll(
    dir,
    "fix: stop the tokenizer from splitting emoji into surrogate halves",
    [
      "The old code indexed by UTF-16 code unit, so any astral-plane character",
      "was cut in half and produced two replacement glyphs downstream.",
      "",
      "This switches the whole pipeline to char indices.",
      "",
      "Signed-off-by: Ada <ada@lab.dev>",
      "Co-authored-by: Grace <grace@lab.dev>",
    ].join("\n"),
  );
}

/** One ledger row, as the tests read it. */
export interface LedgerRow {
  readonly surface: string;
  readonly plugin: string;
  readonly family: string;
  readonly command: string;
  readonly rtok_command: string;
  readonly session: string | null;
  readonly host: string | null;
  readonly raw_chars: number;
  readonly emitted_chars: number;
  readonly stage: string;
  readonly lossy: number;
  readonly archive_id: string | null;
  readonly exit_code: number | null;
  readonly passthrough: string | null;
  readonly project: string;
}

/** Drains the spool of `home` into its store, as `rtok gain` does. */
export function drain(home: string): void {
  const store = Store.open(storePath(home));
  try {
    const config = defaultConfig();
    const registry = new Registry(BUILTIN_PLUGINS, config);
    registry.drain(makeCtx(registry, { config, store, home }));
    if (registry.errors.length) throw registry.errors[0].error;
  } finally {
    store.close();
  }
}

/** Every ledger row in `home`, oldest first, after draining its spool. */
export function ledger(home: string): LedgerRow[] {
  drain(home);
  const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
  try {
    return db.prepare("SELECT * FROM runs ORDER BY id").all() as unknown as LedgerRow[];
  } finally {
    db.close();
  }
}

/** The hex sha256 of `bytes`. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The archive id named on a pointer line, or `null`. */
export function pointerId(text: string): string | null {
  return /\[rtok: cut .*; raw: rtok expand ([0-9a-f]+)\]\n?$/.exec(text)?.[1] ?? null;
}

/** Stops the `rtok serve` of `rtokHome` (the pid in its serve.json), if one runs. */
export function stopServer(rtokHome: string): void {
  try {
    const { pid } = JSON.parse(Deno.readTextFileSync(`${rtokHome}/serve.json`));
    if (typeof pid === "number" && pid > 0) Deno.kill(pid, "SIGTERM");
  } catch { /* none started, or stopped already */ }
}

/**
 * A command-hook host's two end-to-end steps through rtok_hook.sh: with no server (the Deno
 * hook answers and starts one), then through the server that call started: the same output
 * (`body` strips what the host wraps around it), one row more, one answer more on /health.
 */
export async function serverFirstSteps(
  t: Deno.TestContext,
  w: {
    readonly host: string;
    readonly rtokHome: string;
    readonly env: Record<string, string>;
    readonly cwd: string;
    /** git's own output. */
    readonly raw: string;
    /** What the agent got from one `git log` call through the host. */
    readonly ask: () => Promise<string>;
    /** The tool result's name in the step titles (`shell result`). */
    readonly result: string;
    readonly body?: (text: string) => string;
  },
): Promise<void> {
  const body = w.body ?? ((text: string) => text);
  let first = "";
  await t.step(
    `with the hook and no server, the ${w.result} is rtok's filtered output`,
    async () => {
      ok(!existsSync(`${w.rtokHome}/serve.json`), "no server yet");
      first = await w.ask();
      console.log(`${w.host} git log: ${await assertFilteredGitLog(first, w.raw, w)}`);
    },
  );
  await t.step("the server that call started answers the next, with the same output", async () => {
    const before = await serverAnswered(w.rtokHome, w.host);
    ok(before !== null, "the hook started rtok serve for the next calls");
    const text = await w.ask();
    await assertFilteredGitLog(text, w.raw, { ...w, calls: 2 });
    strictEqual(body(text), body(first));
    strictEqual(await serverAnswered(w.rtokHome, w.host), before + 1);
  });
}

/**
 * The hook events of `host` the server `rtokHome`'s serve.json names has answered, once one
 * answers (waiting up to 10 s for it); `null` when none does.
 */
export async function serverAnswered(rtokHome: string, host: string): Promise<number | null> {
  for (let i = 0; i < 100; i++) {
    try {
      const { port, secret } = JSON.parse(Deno.readTextFileSync(`${rtokHome}/serve.json`));
      const r = await fetch(`http://127.0.0.1:${port}/health`, {
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(500),
      });
      if (r.ok) return (await r.json()).answered?.[host] ?? 0;
      await r.body?.cancel();
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

/**
 * rtok as a user has it: installed by the install task under `root`; returns a PATH with its
 * launcher first, then this Deno (so the launcher finds it), then this process's PATH.
 */
export async function installRtok(root: string): Promise<string> {
  const r = await run(Deno.execPath(), ["task", "-q", "install", "--root", root], {
    cwd: new URL("../", import.meta.url).pathname,
  });
  if (r.code !== 0) throw new Error(`the install task failed (${r.code}): ${r.err}`);
  const deno = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
  return `${root}/bin:${deno}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/** The cache directory a CLI from npm is installed into: `~/.cache/rtok-tests/<slug>-<version>`. */
export function npmCliCache(slug: string, version: string): string {
  return `${Deno.env.get("HOME") ?? "/tmp"}/.cache/rtok-tests/${slug}-${version}`;
}

/**
 * A CLI's launcher (`node_modules/.bin/<bin>`), installed from npm (`<pkg>@<version>`) into
 * {@linkcode npmCliCache} on first use: a few seconds, and the npm registry must be reachable.
 * `name` is how an error names it.
 */
export async function npmCli(
  name: string,
  slug: string,
  pkg: string,
  version: string,
  bin: string,
): Promise<string> {
  const cache = npmCliCache(slug, version);
  const path = `${cache}/node_modules/.bin/${bin}`;
  try {
    Deno.statSync(path);
    return path;
  } catch { /* not installed yet */ }
  Deno.mkdirSync(cache, { recursive: true });
  const r = await run("npm", [
    "install",
    "--prefix",
    cache,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `${pkg}@${version}`,
  ]);
  if (r.code !== 0) throw new Error(`Cannot install ${name} ${version} from npm: ${r.err.trim()}`);
  return path;
}

/** One request a loopback stand-in for a model API received. */
export interface Recorded {
  /** Path and query. */
  readonly path: string;
  /** The parsed JSON body, or `null`. */
  readonly body: Record<string, unknown> | null;
}

/** One row of the failures table. */
export interface FailureRow {
  readonly family: string;
  readonly error: string;
}

/** The failures rows of `home`'s store, oldest first (the spool drained into it first). */
export function failureRows(home: string): FailureRow[] {
  drain(home);
  const db = new DatabaseSync(`${home}/rtok.db`, { readOnly: true });
  try {
    return db.prepare("SELECT family, error FROM failures ORDER BY id")
      .all() as unknown as FailureRow[];
  } finally {
    db.close();
  }
}

/**
 * Asserts that `text`, what a host handed the model for the lab's `git log`, is rtok's output:
 * smaller than `raw`, every `feat:`/`fix:` subject kept, the pointer line last, its archive id
 * giving back `raw` through the installed `rtok expand`, and one ledger row of `host` for it.
 * Returns the measured sizes, `"<raw> → <text> chars"`.
 */
export async function assertFilteredGitLog(
  text: string,
  raw: string,
  w: {
    readonly host: string;
    readonly rtokHome: string;
    readonly env: Record<string, string>;
    readonly cwd: string;
    /** The calls made so far, each a row (default 1). */
    readonly calls?: number;
  },
): Promise<string> {
  ok(text.length < raw.length, `${text.length} < ${raw.length}`);
  const id = pointerId(text);
  ok(id, text.slice(-120));
  ok(/\n\[rtok: cut .*; raw: rtok expand [0-9a-f]+\]\n?$/.test(text), text.slice(-120));
  for (const subject of raw.split("\n").filter((l) => /^ {4}(feat|fix): /.test(l))) {
    ok(text.includes(subject.trim()), `the subject "${subject.trim()}" is kept`);
  }
  const expanded = await run("rtok", ["expand", id], { env: w.env, cwd: w.cwd });
  strictEqual(expanded.code, 0, expanded.err);
  strictEqual(expanded.out.trimEnd(), raw, "the raw output git printed, kept whole");
  const rows = ledger(w.rtokHome).filter((row) => row.host === w.host);
  strictEqual(rows.length, w.calls ?? 1, JSON.stringify(rows));
  strictEqual(rows.at(-1)!.family, "git log");
  strictEqual(rows.at(-1)!.archive_id, id);
  return `${raw.length} → ${text.length} chars`;
}

/**
 * Every file under `dir` (path relative to it → its bytes as text) and every folder (→ `null`,
 * its path ending in `/`): what "restored byte for byte" compares. An absent `dir` is `{}`.
 */
export function snapshotDir(dir: string, prefix = ""): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = `${prefix}${e.name}`;
    if (e.isDirectory) {
      out[`${rel}/`] = null;
      Object.assign(out, snapshotDir(`${dir}/${e.name}`, `${rel}/`));
    } else out[rel] = Deno.readTextFileSync(`${dir}/${e.name}`);
  }
  return out;
}

/**
 * One ledger measurement for tests that fill a store: a lossy `git log` run in `/work/p`
 * (3,100 raw chars cut to 310, as log text), with `over` applied.
 */
export function measurement(over: Partial<Measurement> = {}): Measurement {
  return {
    surface: "cli",
    plugin: "cmd",
    family: "git log",
    command: "git log",
    rtokCommand: "rtok git log",
    project: "/work/p",
    session: null,
    turn: null,
    rawChars: 3100,
    emittedChars: 310,
    textClass: "log",
    stage: "shape+filter",
    lossy: true,
    archiveId: "0123456789ab",
    exitCode: 0,
    elapsedMs: 30,
    passthrough: null,
    ...over,
  };
}
