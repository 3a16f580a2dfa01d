/**
 * `npm test` and `npm run <script>` (and the pnpm, yarn and bun forms) filtered by what the
 * script runs: the nearest `package.json` names the command, and when it is one simple
 * command of a family rtok filters (`jest --ci`, `vitest run`, `tsc -p .`), that family's
 * filter reads the output, with the package manager's banner lines taken off first. A script
 * that chains commands (`tsc && jest`) is not one tool's output: it is left to the generic
 * filter, if there is one.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../../core/filter.ts";
import { joinPath, parentDir } from "../../core/paths.ts";
import type { CommandMatch } from "../../core/plugin.ts";
import { familyOf, splitArgv, toolName } from "../../core/command.ts";

const MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUN_WORDS = new Set(["run", "run-script"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The script an `npm test` / `npm run x` argv runs, and the arguments passed on to it. */
export function scriptCall(argv: readonly string[]): { name: string; extra: string[] } | null {
  if (!MANAGERS.has(toolName(argv[0] ?? ""))) return null;
  const { prefix, args } = splitArgv(argv);
  const sub = prefix[prefix.length - 1];
  const dash = args.indexOf("--");
  if (sub === "test" || sub === "t") {
    // `bun test` is bun's own runner, not a script.
    if (toolName(argv[0]) === "bun") return null;
    return { name: "test", extra: dash < 0 ? [] : args.slice(dash + 1) };
  }
  if (!RUN_WORDS.has(sub) || args.length === 0 || args[0].startsWith("-")) return null;
  const rest = args.slice(1);
  const d = rest.indexOf("--");
  // npm passes what follows `--` on; yarn, pnpm and bun pass every further argument.
  const extra = toolName(argv[0]) === "npm"
    ? (d < 0 ? [] : rest.slice(d + 1))
    : rest.filter((a) => a !== "--");
  return { name: args[0], extra };
}

/** The nearest `package.json`'s `scripts`, looking up from `cwd`; `null` when none. */
export function readScripts(cwd: string): Readonly<Record<string, string>> | null {
  let dir = cwd;
  for (;;) {
    try {
      const doc = JSON.parse(Deno.readTextFileSync(joinPath(dir, "package.json")));
      const scripts = doc?.scripts;
      return typeof scripts === "object" && scripts !== null ? scripts : null;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return null;
    }
    const up = parentDir(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** A script's command as an argv, when it is one simple command; else `null`. */
export function scriptArgv(script: string): string[] | null {
  if (/[;&|<>`$()]/.test(script)) return null;
  const words = script.trim().split(/\s+/).filter((w) => w !== "");
  let i = 0;
  while (i < words.length && ASSIGNMENT.test(words[i])) i++;
  // `cross-env NODE_ENV=test jest`: cross-env only sets variables.
  if (words[i] === "cross-env") {
    i++;
    while (i < words.length && ASSIGNMENT.test(words[i])) i++;
  }
  const argv = words.slice(i).map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
  return argv.length ? argv : null;
}

// `> pkg@1.0.0 test` then `> jest --ci`, then a blank line: npm's (and pnpm's) banner.
const BANNER = /^(> \S+ \S+.*\n> .*\n\n?)/;
const YARN_BANNER = /^(yarn run v\S+\n\$ .*\n)/;

/** `inner` reading the output of a script that runs it: the banner off, the script's args in. */
export function scriptFilter(inner: CommandFilter, scriptArgs: readonly string[]): CommandFilter {
  return {
    name: inner.name,
    textClass: inner.textClass,
    ...("filterStderr" in inner
      ? { filterStderr: (inner as { filterStderr?: boolean }).filterStderr }
      : {}),
    passthrough: () => inner.passthrough?.(scriptArgs) ?? null,
    filter(raw: string, input: FilterInput): Filtered {
      const banner = BANNER.exec(raw) ?? YARN_BANNER.exec(raw);
      const body = banner ? raw.slice(banner[1].length) : raw;
      return inner.filter(body, { ...input, args: scriptArgs, shaped: false });
    },
  };
}

/**
 * The match for an `npm test` / `npm run x` argv whose script runs a filtered family, or
 * `null`. The whole argv runs as given (no stage 1: the script's command is not ours to
 * change).
 */
export async function matchScript(
  argv: readonly string[],
  cwd: string,
  load: (family: string) => (() => Promise<CommandFilter>) | undefined,
): Promise<CommandMatch | null> {
  const call = scriptCall(argv);
  if (!call) return null;
  const script = readScripts(cwd)?.[call.name];
  if (typeof script !== "string") return null;
  const inner = scriptArgv(script);
  if (!inner) return null;
  const full = [...inner, ...call.extra];
  const loader = load(familyOf(full));
  if (!loader) return null;
  const filter = scriptFilter(await loader(), splitArgv(full).args);
  return { filter, prefix: [...argv], args: [] };
}
