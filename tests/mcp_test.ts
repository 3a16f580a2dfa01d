import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type CallToolResult,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  buildLab,
  CLI,
  denoDir,
  ledger,
  pointerId,
  rtok,
  RTOK_PERMS,
  run,
  tempDir,
} from "./_helpers.ts";
import { TOOL_NAMES } from "../src/surfaces/mcp/mod.ts";
import { MAX_ANSWER_CHARS } from "../src/surfaces/mcp/tools.ts";

async function env(home: string): Promise<Record<string, string>> {
  return {
    RTOK_HOME: home,
    DENO_DIR: await denoDir(),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? home,
    NO_COLOR: "1",
  };
}

/** The official SDK client, connected to `rtok mcp` spawned over stdio in `cwd`. */
async function connect(home: string, cwd: string): Promise<Client & AsyncDisposable> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...RTOK_PERMS, CLI, "mcp"],
    env: await env(home),
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "rtok-test", version: "1.0.0" });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

function text(r: unknown): string {
  const c = (r as CallToolResult).content[0];
  return c.type === "text" ? c.text : "";
}

Deno.test("rtok mcp: the SDK client's handshake, and every tool listed with schema and annotations", async () => {
  using dir = tempDir();
  await using client = await connect(`${dir.path}/home`, dir.path);
  deepStrictEqual(client.getServerVersion(), { name: "rtok", version: "0.1.0" });
  ok(client.getServerCapabilities()?.tools, "tools capability");
  const { tools } = await client.listTools() as { tools: Tool[] };
  deepStrictEqual(tools.map((t) => t.name), TOOL_NAMES);
  const by = new Map(tools.map((t) => [t.name, t]));
  for (const t of tools) {
    strictEqual(t.inputSchema.type, "object", t.name);
    ok((t.description ?? "").length > 100, `${t.name} has a description written for a model`);
  }
  deepStrictEqual(Object.keys(by.get("rtok_run")!.inputSchema.properties!), [
    "command",
    "shell",
    "cwd",
    "timeoutMs",
  ]);
  deepStrictEqual(by.get("rtok_expand")!.inputSchema.required, ["id"]);
  deepStrictEqual(by.get("rtok_search")!.inputSchema.required, ["query"]);
  strictEqual(by.get("rtok_run")!.annotations?.readOnlyHint, false);
  deepStrictEqual(by.get("rtok_read")!.inputSchema.required, ["path"]);
  deepStrictEqual(by.get("rtok_symbols")!.inputSchema.required, ["name"]);
  for (const name of ["rtok_read", "rtok_expand", "rtok_search", "rtok_gain", "rtok_symbols"]) {
    strictEqual(by.get(name)!.annotations?.readOnlyHint, true, name);
    strictEqual(by.get(name)!.annotations?.idempotentHint, true, name);
  }
});

/** `rtok mcp` spoken to line by line, without the SDK: what a broken client might send. */
async function rawSession(home: string, lines: readonly string[]): Promise<unknown[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RTOK_PERMS, CLI, "mcp"],
    env: await env(home),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(lines.map((l) => l + "\n").join("")));
  await w.close();
  const out = await child.output();
  strictEqual(out.code, 0, "the server exits 0 when its input ends");
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

const init = (id: number, version: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });

Deno.test("rtok mcp accepts every protocol revision the SDK supports in initialize", async (t) => {
  using dir = tempDir();
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    await t.step(version, async () => {
      const [answer] = await rawSession(dir.path, [init(1, version)]) as {
        result: { protocolVersion: string };
      }[];
      strictEqual(answer.result.protocolVersion, version);
    });
  }
});

Deno.test("rtok mcp survives malformed lines, keeps answering, and writes only JSON-RPC to stdout", async () => {
  using dir = tempDir();
  const answers = await rawSession(dir.path, [
    "this is not json",
    '{"jsonrpc": "2.0", "id":',
    init(1, SUPPORTED_PROTOCOL_VERSIONS[0]),
    "[1, 2, 3]",
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    JSON.stringify({ hello: "world" }),
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "rtok_expand", arguments: { id: "zz" } },
    }),
    JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nope" } }),
  ]) as { id: number; result?: Record<string, unknown> }[];
  // Every stdout line parsed as JSON above; each request got its answer (JSON-RPC answers
  // may come in any order).
  answers.sort((a, b) => a.id - b.id);
  deepStrictEqual(answers.map((a) => a.id), [1, 2, 3, 4]);
  strictEqual((answers[1].result!.tools as unknown[]).length, TOOL_NAMES.length);
  strictEqual(answers[2].result!.isError, true);
  match(JSON.stringify(answers[2].result), /an id is 6 to 64 hex digits/);
  strictEqual(answers[3].result!.isError, true);
  match(JSON.stringify(answers[3].result), /Tool nope not found/);
});

