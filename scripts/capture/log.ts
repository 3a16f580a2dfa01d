/**
 * Captures golden fixtures for the `git log` filter from real git runs: the seed's lab
 * repository, a longer history (two authors over several days, bodies, trailers, a merge)
 * past stage 1's fetch limit, and a small service's history for `--stat` and `--shortstat`
 * (multi-file commits, renames within and across directories, a binary file, a merge, a path
 * git shortens at 80 columns, a file too big for an unscaled bar). Facts come from git itself
 * (`--format=%h`, `%s`, `%an`; `--numstat -z`, `cat-file -s` and `--shortstat` for stats).
 *
 * Run: `deno run -A scripts/capture/log.ts`
 *
 * @module
 */

import { buildLab } from "../../tests/_helpers.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url).pathname;

const ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LC_ALL: "C",
  TZ: "UTC",
  NO_COLOR: "1",
};

async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: { ...ENV, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

const SUBJECTS = [
  "fix(parser): handle CRLF line endings in quoted strings",
  "feat(cli): add --json output to the status command",
  "refactor: split the tokenizer into lexer and reader",
  "docs: explain the retention settings in the README",
  "test: cover the empty-input case for every reader",
  "perf(store): batch inserts in one transaction per run",
  "chore(deps): bump the TOML parser to the latest minor",
  "fix: keep exit codes when the child is killed by a signal",
  "feat(archive): bound the archive by total size",
  "fix(diff): do not drop the last hunk when it has no newline",
];

const BODIES = [
  "",
  "The old code assumed LF everywhere, so a Windows checkout produced an extra\n" +
  "carriage return at the end of every quoted value.\n\nFixes #412.",
  "Agents asked for machine output in three separate issues.\n\n" +
  "Signed-off-by: Ada Lovelace <ada@example.com>",
  "",
  "Two readers shared one buffer; a reset in one cleared the other's state.\n" +
  "Splitting them keeps each reader's position its own.\n\n" +
  "Reviewed-by: Grace Hopper <grace@example.com>\n" +
  "Signed-off-by: Ada Lovelace <ada@example.com>",
];

async function buildHistory(dir: string): Promise<void> {
  await git(".", ["init", "-q", "-b", "main", dir]);
  const authors = [["Ada Lovelace", "ada@example.com"], ["Grace Hopper", "grace@example.com"]];
  for (let i = 0; i < 64; i++) {
    const [name, email] = authors[Math.floor(i / 3) % 2];
    const day = String(1 + Math.floor(i / 6)).padStart(2, "0");
    const date = `2026-11-${day}T${String(9 + (i % 6)).padStart(2, "0")}:${
      String((i * 7) % 60).padStart(2, "0")
    }:00+01:00`;
    const env = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
    if (i === 40) {
      await git(dir, ["checkout", "-q", "-b", "topic"]);
      await Deno.writeTextFile(`${dir}/topic.txt`, "topic work\n");
      await git(dir, ["add", "-A"]);
      await git(dir, ["commit", "-q", "-m", "feat(topic): a change made on a branch"], env);
      await git(dir, ["checkout", "-q", "main"]);
      await Deno.writeTextFile(`${dir}/main.txt`, `main ${i}\n`, { append: true });
      await git(dir, ["add", "-A"]);
      await git(dir, ["commit", "-q", "-m", "chore: a change on main meanwhile"], env);
      await git(dir, ["merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic"], env);
      continue;
    }
    await Deno.writeTextFile(`${dir}/src_${i % 7}.ts`, `// change ${i}\n`, { append: true });
    await git(dir, ["add", "-A"]);
    const body = BODIES[i % BODIES.length];
    await git(dir, [
      "commit",
      "-q",
      "-m",
      SUBJECTS[i % SUBJECTS.length],
      ...(body ? ["-m", body] : []),
    ], env);
  }
}

const TOKEN_BUCKET = `import type { Clock } from "../clock.ts";

/** A token bucket: \${capacity} tokens, refilled at \${ratePerSecond} a second. */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly capacity: number,
    readonly ratePerSecond: number,
    private readonly clock: Clock,
  ) {
    this.#tokens = capacity;
    this.#last = clock.now();
  }

  /** Takes one token when there is one; false when the caller must wait. */
  take(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #refill(): void {
    this.#tokens = Math.min(this.capacity, this.#tokens + 1);
    this.#last = this.clock.now();
  }
}
`;

const SLIDING_WINDOW = `import type { Clock } from "../clock.ts";

/** Allows \${limit} requests in any window of \${windowMs} milliseconds. */
export class SlidingWindow {
  #hits: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  take(): boolean {
    const now = this.clock.now();
    while (this.#hits.length && this.#hits[0] <= now - this.windowMs) this.#hits.shift();
    if (this.#hits.length >= this.limit) return false;
    this.#hits.push(now);
    return true;
  }
}
`;

const SERVER = `import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { limit } from "./middleware.ts";
import type { Limiter } from "../limiter/limiter.ts";

export function serve(port: number, limiter: Limiter): void {
  const handle = limit(limiter, (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok\\n");
  });
  createServer(handle).listen(port);
}
`;

const MIDDLEWARE = `import type { IncomingMessage, ServerResponse } from "node:http";
import type { Limiter } from "../limiter/limiter.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers 429 when the limiter has no token for the request. */
export function limit(limiter: Limiter, next: Handler): Handler {
  return (req, res) => {
    if (!limiter.take()) {
      res.writeHead(429, { "retry-after": "1" });
      res.end();
      return;
    }
    next(req, res);
  };
}
`;

const INDEX = `export { TokenBucket } from "./limiter/token_bucket.ts";
export { SlidingWindow } from "./limiter/sliding_window.ts";
export { serve } from "./http/server.ts";
export { limit } from "./http/middleware.ts";
`;

const README = `# ratelimit

Rate limiting for small HTTP services: a token bucket and a sliding window, and a
middleware that answers 429 with a Retry-After header.

## Use

    deno run -A src/main.ts --port 8080 --rate 50
`;

const ARCHITECTURE = `# Architecture

- \`src/limiter/\`: the algorithms, each behind the \`Limiter\` interface.
- \`src/http/\`: the server and the middleware.
- \`tests/\`: one test file per limiter.
`;

function testFile(name: string, cls: string, cases: number): string {
  const lines = [
    `import { assertEquals } from "jsr:@std/assert";`,
    `import { ${cls} } from "../src/limiter/${name}.ts";`,
    `import { FakeClock } from "./fake_clock.ts";`,
    "",
  ];
  for (let i = 1; i <= cases; i++) {
    lines.push(
      `Deno.test("${cls} case ${i}: allows ${i} request${
        i === 1 ? "" : "s"
      } then refuses", () => {`,
      `  const limiter = new ${cls}(${i}, 1000, new FakeClock(0));`,
      `  for (let k = 0; k < ${i}; k++) assertEquals(limiter.take(), true);`,
      `  assertEquals(limiter.take(), false);`,
      `});`,
      "",
    );
  }
  return lines.join("\n");
}

function limitsTable(rows: number): string {
  const lines = [
    "/** Default limits per route, generated from ops/limits.csv. */",
    "export const DEFAULT_LIMITS = [",
  ];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `  { route: "/api/v1/resource-${i}", rate: ${10 + (i * 7) % 90}, burst: ${
        20 + (i * 13) % 180
      } },`,
    );
  }
  lines.push("] as const;", "");
  return lines.join("\n");
}

