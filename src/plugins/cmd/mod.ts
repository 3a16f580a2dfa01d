/**
 * The `cmd` plugin: command filters for `rtok <tool> [args…]`.
 *
 * @module
 */

import type { CommandFilter } from "../../core/filter.ts";
import type { CommandMatch, Plugin } from "../../core/plugin.ts";
import { FILTER_LOADERS, hasOwnFilterFiles } from "./loaders.ts";
import { familyOf, splitArgv, toolName } from "../../core/command.ts";
import { cmdPreTool } from "./rewrite_plugin.ts";
import { lazyImport } from "../../core/lazy.ts";
import { manifest } from "./manifest.ts";

const _SCRIPT_FAMILIES = new Set([
  "npm test",
  "npm t",
  "npm run",
  "npm run-script",
  "pnpm test",
  "pnpm run",
  "yarn test",
  "yarn run",
  "bun run",
]);

function _loader(family: string): (() => Promise<CommandFilter>) | undefined {
  return Object.hasOwn(FILTER_LOADERS, family) ? FILTER_LOADERS[family] : undefined;
}

// What a declarative filter's pattern is matched against: argv[0] reduced to the tool's name.
function _commandLine(argv: readonly string[]): string {
  return [toolName(argv[0]), ...argv.slice(1)].join(" ");
}

/** The `cmd` plugin. */
export const cmdPlugin: Plugin = {
  manifest,
  // The rewrite rules load only when the hook sees a shell call, off every run's path.
  preTool: cmdPreTool,
  async commandFilter(argv: readonly string[], cwd?: string): Promise<CommandMatch | null> {
    if (argv.length === 0) return null;
    const dir = cwd ?? Deno.cwd();
    // A run looks for two filter files; when neither exists, it loads nothing more for them.
    if (hasOwnFilterFiles(dir)) {
      // A project's (trusted) or the user's own filter file comes before the built-ins.
      const { matchSourceFilter, printWarnings } = await lazyImport<
        typeof import("./toml/sources.ts")
      >(new URL("./toml/sources.ts", import.meta.url));
      const own = await matchSourceFilter(argv, dir);
      printWarnings(own.warnings);
      if (own.match) return own.match;
    }
    const family = familyOf(argv);
    if (_SCRIPT_FAMILIES.has(family)) {
      // `npm test` is filtered by what the script runs, where rtok knows that tool.
      const { matchScript } = await lazyImport<typeof import("./scripts.ts")>(
        new URL("./scripts.ts", import.meta.url),
      );
      const byScript = await matchScript(argv, dir, _loader);
      if (byScript) return byScript;
    }
    const load = _loader(family);
    const filter = load ? await load() : null;
    // A declarative built-in is chosen by family, and used only where its pattern agrees.
    if (!filter || (filter.matches && !filter.matches(_commandLine(argv)))) return null;
    return { filter, ...splitArgv(argv) };
  },
};