Deno.test("rtok_run filters a command, and rtok_expand brings back the exact bytes, paged and selected", async () => {
  using dir = tempDir();
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  const raw = (await run("git", ["log"], { cwd: lab })).out;
  await using client = await connect(`${dir.path}/home`, lab);

  const ran = await client.callTool({ name: "rtok_run", arguments: { command: ["git", "log"] } });
  strictEqual(ran.isError, undefined, text(ran));
  const s = ran.structuredContent as { exitCode: number; archiveId: string; cwd: string };
  strictEqual(s.exitCode, 0);
  strictEqual(s.archiveId, pointerId(text(ran)));
  ok(text(ran).length < raw.length, "filtered");
  match(text(ran), /eae2af912e fix: stop the tokenizer/);

  const whole = await client.callTool({ name: "rtok_expand", arguments: { id: s.archiveId } });
  strictEqual(text(whole), raw);
  strictEqual((whole.structuredContent as { pages: number }).pages, 1);

  const grep = await client.callTool({
    name: "rtok_expand",
    arguments: { id: s.archiveId, grep: "Co-authored-by" },
  });
  match(text(grep), /^\d+:\s+Co-authored-by: Grace <grace@lab\.dev>\n$/);
  const head = await client.callTool({
    name: "rtok_expand",
    arguments: { id: s.archiveId.slice(0, 6), head: 1 },
  });
  strictEqual(text(head), raw.split("\n")[0] + "\n");

  const shell = await client.callTool({
    name: "rtok_run",
    arguments: { shell: "git log -3 && echo done", cwd: lab },
  });
  strictEqual((shell.structuredContent as { exitCode: number }).exitCode, 0);
  match(text(shell), /feat: add feature 11[\s\S]*done\n$/);
});

Deno.test("rtok_expand pages an output longer than one answer", async () => {
  using dir = tempDir();
  const big = `${dir.path}/big`;
  Deno.mkdirSync(big);
  // A find listing over the answer limit: the find filter cuts it and archives the raw list.
  for (let i = 0; i < 40; i++) {
    Deno.mkdirSync(`${big}/d${i}`);
    for (let j = 0; j < 40; j++) {
      Deno.writeTextFileSync(`${big}/d${i}/file-${"x".repeat(20)}-${j}`, "");
    }
  }
  const raw = (await run("find", ["."], { cwd: big })).out;
  ok(raw.length > MAX_ANSWER_CHARS, `${raw.length} chars`);
  await using client = await connect(`${dir.path}/home`, big);
  const ran = await client.callTool({ name: "rtok_run", arguments: { command: ["find", "."] } });
  const id = (ran.structuredContent as { archiveId: string | null }).archiveId;
  ok(id, text(ran).slice(-300));
  let joined = "";
  let pages = 0;
  for (let page = 1;; page++) {
    const r = await client.callTool({ name: "rtok_expand", arguments: { id, page } });
    const s = r.structuredContent as { page: number; pages: number };
    pages = s.pages;
    const body = text(r);
    ok(body.length <= MAX_ANSWER_CHARS + 200, `page ${page}: ${body.length} chars`);
    joined += page < pages ? body.replace(/\n\[rtok: page \d+ of \d+; next: [^\n]*\]$/, "") : body;
    if (page === pages) break;
  }
  ok(pages > 1);
  strictEqual(joined, raw);
  const past = await client.callTool({ name: "rtok_expand", arguments: { id, page: pages + 1 } });
  strictEqual(past.isError, true);
  match(text(past), new RegExp(`has ${pages} pages`));
});

Deno.test("rtok mcp tools answer bad arguments with an isError result and stay up", async (t) => {
  using dir = tempDir();
  await using client = await connect(`${dir.path}/home`, dir.path);
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ["run: neither", "rtok_run", {}, /give either "command".*or "shell"/],
    ["run: both", "rtok_run", { command: ["ls"], shell: "ls" }, /not both/],
    ["run: argv of the wrong type", "rtok_run", { command: "ls" }, /expected array/],
    ["run: empty argv", "rtok_run", { command: [] }, /command/],
    ["run: no such cwd", "rtok_run", { command: ["ls"], cwd: "/no/such/dir" }, /not a directory/],
    ["run: timeout not a number", "rtok_run", { shell: "ls", timeoutMs: "5" }, /timeoutMs/],
    ["expand: no id", "rtok_expand", {}, /id/],
    [
      "expand: unknown id",
      "rtok_expand",
      { id: "abcdef123456" },
      /No archived output with id "abcdef123456"/,
    ],
    ["expand: not hex", "rtok_expand", { id: "xyz" }, /an id is 6 to 64 hex digits/],
    [
      "expand: bad range",
      "rtok_expand",
      { id: "abcdef", lines: "9:3" },
      /lines "9:3": expected A:B/,
    ],
    ["expand: negative head", "rtok_expand", { id: "abcdef", head: -1 }, /head/],
    ["read: no path", "rtok_read", {}, /path/],
    ["read: no such file", "rtok_read", { path: "nope.ts" }, /Cannot read ".*nope\.ts"/],
    ["read: both views", "rtok_read", { path: "a", lines: "1:2", outline: true }, /give one/],
    ["read: bad range", "rtok_read", { path: "a", lines: "3:1" }, /lines "3:1": expected A:B/],
    ["search: empty query", "rtok_search", { query: "" }, /query/],
    ["search: limit too high", "rtok_search", { query: "x", limit: 1000 }, /limit/],
    ["gain: no such project", "rtok_gain", { project: "/no/such/dir" }, /not a directory/],
  ];
  for (const [name, tool, args, message] of cases) {
    await t.step(name, async () => {
      const r = await client.callTool({ name: tool, arguments: args });
      strictEqual(r.isError, true, JSON.stringify(r));
      match(text(r), message);
    });
  }
  strictEqual((await client.listTools()).tools.length, TOOL_NAMES.length, "still answering");
});