// A few bytes with NULs, so git counts the file as binary; `n` sets its size.
function logo(n: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(n);
  const header = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
  bytes.set(header);
  for (let i = header.length; i < n; i++) bytes[i] = (i * 31 + seed * 17) % 251;
  return bytes;
}

const LEGACY_ADAPTER =
  "src/transport/http/adapters/express/compatibility/legacy_middleware_adapter_v4.ts";

/**
 * A small service's history for `--stat`: 15 commits by two authors taking turns, two a day,
 * most touching several files, with renames (a file, a directory), a binary file, a merge, a
 * path longer than an 80-column stat gives, and a 400-line table.
 */
async function buildStatHistory(dir: string): Promise<void> {
  await git(".", ["init", "-q", "-b", "main", dir]);
  const ada = ["Ada Lovelace", "ada@example.com"];
  const grace = ["Grace Hopper", "grace@example.com"];
  let n = 0;
  const envOf = (who: string[]) => {
    n++;
    // Two commits a day, one in the morning and one in the afternoon.
    const day = String(6 + Math.floor((n - 1) / 2)).padStart(2, "0");
    const hour = String(9 + ((n - 1) % 2) * 5).padStart(2, "0");
    const date = `2026-10-${day}T${hour}:${String((n * 11) % 60).padStart(2, "0")}:00+02:00`;
    return {
      GIT_AUTHOR_NAME: who[0],
      GIT_AUTHOR_EMAIL: who[1],
      GIT_COMMITTER_NAME: who[0],
      GIT_COMMITTER_EMAIL: who[1],
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
  };
  const write = async (path: string, text: string) => {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  };
  const edit = async (path: string, find: string, replace: string) => {
    const text = await Deno.readTextFile(`${dir}/${path}`);
    if (!text.includes(find)) throw new Error(`${path}: anchor not found: ${find}`);
    await Deno.writeTextFile(`${dir}/${path}`, text.replace(find, replace));
  };
  const commit = async (who: string[], message: string) => {
    await git(dir, ["add", "-A"]);
    await git(dir, ["commit", "-q", "-m", message], envOf(who));
  };

  await write("package.json", '{\n  "name": "ratelimit",\n  "version": "0.1.0"\n}\n');
  await write("README.md", README);
  await write("docs/architecture.md", ARCHITECTURE);
  await write("src/index.ts", INDEX);
  await write("src/clock.ts", "export interface Clock {\n  now(): number;\n}\n");
  await write("src/limiter/limiter.ts", "export interface Limiter {\n  take(): boolean;\n}\n");
  await write("src/limiter/token_bucket.ts", TOKEN_BUCKET);
  await write("src/limiter/sliding_window.ts", SLIDING_WINDOW);
  await write("src/http/server.ts", SERVER);
  await write("src/http/middleware.ts", MIDDLEWARE);
  await write("tests/token_bucket_test.ts", testFile("token_bucket", "TokenBucket", 3));
  await write(
    "tests/fake_clock.ts",
    "export class FakeClock {\n  constructor(public t: number) {}\n  now(): number {\n    return this.t;\n  }\n}\n",
  );
  await Deno.mkdir(`${dir}/assets`, { recursive: true });
  await Deno.writeFile(`${dir}/assets/logo.png`, logo(1843, 1));
  await commit(ada, "Initial import of the rate limiter service");

  await write("tests/sliding_window_test.ts", testFile("sliding_window", "SlidingWindow", 4));
  await edit(
    "README.md",
    "## Use\n",
    "## Use\n\nBoth limiters take a clock, so tests run without waiting.\n",
  );
  await commit(ada, "test: cover the sliding window at its limit");

  await edit(
    "src/limiter/token_bucket.ts",
    "    this.#tokens = Math.min(this.capacity, this.#tokens + 1);\n",
    "    const now = this.clock.now();\n" +
      "    const elapsed = (now - this.#last) / 1000;\n" +
      "    this.#tokens = Math.min(this.capacity, this.#tokens + elapsed * this.ratePerSecond);\n",
  );
  await edit(
    "src/limiter/token_bucket.ts",
    "    this.#last = this.clock.now();\n  }\n}",
    "    this.#last = now;\n  }\n}",
  );
  await write("tests/token_bucket_test.ts", testFile("token_bucket", "TokenBucket", 5));
  await commit(
    ada,
    "fix(token-bucket): refill by elapsed time, not by call count\n\n" +
      "A burst of calls inside one millisecond refilled the bucket once per call,\n" +
      "so a client could send at any rate it liked.\n\nFixes #18.",
  );

  await git(dir, ["mv", "src/http", "src/transport"]);
  await Deno.mkdir(`${dir}/src/transport/http`, { recursive: true });
  await git(dir, ["mv", "src/transport/server.ts", "src/transport/http/server.ts"]);
  await git(dir, ["mv", "src/transport/middleware.ts", "src/transport/http/middleware.ts"]);
  await edit("src/index.ts", '"./http/server.ts"', '"./transport/http/server.ts"');
  await edit("src/index.ts", '"./http/middleware.ts"', '"./transport/http/middleware.ts"');
  await edit(
    "src/transport/http/server.ts",
    '"../limiter/limiter.ts"',
    '"../../limiter/limiter.ts"',
  );
  await edit(
    "src/transport/http/middleware.ts",
    '"../limiter/limiter.ts"',
    '"../../limiter/limiter.ts"',
  );
  await edit("docs/architecture.md", "`src/http/`", "`src/transport/http/`");
  await commit(grace, "refactor: move the HTTP layer under src/transport/http");

  await git(dir, ["checkout", "-q", "-b", "metrics"]);
  await write(
    "src/metrics/counter.ts",
    "/** Counts what the limiter refused, per route. */\nexport class Counter {\n" +
      "  readonly #counts = new Map<string, number>();\n\n" +
      "  add(route: string): void {\n    this.#counts.set(route, (this.#counts.get(route) ?? 0) + 1);\n  }\n\n" +
      "  get(route: string): number {\n    return this.#counts.get(route) ?? 0;\n  }\n}\n",
  );
  await edit(
    "src/transport/http/middleware.ts",
    '      res.writeHead(429, { "retry-after": "1" });\n',
    '      rejected.add(req.url ?? "/");\n      res.writeHead(429, { "retry-after": "1" });\n',
  );
  await edit(
    "src/transport/http/middleware.ts",
    "type Handler",
    'import { Counter } from "../../metrics/counter.ts";\n\n/** Requests refused, per route. */\nexport const rejected = new Counter();\n\ntype Handler',
  );
  await commit(grace, "feat(metrics): count rejected requests per route");
  await git(dir, ["checkout", "-q", "main"]);
  await edit("README.md", "answers 429 with", "answers HTTP 429 with");
  await edit("docs/architecture.md", "- `tests/`", "- `assets/`: the logo.\n- `tests/`");
  await commit(grace, "docs: say what each directory holds");
  await git(dir, ["merge", "-q", "--no-ff", "-m", "Merge branch 'metrics'", "metrics"], envOf(ada));

  await git(dir, ["mv", "src/limiter/sliding_window.ts", "src/limiter/sliding_log.ts"]);
  await git(dir, ["mv", "tests/sliding_window_test.ts", "tests/sliding_log_test.ts"]);
  await edit("src/limiter/sliding_log.ts", "export class SlidingWindow", "export class SlidingLog");
  await edit(
    "src/limiter/sliding_log.ts",
    "/** Allows",
    "/** Keeps a log of request times. Allows",
  );
  for (let i = 0; i < 6; i++) {
    await edit("tests/sliding_log_test.ts", "SlidingWindow", "SlidingLog");
  }
  await edit("tests/sliding_log_test.ts", "sliding_window.ts", "sliding_log.ts");
  await edit(
    "src/index.ts",
    'export { SlidingWindow } from "./limiter/sliding_window.ts"',
    'export { SlidingLog } from "./limiter/sliding_log.ts"',
  );
  await commit(
    ada,
    "refactor: rename SlidingWindow to SlidingLog\n\n" +
      "It keeps a log of timestamps; a sliding window counter is a different algorithm.",
  );

  await write(
    LEGACY_ADAPTER,
    'import type { Handler } from "../../../middleware.ts";\n\n' +
      "/** Wraps a handler for Express 4's (req, res, next) signature. */\n" +
      "export const adapt = (h: Handler) => (req: unknown, res: unknown, next: () => void) => {\n" +
      "  h(req as never, res as never);\n  next();\n};\n",
  );
  await edit("src/transport/http/middleware.ts", "type Handler =", "export type Handler =");
  await commit(ada, "feat(transport): adapt the middleware for Express 4 apps");

  await edit(
    "src/limiter/token_bucket.ts",
    "  take(): boolean {\n",
    "  take(): boolean {\n    if (this.capacity === 0) return false;\n",
  );
  await edit(
    "tests/token_bucket_test.ts",
    'import { FakeClock } from "./fake_clock.ts";\n',
    'import { FakeClock } from "./fake_clock.ts";\n\nDeno.test("TokenBucket with no capacity refuses", () => {\n  assertEquals(new TokenBucket(0, 1, new FakeClock(0)).take(), false);\n});\n',
  );
  await commit(grace, "fix(token-bucket): refuse everything when the capacity is zero");

  await edit("package.json", '"version": "0.1.0"', '"version": "0.2.0"');
  await edit(
    "README.md",
    "# ratelimit\n",
    "# ratelimit\n\nVersion 0.2.0: sliding logs, metrics, Express 4.\n",
  );
  await commit(grace, "release: 0.2.0");

  await write("src/config/default_limits.ts", limitsTable(400));
  await edit(
    "src/index.ts",
    "export { limit }",
    'export { DEFAULT_LIMITS } from "./config/default_limits.ts";\nexport { limit }',
  );
  await commit(grace, "feat(config): add the default limits table for every public route");

  await Deno.remove(`${dir}/tests/fake_clock.ts`);
  await write(
    "tests/support/fake_clock.ts",
    "export class FakeClock {\n  constructor(public t: number) {}\n  now(): number {\n    return this.t;\n  }\n\n  advance(ms: number): void {\n    this.t += ms;\n  }\n}\n",
  );
  for (const t of ["tests/token_bucket_test.ts", "tests/sliding_log_test.ts"]) {
    await edit(t, '"./fake_clock.ts"', '"./support/fake_clock.ts"');
  }
  await commit(ada, "test: move the fake clock under tests/support and let it advance");

  await edit(
    "src/transport/http/server.ts",
    '    res.end("ok\\n");\n',
    '    res.end("ok\\n");\n    log(req.method ?? "GET", req.url ?? "/", 200);\n',
  );
  await edit("src/transport/http/server.ts", "(_req: IncomingMessage", "(req: IncomingMessage");
  await edit(
    "src/transport/http/server.ts",
    "import { limit }",
    'import { log } from "../../log.ts";\nimport { limit }',
  );
  await write(
    "src/log.ts",
    "export function log(method: string, url: string, status: number): void {\n  console.log(`${method} ${url} ${status}`);\n}\n",
  );
  await commit(ada, "feat(http): log each request with its status");

  await Deno.writeFile(`${dir}/assets/logo.png`, logo(2611, 2));
  await edit("README.md", "# ratelimit\n", "# ratelimit\n\n![ratelimit](assets/logo.png)\n");
  await commit(grace, "chore: replace the logo with the new brand mark");
}

interface Case {
  name: string;
  cwd: string;
  typed: string[];
  ran: string[];
  shown: number;
}

async function capture(c: Case): Promise<void> {
  const raw = await git(c.cwd, c.typed.slice(1));
  const shaped = await git(c.cwd, c.ran.slice(1));
  const rest = c.typed.slice(2);
  const hashes = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%h"])).trimEnd().split(
    "\n",
  );
  const subjects = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%s"])).trimEnd()
    .split("\n");
  const authors = (await git(c.cwd, ["log", ...rest, `-${c.shown}`, "--format=%an <%ae>"]))
    .trimEnd().split("\n");
  const dir = `${FIXTURES}${c.name}`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/raw.out`, raw);
  await Deno.writeTextFile(`${dir}/shaped.out`, shaped);
  const meta = {
    filter: "git log",
    typed: c.typed,
    ran: c.ran,
    exitCode: 0,
    facts: [...new Set([...hashes, ...subjects.map((s) => ` ${s}\n`), ...authors])],
    factsSource: `git log ${
      rest.join(" ")
    } -${c.shown} with --format=%h, %s and "%an <%ae>": every shown commit's hash, whole subject and author`,
  };
  await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify(meta, null, 2) + "\n");
  console.log(`${c.name}: raw ${raw.length} chars, shaped ${shaped.length}`);
}

