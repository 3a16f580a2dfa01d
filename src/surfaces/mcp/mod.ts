/**
 * `rtok mcp`: a stdio MCP server on the official SDK, serving `rtok_run`, `rtok_expand`,
 * `rtok_search` and `rtok_gain`. Stdout carries protocol messages only; anything to say
 * goes to stderr. The SDK and zod load only here (the surface table imports this module
 * lazily), so no other rtok command pays for them.
 *
 * @module
 */

import process from "node:process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { VERSION } from "../_help.ts";
import { boot } from "../_boot.ts";
import { print, warn } from "../_io.ts";
import {
  DEFAULT_TIMEOUT_MS,
  type ExpandArgs,
  expandTool,
  type GainArgs,
  gainTool,
  MAX_ANSWER_CHARS,
  type ReadArgs,
  readTool,
  type RunArgs,
  runTool,
  type SearchArgs,
  searchTool,
  type SymbolsArgs,
  symbolsTool,
  TIMEOUT_EXIT_CODE,
  type ToolAnswer,
} from "./tools.ts";

/** `rtok mcp --help`. */
export const MCP_HELP = `rtok mcp: an MCP server on stdio (for Claude Code and other MCP clients)

Usage: rtok mcp

Tools: rtok_run (a command through rtok's filters), rtok_read (a file: a long one as its
first lines and an outline or summary, or exact lines), rtok_expand (the raw output behind
an archive id, paged), rtok_search (full-text search of this project's archived outputs),
rtok_gain (the savings summary), rtok_symbols (where a name is defined and used). Register
it with Claude Code: rtok init --mcp.
`;

/** The most results `rtok_search` returns at once. */
export const MAX_SEARCH_LIMIT = 25;

const _RUN_DESCRIPTION =
  "Run a command through rtok and get its output filtered for you: git log/status/diff/show, " +
  "grep/rg, ls/find/tree, test runners, compilers, linters and package installs print what " +
  "matters (every failure, path and count) in far fewer tokens; any other command's output " +
  "comes back unchanged. When something was cut, the output ends with " +
  '"[rtok: cut …; raw: rtok expand <id>]": call rtok_expand with that id for the exact raw ' +
  'output or the part you need. Give "command" as an argv array (run without a shell) or ' +
  '"shell" as one command line (pipes, &&, ; allowed). Returns stdout then stderr, the exit ' +
  `code (${TIMEOUT_EXIT_CODE} when stopped at the time limit) and the archive id when output ` +
  "was cut. A non-zero exit is reported as an error result with the output in it.";

const _EXPAND_DESCRIPTION =
  "Get the exact raw output rtok cut from a command's result, by the archive id on its " +
  '"[rtok: cut …; raw: rtok expand <id>]" line or from rtok_search. Ask for only what you ' +
  'need: "grep" (a regular expression; matching lines come back as "N:line"), "lines" ' +
  '("A:B", 1-based, inclusive; "A:" to the end), "head", "tail" (applied in that order). ' +
  `One answer is at most ${MAX_ANSWER_CHARS} characters; a longer one ends with a line ` +
  'naming the next "page".';

const _SEARCH_DESCRIPTION =
  "Full-text search over the raw outputs rtok archived for this project (earlier command " +
  "outputs whose filtered form cut something): which earlier output mentioned a name, an " +
  "error, a path. Returns each match's archive id (for rtok_expand), command, age, exit " +
  "code and its first matching lines, newest first. Query: words (all must appear), " +
  '"an exact phrase", prefix*, a OR b, NOT b; a query that is not valid in that syntax is ' +
  "searched as plain words.";

const _GAIN_DESCRIPTION =
  "rtok's savings from its ledger, as structured content: runs, estimated tokens the tools " +
  "printed and rtok emitted, saved %, per-command totals, and each filter's expand rate " +
  "(how often its cut outputs were asked for again; above 5 % it is flagged). Token counts " +
  "are estimates by text class, not provider counts.";

const _READ_DESCRIPTION =
  "Read a file the way an agent should first see it. A file over 250 lines or 12,000 " +
  "characters comes back as its first lines exactly, then a view of the rest: for code every " +
  "class, function and method with its line range (L120-168), for JSON its structure with " +
  "every key and value, for a log the count per level with every WARN and ERROR line whole; " +
  'the file is archived and the last line names it for rtok_expand. "lines" ("A:B") returns ' +
  'exact lines, each as "N<TAB>line"; "outline" asks for the view whatever the length. A ' +
  "shorter file comes back whole.";

const _SYMBOLS_DESCRIPTION =
  "Where a name (function, class, method, interface, type, struct, enum, constant) is " +
  "defined in this project, without grepping: one line per definition, " +
  '"<kind> <qualified name> <file>:<first line>-<last line>". With "references", also each ' +
  'file that uses the name and the lines it is used on ("<file>: 3, 17, 42"). From rtok\'s ' +
  "symbol index of the project's TypeScript, JavaScript, Python, Go, Rust and Java files, " +
  "re-read where a file changed. An unknown name gets the closest defined names.";

/** The server's tools, for a test to compare with what a client lists. */
export const TOOL_NAMES: readonly string[] = [
  "rtok_run",
  "rtok_read",
  "rtok_expand",
  "rtok_search",
  "rtok_gain",
  "rtok_symbols",
];