Deno.test("rtok_run reports a missing command and a timeout as results, and the server stays up", async () => {
  using dir = tempDir();
  await using client = await connect(`${dir.path}/home`, dir.path);
  const missing = await client.callTool({
    name: "rtok_run",
    arguments: { command: ["no-such-tool-rtok"] },
  });
  strictEqual(missing.isError, true);
  strictEqual((missing.structuredContent as { exitCode: number }).exitCode, 127);
  match(text(missing), /no-such-tool-rtok: .*not found/);

  const marker = `${dir.path}/survivor`;
  const slow = await client.callTool({
    name: "rtok_run",
    // The background child must die with the group, or it would write the marker.
    arguments: { shell: `(sleep 2; touch ${marker}) & sleep 30`, timeoutMs: 300 },
  });
  strictEqual(slow.isError, true);
  const s = slow.structuredContent as { exitCode: number; timedOut: boolean };
  deepStrictEqual([s.exitCode, s.timedOut], [124, true]);
  match(text(slow), /timed out after 300 ms/);

  const after = await client.callTool({ name: "rtok_run", arguments: { command: ["echo", "hi"] } });
  strictEqual(text(after), "hi\n");
  await new Promise((r) => setTimeout(r, 2500));
  ok(!(await Deno.stat(marker).then(() => true, () => false)), "the process group was killed");
});

Deno.test("rtok_search finds an output archived by a rtok run in another process", async () => {
  using dir = tempDir();
  const home = `${dir.path}/home`;
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  const cli = await rtok(home, ["git", "log"], { cwd: lab });
  const id = pointerId(cli.out);
  ok(id, cli.out);
  await using client = await connect(home, lab);
  // "Grace" is only in a trailer the filter cut.
  ok(!cli.out.includes("Grace"));
  const r = await client.callTool({ name: "rtok_search", arguments: { query: "Grace" } });
  const s = r.structuredContent as {
    matchedAs: string;
    hits: { id: string; command: string; lines: { text: string }[]; age: string }[];
  };
  strictEqual(s.matchedAs, "fts");
  deepStrictEqual(s.hits.map((h) => h.id), [id]);
  strictEqual(s.hits[0].command, "git log");
  match(s.hits[0].lines[0].text, /Co-authored-by: Grace/);
  match(text(r), new RegExp(`${id}  \\d+ s ago  exit 0  git log`));

  const broken = await client.callTool({
    name: "rtok_search",
    arguments: { query: "Grace AND (" },
  });
  strictEqual((broken.structuredContent as { matchedAs: string }).matchedAs, "words");
  strictEqual(broken.isError, undefined);

  const elsewhere = await client.callTool({
    name: "rtok_search",
    arguments: { query: "Grace", cwd: dir.path + "/home" },
  });
  strictEqual((elsewhere.structuredContent as { hits: unknown[] }).hits.length, 0);
  match(text(elsewhere), /No archived output/);
  const everywhere = await client.callTool({
    name: "rtok_search",
    arguments: { query: "Grace", cwd: home, allProjects: true },
  });
  strictEqual((everywhere.structuredContent as { hits: unknown[] }).hits.length, 1);

  const gain = await client.callTool({ name: "rtok_gain", arguments: { project: lab } });
  const g = gain.structuredContent as {
    estimated: boolean;
    runs: number;
    commands: { command: string }[];
    expandRates: { family: string; lossyRuns: number }[];
  };
  strictEqual(g.estimated, true);
  strictEqual(g.runs, 1);
  deepStrictEqual(g.commands.map((c) => c.command), ["git log"]);
  deepStrictEqual(g.expandRates.map((e) => [e.family, e.lossyRuns]), [["git log", 1]]);
});