interface StatCase extends Case {
  /** Which stat the command prints: every file and a summary, or the summary alone. */
  stat: "stat" | "shortstat";
}

// A binary file's size in bytes at `rev`, 0 where it does not exist (git's `Bin 0 -> n`).
async function blobSize(cwd: string, rev: string, path: string): Promise<number> {
  const out = await new Deno.Command("git", {
    args: ["cat-file", "-s", `${rev}:${path}`],
    cwd,
    env: ENV,
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.code === 0 ? Number(new TextDecoder().decode(out.stdout).trim()) : 0;
}

// One commit's files as `git log -1 --numstat -z` gives them (renames as two NUL-separated
// paths), written the way the filter must show them: `path +a −d`, `old → new +a −d`, and
// `path Bin <old size> -> <new size> bytes` from `git cat-file -s`.
async function fileFacts(cwd: string, hash: string): Promise<string[]> {
  const tokens = (await git(cwd, ["log", "-1", "--numstat", "-z", "--format=", hash]))
    .replace(/^\n+/, "").split("\0");
  const facts: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/.exec(tokens[i]);
    if (!m) continue;
    const paths = m[3] !== "" ? [m[3]] : [tokens[++i], tokens[++i]];
    const name = paths.join(" → ");
    if (m[1] === "-") {
      const before = await blobSize(cwd, `${hash}^`, paths[0]);
      const after = await blobSize(cwd, hash, paths[paths.length - 1]);
      facts.push(`${name} Bin ${before} -> ${after} bytes`);
    } else facts.push(`${name} +${m[1]} −${m[2]}`);
  }
  return facts;
}

// One commit's `git log -1 --shortstat` line, as its numbers: `3 files, +20 −5`.
async function summaryFact(cwd: string, hash: string): Promise<string[]> {
  const line = (await git(cwd, ["log", "-1", "--shortstat", "--format=", hash])).trim();
  if (line === "") return [];
  const m = /^(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$/
    .exec(line);
  if (!m) throw new Error(`unexpected --shortstat line: ${line}`);
  const files = Number(m[1]);
  return [`${files} ${files === 1 ? "file" : "files"}, +${m[2] ?? 0} −${m[3] ?? 0}`];
}

async function captureStat(c: StatCase): Promise<void> {
  const raw = await git(c.cwd, c.typed.slice(1));
  const shaped = await git(c.cwd, c.ran.slice(1));
  const revs = c.typed.slice(2).filter((a) => a !== "--stat" && a !== "--shortstat");
  const shown = ["log", ...revs, `-${c.shown}`];
  const lines = async (format: string) =>
    (await git(c.cwd, [...shown, `--format=${format}`])).trimEnd().split("\n");
  const hashes = await lines("%h");
  const subjects = await lines("%s");
  const authors = await lines("%an <%ae>");
  const parents = await lines("%p");
  const stats: string[] = [];
  for (const [i, hash] of hashes.entries()) {
    // git log prints no diff for a merge unless asked (-m, --cc, --first-parent).
    if (parents[i].split(" ").length > 1) continue;
    if (c.stat === "stat") stats.push(...await fileFacts(c.cwd, hash));
    stats.push(...await summaryFact(c.cwd, hash));
  }
  const dir = `${FIXTURES}${c.name}`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/raw.out`, raw);
  await Deno.writeTextFile(`${dir}/shaped.out`, shaped);
  const meta = {
    filter: "git log",
    typed: c.typed,
    ran: c.ran,
    exitCode: 0,
    facts: [...new Set([...hashes, ...subjects.map((s) => ` ${s}\n`), ...authors, ...stats])],
    factsSource:
      `${
        ["git log", ...revs, `-${c.shown}`].join(" ")
      } with --format=%h, %s, "%an <%ae>" and %p: every shown commit's hash, whole ` +
      `subject and author; for each commit but a merge, ${
        c.stat === "stat"
          ? "git log -1 --numstat -z (each file's counts, both paths of a rename) and " +
            "git cat-file -s (a binary file's sizes before and after), and "
          : ""
      }git log -1 --shortstat (the summary's numbers)`,
  };
  await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify(meta, null, 2) + "\n");
  console.log(`${c.name}: raw ${raw.length} chars, shaped ${shaped.length}`);
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "rtok-capture-log-" });
  try {
    await buildLab(`${tmp}/lab`);
    await buildHistory(`${tmp}/history`);
    await capture({
      name: "git_log_lab",
      cwd: `${tmp}/lab`,
      typed: ["git", "log"],
      ran: ["git", "log", "-n", "50"],
      shown: 10,
    });
    await capture({
      name: "git_log_history",
      cwd: `${tmp}/history`,
      typed: ["git", "log"],
      ran: ["git", "log", "-n", "50"],
      shown: 10,
    });
    await capture({
      name: "git_log_author",
      cwd: `${tmp}/history`,
      typed: ["git", "log", "--author=Grace"],
      ran: ["git", "log", "-n", "50", "--author=Grace"],
      shown: 10,
    });
    await capture({
      name: "git_log_n20",
      cwd: `${tmp}/history`,
      typed: ["git", "log", "-20"],
      ran: ["git", "log", "-20"],
      shown: 20,
    });
    await buildStatHistory(`${tmp}/service`);
    const statShape = ["--numstat", "--stat-width=4096", "--stat-graph-width=10"];
    await captureStat({
      name: "git_log_stat",
      cwd: `${tmp}/service`,
      typed: ["git", "log", "--stat"],
      ran: ["git", "log", "-n", "50", ...statShape, "--stat"],
      shown: 10,
      stat: "stat",
    });
    await captureStat({
      name: "git_log_stat_1",
      cwd: `${tmp}/service`,
      typed: ["git", "log", "--stat", "-1"],
      ran: ["git", "log", ...statShape, "--stat", "-1"],
      shown: 1,
      stat: "stat",
    });
    await captureStat({
      name: "git_log_shortstat",
      cwd: `${tmp}/service`,
      typed: ["git", "log", "--shortstat"],
      ran: ["git", "log", "-n", "50", "--shortstat"],
      shown: 10,
      stat: "shortstat",
    });
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