/** Runs the server until the client closes stdin; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    await print(MCP_HELP);
    return 0;
  }
  if (args.length > 0) {
    throw new TypeError(`unknown argument "${args[0]}" for rtok mcp; see rtok mcp --help`);
  }
  // A stray console.log from any module would corrupt the protocol: send it to stderr.
  console.log = console.error;
  console.info = console.error;
  const b = await boot();
  const server = new McpServer({ name: "rtok", version: VERSION }, {
    capabilities: { tools: {} },
    instructions: "rtok runs commands with their output filtered for agents (rtok_run), keeps " +
      "what it cut (rtok_expand by archive id, rtok_search by content) and reports its " +
      "savings (rtok_gain).",
  });
  const inflight = new Set<Promise<unknown>>();
  const call = <A>(fn: (a: A) => Promise<ToolAnswer>) => (a: A): Promise<CallToolResult> => {
    const p = answer(fn, a);
    inflight.add(p);
    return p.finally(() => inflight.delete(p));
  };
  const answer = async <A>(fn: (a: A) => Promise<ToolAnswer>, a: A): Promise<CallToolResult> => {
    try {
      const r = await fn(a);
      return {
        content: [{ type: "text", text: r.text }],
        structuredContent: r.structured,
        ...(r.isError ? { isError: true } : {}),
      };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return { content: [{ type: "text", text: message }], isError: true };
    }
  };
  server.registerTool("rtok_run", {
    title: "Run a command through rtok",
    description: _RUN_DESCRIPTION,
    inputSchema: {
      command: z.array(z.string()).min(1).optional()
        .describe('The program and its arguments, run without a shell: ["git", "log", "-5"]'),
      shell: z.string().min(1).optional()
        .describe('A shell command line, run with sh -c: "git status && npm test"'),
      cwd: z.string().optional()
        .describe(
          "Working directory (absolute, or relative to the server's); default: the server's",
        ),
      timeoutMs: z.number().int().min(1).max(3_600_000).optional()
        .describe(
          `Time limit in milliseconds (default ${DEFAULT_TIMEOUT_MS}); past it the command is killed`,
        ),
    },
    annotations: {
      title: "Run a command through rtok",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
  }, call((a: RunArgs) => runTool(b, a)));
  server.registerTool("rtok_read", {
    title: "Read a file through rtok",
    description: _READ_DESCRIPTION,
    inputSchema: {
      path: z.string().min(1).describe("The file, absolute or relative to cwd"),
      lines: z.string().optional().describe('Only lines A to B: "A:B" or "A:"'),
      outline: z.boolean().optional().describe("The view (an outline, for code) at any length"),
      cwd: z.string().optional().describe("The directory a relative path is read from"),
    },
    annotations: {
      title: "Read a file through rtok",
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, call((a: ReadArgs) => readTool(b, a)));
  server.registerTool("rtok_expand", {
    title: "Expand an archived output",
    description: _EXPAND_DESCRIPTION,
    inputSchema: {
      id: z.string().describe('The archive id from "rtok expand <id>" (6 or more hex digits)'),
      grep: z.string().optional().describe("Only lines matching this regular expression"),
      lines: z.string().optional().describe('Only lines A to B: "A:B" or "A:"'),
      head: z.number().int().min(0).optional().describe("Only the first N lines"),
      tail: z.number().int().min(0).optional().describe("Only the last N lines"),
      page: z.number().int().min(1).optional().describe("Which page of a long answer (default 1)"),
    },
    annotations: {
      title: "Expand an archived output",
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, call((a: ExpandArgs) => expandTool(b, a)));
  server.registerTool("rtok_search", {
    title: "Search archived outputs",
    description: _SEARCH_DESCRIPTION,
    inputSchema: {
      query: z.string().min(1).describe('Words, "a phrase", prefix*, a OR b'),
      limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional()
        .describe("Most results (default 10)"),
      cwd: z.string().optional()
        .describe(
          "The project directory: outputs of commands run there or below (default: the server's)",
        ),
      allProjects: z.boolean().optional().describe("Search every project's outputs"),
    },
    annotations: {
      title: "Search archived outputs",
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, call((a: SearchArgs) => searchTool(b, a)));
  server.registerTool("rtok_gain", {
    title: "rtok's token savings",
    description: _GAIN_DESCRIPTION,
    inputSchema: {
      project: z.string().optional()
        .describe("Only runs in this directory and below (default: every project)"),
    },
    annotations: {
      title: "rtok's token savings",
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, call((a: GainArgs) => gainTool(b, a)));
  server.registerTool("rtok_symbols", {
    title: "Where a name is defined and used",
    description: _SYMBOLS_DESCRIPTION,
    inputSchema: {
      name: z.string().min(1).describe('The name: "parseConfig", or with its scope "Parser.parse"'),
      references: z.boolean().optional()
        .describe("Also list each file that uses the name, with its lines"),
      cwd: z.string().optional()
        .describe("A directory of the project (default: the server's)"),
    },
    annotations: {
      title: "Where a name is defined and used",
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, call((a: SymbolsArgs) => symbolsTool(b, a)));
  server.server.onerror = (e: Error) => warn(`mcp: ${e.message}`);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  // A client may close its end right after its last request: answer what is in flight, and
  // let stdout drain, before the process exits.
  while (inflight.size) await Promise.allSettled([...inflight]);
  await new Promise((r) => setTimeout(r, 0));
  await new Promise<void>((r) => process.stdout.write("", () => r()));
  await server.close();
  return 0;
}