Deno.test("rtok_read gives a long module's first lines and outline, exact lines, and the file back", async () => {
  using dir = tempDir();
  const home = `${dir.path}/home`;
  const lines = ["// a module"];
  for (let c = 0; c < 30; c++) {
    lines.push(`export class Widget${c} {`, `  render${c}(): string {`);
    for (let k = 0; k < 8; k++) lines.push(`    const part${k} = "${c}-${k}";`);
    lines.push('    return "";', "  }", "}");
  }
  const source = lines.join("\n") + "\n";
  Deno.writeTextFileSync(`${dir.path}/widgets.ts`, source);
  await using client = await connect(home, dir.path);
  const r = await client.callTool({ name: "rtok_read", arguments: { path: "widgets.ts" } });
  strictEqual(r.isError, undefined, text(r));
  const out = text(r);
  ok(out.startsWith(lines.slice(0, 20).join("\n")), out.slice(0, 300));
  for (let c = 0; c < 30; c++) {
    const start = 2 + c * 13;
    ok(out.includes(`class Widget${c} L${start}-${start + 12}`), `Widget${c} in:\n${out}`);
    ok(out.includes(`Widget${c}.render${c} L${start + 1}-${start + 11}`), `render${c}`);
  }
  const id = pointerId(out);
  ok(id, out.slice(-200));
  const back = await client.callTool({ name: "rtok_expand", arguments: { id } });
  strictEqual(text(back), source);
  const exact = await client.callTool({
    name: "rtok_read",
    arguments: { path: `${dir.path}/widgets.ts`, lines: "3:4" },
  });
  strictEqual(text(exact), `3\t${lines[2]}\n4\t${lines[3]}\n`);
  const shell = await client.callTool({ name: "rtok_run", arguments: { shell: "cat widgets.ts" } });
  ok(text(shell).includes("class Widget29 L"), "cat through rtok_run is read the same way");
});

Deno.test("rtok_run runs a plain command as the tool itself, filtered in the server, one mcp row", async () => {
  using dir = tempDir();
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  const home = `${dir.path}/home`;
  // The server runs elsewhere: the command's own directory decides its filter and project.
  await using client = await connect(home, dir.path);
  const direct = await run(Deno.execPath(), ["run", ...RTOK_PERMS, CLI, "git", "log"], {
    cwd: lab,
    env: await env(`${dir.path}/other`),
  });
  for (const args of [{ command: ["git", "log"] }, { shell: "git log" }]) {
    const r = await client.callTool({ name: "rtok_run", arguments: { ...args, cwd: lab } });
    const unpointed = (s: string) => s.replace(/rtok expand [0-9a-f]+\]\n$/, "]\n");
    strictEqual(unpointed(text(r)), unpointed(direct.out), "what rtok git log prints");
    strictEqual((r.structuredContent as { ran: string }).ran, "rtok git log");
  }
  const rows = ledger(home).filter((r) => r.family === "git log");
  deepStrictEqual(rows.map((r) => [r.surface, r.stage]), [
    ["mcp", "shape+filter"],
    ["mcp", "shape+filter"],
  ]);
  ok(rows.every((r) => r.project.endsWith("/lab")), rows[0].project);
  const slow = await client.callTool({
    name: "rtok_run",
    arguments: { command: ["sleep", "30"], timeoutMs: 300 },
  });
  deepStrictEqual(
    [(slow.structuredContent as { exitCode: number }).exitCode, slow.isError],
    [124, true],
  );
});

Deno.test("rtok_symbols answers where a name is defined and, asked, where it is used", async () => {
  using dir = tempDir();
  const root = `${dir.path}/proj`;
  Deno.mkdirSync(`${root}/.git`, { recursive: true });
  Deno.mkdirSync(`${root}/src`);
  Deno.writeTextFileSync(
    `${root}/src/tax.py`,
    "RATE = 0.2\n\n\ndef tax(amount):\n    return amount * RATE\n",
  );
  Deno.writeTextFileSync(`${root}/src/bill.py`, "from tax import tax\n\nprint(tax(10))\n");
  await using client = await connect(`${dir.path}/home`, root);
  const where = await client.callTool({ name: "rtok_symbols", arguments: { name: "tax" } });
  strictEqual(text(where), "function tax src/tax.py:4-5\n");
  const both = await client.callTool({
    name: "rtok_symbols",
    arguments: { name: "RATE", references: true },
  }) as CallToolResult;
  strictEqual(text(both), "variable RATE src/tax.py:1\nuses:\nsrc/tax.py: 5\n");
  deepStrictEqual(both.structuredContent?.references, [{ file: "src/tax.py", lines: [5] }]);
  const unknown = await client.callTool({ name: "rtok_symbols", arguments: { name: "taxes" } });
  match(text(unknown), /^no definition of "taxes" in .*; closest: tax\n/);
});
