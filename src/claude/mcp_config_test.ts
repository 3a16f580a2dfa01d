import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { mcpConfigPaths, mcpEntry, registerMcp, unregisterMcp } from "./mcp_config.ts";

const ENTRY = mcpEntry("rtok");

Deno.test("mcpEntry() turns rtok's shell words into a stdio server that runs rtok mcp", () => {
  deepStrictEqual(ENTRY, { type: "stdio", command: "rtok", args: ["mcp"], env: {} });
  deepStrictEqual(
    mcpEntry("'/opt/my deno/deno' run -q --allow-read /src/cli.ts").args,
    ["run", "-q", "--allow-read", "/src/cli.ts", "mcp"],
  );
  strictEqual(mcpEntry("'/opt/my deno/deno' run").command, "/opt/my deno/deno");
});

Deno.test("registerMcp() adds rtok beside other servers and is idempotent", () => {
  const before = { userID: "u", mcpServers: { other: { type: "stdio", command: "x" } } };
  const once = registerMcp(before, ENTRY);
  strictEqual(once.changed, true);
  deepStrictEqual(once.config, {
    userID: "u",
    mcpServers: { other: { type: "stdio", command: "x" }, rtok: ENTRY },
  });
  const twice = registerMcp(once.config, ENTRY);
  strictEqual(twice.changed, false);
  strictEqual(twice.config, once.config);
  strictEqual(registerMcp(once.config, mcpEntry("/new/rtok")).changed, true);
});

Deno.test("unregisterMcp() removes only rtok's server", () => {
  const r = unregisterMcp({ a: 1, mcpServers: { rtok: ENTRY, other: {} } });
  deepStrictEqual(r, { config: { a: 1, mcpServers: { other: {} } }, changed: true });
  strictEqual(unregisterMcp({ a: 1 }).changed, false);
});

Deno.test("registerMcp() refuses an mcpServers that is not an object", () => {
  throws(() => registerMcp({ mcpServers: [] }, ENTRY), /"mcpServers" is not a JSON object/);
});

Deno.test("mcpConfigPaths() follows CLAUDE_CONFIG_DIR, else HOME", () => {
  deepStrictEqual(mcpConfigPaths({ home: "/h" }, "/p"), {
    user: "/h/.claude.json",
    project: "/p/.mcp.json",
  });
  strictEqual(mcpConfigPaths({ home: "/h", claudeConfigDir: "/c" }, "/p").user, "/c/.claude.json");
  throws(() => mcpConfigPaths({}, "/p"), /set HOME or CLAUDE_CONFIG_DIR/);
});
