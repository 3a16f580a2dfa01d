import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { claudeBinary } from "./_claude.ts";
import { denoDir, type Ran, rtok, run, tempDir } from "./_helpers.ts";

/** A temp HOME with a Claude Code state file of its own, a project dir, RTOK_HOME. */
function sandbox() {
  const dir = tempDir("rtok-init-mcp-");
  const home = `${dir.path}/home`;
  const cwd = `${dir.path}/project`;
  const bin = `${dir.path}/bin`;
  for (const d of [home, cwd, bin]) Deno.mkdirSync(d);
  const env = { HOME: home, PATH: bin, CLAUDE_CONFIG_DIR: "", DENO_INSTALL_ROOT: "" };
  return {
    dir,
    home,
    cwd,
    state: `${home}/.claude.json`,
    init: (args: string[]): Promise<Ran> =>
      rtok(`${dir.path}/rtok-home`, ["init", "--no-serve", ...args], { env, cwd }),
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  };
}

const STATE = { userID: "u1", mcpServers: { other: { type: "stdio", command: "x", args: [] } } };

function backups(path: string): number {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const name = path.slice(path.lastIndexOf("/") + 1);
  return [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith(`${name}.rtok-backup-`))
    .length;
}

Deno.test("rtok init --mcp registers rtok mcp once, beside the user's servers; --uninstall removes it", async () => {
  using box = sandbox();
  Deno.writeTextFileSync(box.state, JSON.stringify(STATE));
  const dry = await box.init(["--mcp", "--dry-run"]);
  strictEqual(dry.code, 0, dry.err);
  match(dry.out, /would register MCP server "rtok" \(.*cli\.ts mcp\) in .*\.claude\.json/);
  strictEqual(Deno.readTextFileSync(box.state), JSON.stringify(STATE));

  const first = await box.init(["--mcp"]);
  strictEqual(first.code, 0, first.err);
  const state = JSON.parse(Deno.readTextFileSync(box.state));
  strictEqual(state.userID, "u1");
  deepStrictEqual(Object.keys(state.mcpServers), ["other", "rtok"]);
  strictEqual(state.mcpServers.rtok.type, "stdio");
  deepStrictEqual(state.mcpServers.rtok.args.slice(-2), [
    new URL("../cli.ts", import.meta.url).pathname,
    "mcp",
  ]);
  strictEqual(backups(box.state), 1);

  const again = await box.init(["--mcp"]);
  match(again.out, /MCP server "rtok" .* already registered/);
  strictEqual(backups(box.state), 1, "no second backup");

  const gone = await box.init(["--uninstall"]);
  strictEqual(gone.code, 0, gone.err);
  match(gone.out, /removed MCP server "rtok" from/);
  deepStrictEqual(JSON.parse(Deno.readTextFileSync(box.state)).mcpServers, STATE.mcpServers);
});

Deno.test("rtok init --mcp --project writes the project's .mcp.json", async () => {
  using box = sandbox();
  const r = await box.init(["--mcp", "--project"]);
  strictEqual(r.code, 0, r.err);
  const file = JSON.parse(Deno.readTextFileSync(`${box.cwd}/.mcp.json`));
  deepStrictEqual(Object.keys(file.mcpServers), ["rtok"]);
  match(r.out, /approve/);
});

Deno.test("rtok init --mcp refuses a state file whose mcpServers is not an object", async () => {
  using box = sandbox();
  Deno.writeTextFileSync(box.state, '{"mcpServers": []}');
  const r = await box.init(["--mcp"]);
  strictEqual(r.code, 1);
  match(r.err, /Cannot edit ".*\.claude\.json": its "mcpServers" is not a JSON object/);
  strictEqual(Deno.readTextFileSync(box.state), '{"mcpServers": []}');
});

Deno.test({
  name: "Claude Code itself sees the server rtok init --mcp registered, and connects to it",
  async fn() {
    using box = sandbox();
    const init = await box.init(["--mcp"]);
    strictEqual(init.code, 0, init.err);
    const claude = await claudeBinary();
    const node = (await run("sh", ["-c", "command -v node"])).out.trim();
    const env = {
      HOME: box.home,
      PATH: `${node.slice(0, node.lastIndexOf("/"))}:/usr/bin:/bin`,
      RTOK_HOME: `${box.dir.path}/rtok-home`,
      DENO_DIR: await denoDir(),
    };
    const get = await run(claude, ["mcp", "get", "rtok"], { cwd: box.cwd, env });
    strictEqual(get.code, 0, get.err + get.out);
    match(get.out, /Scope: User config/);
    match(get.out, /Status: ✔ Connected/);
    const list = await run(claude, ["mcp", "list"], { cwd: box.cwd, env });
    ok(/rtok: .*cli\.ts mcp - ✔ Connected/.test(list.out), list.out);
  },
});
