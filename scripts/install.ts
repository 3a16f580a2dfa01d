/**
 * `deno task install`: the `rtok` command, by `deno install -g` with rtok's permissions and
 * this checkout's deno.json (the import map of the npm packages rtok runs and nothing else: the
 * tests' and benches' are in dev.json; without `--config` the installed command has no import
 * map and `rtok mcp` cannot load zod), then `deno cache` of every module rtok may load, so
 * that nothing is fetched later and rtok works offline. The launcher deno
 * writes runs `deno` from PATH; when no `deno` a later shell finds there is the binary doing
 * the install (Deno run through `npx`, say), the launcher names that binary by absolute path
 * instead, and one line on stderr says where it lives. Takes `--root <dir>` as `deno install`
 * does; else `DENO_INSTALL_ROOT`; else `~/.deno`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { joinPath } from "../src/core/paths.ts";
import { inNpxCache, lastingDenoAdvice, onPath } from "../src/core/self.ts";
import { quoteWord } from "../src/core/shell.ts";
import { RTOK_PERMISSIONS } from "./permissions.ts";

// The packages rtok runs: those only the tests, benches and probes use are in dev.json.
const _CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const _ROOT = fileURLToPath(new URL("../", import.meta.url));
const _CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

/** Where the install goes: `--root` if given, else `DENO_INSTALL_ROOT`, else `$HOME/.deno`. */
export interface RootSources {
  /** The directory `--root` names, if any. */
  readonly root?: string | null;
  /** `DENO_INSTALL_ROOT`. */
  readonly denoInstallRoot?: string;
  /** `HOME`. */
  readonly home?: string;
  /** What a relative directory is read against. */
  readonly cwd: string;
}

/** The `--root <dir>` the task was given, or `null`; any other argument is an error. */
export function parseRoot(args: readonly string[]): string | null {
  let root: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--root" && args[i + 1] !== undefined) root = args[++i];
    else if (a.startsWith("--root=") && a.length > "--root=".length) root = a.slice(7);
    else {
      throw new TypeError(
        `unexpected argument "${a}": the install task takes only --root <dir> ` +
          `(e.g. deno task install --root ~/.local)`,
      );
    }
  }
  return root;
}

/** The absolute install root `deno install -g` writes `bin/rtok` under. */
export function installRoot(s: RootSources): string {
  const root = s.root || s.denoInstallRoot || (s.home ? joinPath(s.home, ".deno") : undefined);
  if (!root) {
    throw new Error(
      "Cannot tell where to install: HOME is not set; set DENO_INSTALL_ROOT or pass --root <dir>",
    );
  }
  return root.startsWith("/") ? root : joinPath(s.cwd, root);
}

/**
 * `path` (a `PATH` value) without the directories npm adds for one run (`npx`'s cache, any
 * `node_modules/.bin`): a shell after the install does not have them.
 */
export function lastingPath(path: string): string {
  return path.split(":").filter((dir) =>
    dir !== "" && !inNpxCache(dir) && !/[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)
  ).join(":");
}

/**
 * The launcher `deno install` wrote, made to run `deno` by the absolute path `deno`, without
 * Deno's own release check (rtok runs on every tool call of an agent and reaches nothing but
 * loopback unless the user's command does).
 */
export function pinDeno(launcher: string, deno: string): string {
  const pinned = launcher.replace(
    /^exec deno /m,
    `DENO_NO_UPDATE_CHECK=1 exec ${quoteWord(deno)} `,
  );
  if (pinned === launcher) {
    throw new Error(
      `Cannot name the Deno binary in the launcher deno install wrote: no "exec deno" line in:\n` +
        launcher,
    );
  }
  return pinned;
}

/**
 * Every module of the checkout at `root` rtok may load: cli.ts, mod.ts and each `.ts` file under
 * src/ and filters/ but tests and their data.
 */
export function runtimeModules(root: string): string[] {
  const out = [joinPath(root, "cli.ts"), joinPath(root, "mod.ts")];
  const walk = (dir: string) => {
    for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
      const path = joinPath(dir, e.name);
      if (e.isDirectory && e.name !== "testdata") walk(path);
      else if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) out.push(path);
    }
  };
  walk(joinPath(root, "src"));
  walk(joinPath(root, "filters"));
  return out;
}

/** True when `a` and `b` are the same file, through symlinks and hard links. */
function _sameBinary(a: string, b: string): boolean {
  try {
    if (Deno.realPathSync(a) === Deno.realPathSync(b)) return true;
    const sa = Deno.statSync(a);
    const sb = Deno.statSync(b);
    return sa.ino !== null && sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}

/** Installs rtok; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const root = installRoot({
    root: parseRoot(args),
    denoInstallRoot: Deno.env.get("DENO_INSTALL_ROOT"),
    home: Deno.env.get("HOME"),
    // deno task runs in the config's directory; a relative --root means the caller's.
    cwd: Deno.env.get("INIT_CWD") || Deno.cwd(),
  });
  const deno = Deno.execPath();
  const { code } = await new Deno.Command(deno, {
    args: [
      "install",
      "-g",
      "-f",
      // Quiet: on a first install deno lists every npm package it sets up; errors still print.
      "-q",
      "-n",
      "rtok",
      ...RTOK_PERMISSIONS,
      "--config",
      _CONFIG,
      "--root",
      root,
      _CLI,
    ],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) return code;
  // Every module rtok may load later, the lazily loaded ones included (with the packages they
  // import and the grammars inside them), so it works with no network from here on.
  const cached = await new Deno.Command(deno, {
    args: ["cache", "-q", "--config", _CONFIG, ...runtimeModules(_ROOT)],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (cached.code !== 0) return cached.code;
  const bin = joinPath(root, "bin");
  const launcher = joinPath(bin, "rtok");
  const livePath = Deno.env.get("PATH") ?? "";
  const path = lastingPath(livePath);
  console.log(`installed rtok: ${launcher}`);
  if (!path.split(":").includes(bin)) {
    console.log(`${bin} is not on PATH; add it: export PATH="${bin}:$PATH"`);
  }

  const dir = onPath("deno", path);
  const found = dir === null ? null : joinPath(dir, "deno");
  if (found !== null && _sameBinary(found, deno)) return 0;
  let text: string;
  try {
    text = Deno.readTextFileSync(launcher);
  } catch (e) {
    throw new Error(
      `Cannot read the launcher deno install wrote, "${launcher}": ${(e as Error).message}`,
    );
  }
  Deno.writeTextFileSync(launcher, pinDeno(text, deno));
  const transient = found === null ? onPath("deno", livePath) : null;
  const why = found !== null
    ? `the deno on PATH, ${found}, is another binary`
    : transient !== null
    ? `the deno on PATH is npm's for this run only, in ${transient}`
    : "PATH has no deno";
  const risk = inNpxCache(deno)
    ? "it lives in npx's cache, which npm may clean, and then rtok stops"
    : "if it goes, rtok stops";
  console.error(
    `install: rtok runs on the Deno binary it was installed with, ${deno} (${why}); ` +
      `${risk}: for a lasting one, ${lastingDenoAdvice()}`,
  );
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    console.error(`install: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
