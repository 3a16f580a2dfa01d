/**
 * The command list, and the version a test keeps equal to deno.json's.
 *
 * @module
 */

/** rtok's version. */
export const VERSION = "0.1.0";

/** `rtok --help`. */
export const HELP = `rtok ${VERSION}: cut the tokens coding agents spend on tool output

Usage:
  rtok <tool> [args…]      run a tool; filter its output where rtok has a filter
  rtok run -- <tool> …     the same, for a tool named like an rtok command
  rtok gain                tokens saved, from the ledger (--help for the views)
  rtok read FILE           a file as an agent should first see it: a long one as its
                           first lines and an outline or summary (--outline,
                           --lines A:B); rtok cat FILE does the same
  rtok expand <id>         the raw output behind an "[rtok: cut …]" line
  rtok search <query>      which archived output mentioned something (--limit N,
                           --all-projects, --format text|json)
  rtok where NAME          where NAME is defined: kind, file and line range, from
                           the project's symbol index (--format text|json)
  rtok refs NAME           the files and lines that use NAME
  rtok symbols FILE|DIR    every definition in a file or under a directory
  rtok config              where rtok keeps its state; the settings in effect
  rtok init                install the Claude Code hooks, served by rtok serve
                           (--no-serve: command hooks; --project, --dry-run,
                           --uninstall, --replace; --mcp also registers rtok mcp)
  rtok mcp                 the MCP server on stdio: rtok_run, rtok_read,
                           rtok_expand, rtok_search, rtok_gain, rtok_symbols
  rtok proxy               HTTP proxy for the model APIs: compresses tool results
                           in each request (--help for the options); /metrics
  rtok metrics             the ledger's totals for Prometheus (--port, default 8788;
                           --push URL sends them to a Pushgateway)
  rtok dashboard           the ledger as a local web page on loopback; prints its
                           URL, updates itself (--port, --project)
  rtok doctor              check the install, the hook, the store, rival hooks
  rtok rewrite <line>      the hook's rewrite of a command line and its verdict
  rtok filters list|show|verify   the filters in effect, one's definition, their tests
  rtok filters reset FAMILY        filter FAMILY again where rtok served it raw
  rtok memory              the session digest rtok keeps across compaction
                           (--session ID, --format text|json)
  rtok discover            what Claude Code's transcripts say rtok saved and missed
                           (--since, --project, --format text|json; counts only)
  rtok replay              what rtok would have done to your Claude Code sessions:
                           savings, and the facts the agent used that a view hid
  rtok trust               use ./.rtok/filters.toml's filters (pins its sha256);
                           $RTOK_HOME/filters.toml is always used
  rtok untrust             stop using ./.rtok/filters.toml
  rtok hook claude         the hook Claude Code runs (JSON event on stdin)
  rtok hook codex|gemini|opencode|copilot
                           the hook another host runs (rtok init --host installs it)
  rtok serve               the same hook as a resident loopback server (--help)
  rtok --version

Filtered: git log, status, diff, show, branch and blame; grep, rg, ls, find, tree, diff;
test runners (jest, vitest, mocha, node --test, deno test, pytest, cargo test,
go test, rspec, phpunit); compilers and linters (tsc, eslint, biome, ruff, mypy,
cargo build/check/clippy, go build/vet, golangci-lint); package installs and npm
run/test; more in rtok filters list. Every other command runs unchanged, recorded as a passthrough.
The tool's stdin, stderr and exit code are its own; what a filter cut is kept in the
archive ($RTOK_HOME/archive, default ~/.rtok) and named on the output's last line.
`;
