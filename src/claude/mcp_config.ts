/**
 * Registering `rtok mcp` with Claude Code: an `mcpServers.rtok` entry (a stdio server) in
 * `~/.claude.json` (user scope; `$CLAUDE_CONFIG_DIR/.claude.json` when that is set), or in a
 * project's `.mcp.json` (project scope, shared with the repository). Every other key of the
 * file is kept as it was.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import { lex } from "../core/lexer.ts";

/** The server's name in Claude Code's `mcpServers`. */
export const MCP_SERVER_NAME = "rtok";

/** A stdio MCP server entry, in the shape `claude mcp add` writes. */
export interface McpEntry {
  /** Always `stdio`. */
  readonly type: "stdio";
  /** The program. */
  readonly command: string;
  /** Its arguments, ending in `mcp`. */
  readonly args: readonly string[];
  /** Extra environment (none). */
  readonly env: Readonly<Record<string, string>>;
}

/** Where Claude Code keeps MCP servers, by scope. */
export interface McpConfigPaths {
  /** `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`. */
  readonly user: string;
  /** `<cwd>/.mcp.json`. */
  readonly project: string;
}

/** The files Claude Code reads MCP servers from. Throws when neither home is known. */
export function mcpConfigPaths(
  env: { readonly home?: string; readonly claudeConfigDir?: string },
  cwd: string,
): McpConfigPaths {
  const dir = env.claudeConfigDir || env.home;
  if (!dir) throw new Error("Cannot find Claude Code's config: set HOME or CLAUDE_CONFIG_DIR");
  return { user: joinPath(dir, ".claude.json"), project: joinPath(cwd, ".mcp.json") };
}

/**
 * The entry that starts `rtok mcp`, from the shell words that reach rtok (`rtok`, a launcher
 * by path, or Deno running this program; see `rtokInvocation`).
 */
export function mcpEntry(invocation: string): McpEntry {
  const lexed = lex(invocation);
  const words = lexed.ok ? lexed.tokens.flatMap((t) => t.kind === "word" ? [t.value] : []) : [];
  if (words.length === 0) throw new TypeError(`Cannot read rtok's invocation "${invocation}"`);
  return { type: "stdio", command: words[0], args: [...words.slice(1), "mcp"], env: {} };
}

/** What a change did: the new file contents and whether they differ from the old. */
export interface McpChange {
  /** The whole file's object after the change. */
  readonly config: Record<string, unknown>;
  /** False when the file already was as asked. */
  readonly changed: boolean;
}

/** Adds or updates `mcpServers.rtok`. Throws a `TypeError` when `mcpServers` is not an object. */
export function registerMcp(config: Record<string, unknown>, entry: McpEntry): McpChange {
  const servers = _servers(config);
  if (JSON.stringify(servers[MCP_SERVER_NAME]) === JSON.stringify(entry)) {
    return { config, changed: false };
  }
  return {
    config: { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } },
    changed: true,
  };
}

/** Removes `mcpServers.rtok`, and nothing else. */
export function unregisterMcp(config: Record<string, unknown>): McpChange {
  const servers = _servers(config);
  if (!Object.hasOwn(servers, MCP_SERVER_NAME)) return { config, changed: false };
  const { [MCP_SERVER_NAME]: _gone, ...rest } = servers;
  return { config: { ...config, mcpServers: rest }, changed: true };
}

function _servers(config: Record<string, unknown>): Record<string, unknown> {
  const s = config.mcpServers;
  if (s === undefined) return {};
  if (typeof s !== "object" || s === null || Array.isArray(s)) {
    throw new TypeError('its "mcpServers" is not a JSON object');
  }
  return s as Record<string, unknown>;
}
