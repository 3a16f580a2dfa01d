/**
 * The tools whose subcommands differ in output (`git log`, `cargo test`, `docker ps`), each
 * with its global options that take the next word as their value, so that the subcommand is
 * found after them (`git -C dir log`). Command matching, and so the filters and the rewrite,
 * read it here.
 *
 * @module
 */

import { GIT_GLOBAL_VALUED } from "./git.ts";

/** Per tool whose family includes its subcommand: its global options that take a value. */
export const SUBCOMMAND_TOOLS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: GIT_GLOBAL_VALUED,
  docker: new Set(["-H", "--host", "-c", "--context", "--config", "-l", "--log-level"]),
  kubectl: new Set([
    "-n",
    "--namespace",
    "--context",
    "--cluster",
    "--kubeconfig",
    "-s",
    "--server",
    "--user",
  ]),
  helm: new Set(["-n", "--namespace", "--kube-context", "--kubeconfig"]),
  gh: new Set(["-R", "--repo"]),
  cargo: new Set(["-C", "-Z", "--color", "--config"]),
  go: new Set(),
  npm: new Set(["--prefix", "-w", "--workspace"]),
  pnpm: new Set(["-C", "--dir", "-F", "--filter"]),
  yarn: new Set(["--cwd"]),
  bun: new Set(["--cwd"]),
  deno: new Set(),
  pip: new Set(),
  pip3: new Set(),
  uv: new Set(["--directory", "--project"]),
  terraform: new Set(),
  tofu: new Set(),
  systemctl: new Set(["-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property"]),
  dotnet: new Set(),
  "pre-commit": new Set(),
};

/**
 * The index of the subcommand in `args` (argv without the tool), past the global options
 * `valued` says take a value, or -1 when there is none. `cargo +nightly test`: a toolchain,
 * not the subcommand.
 */
export function subcommandIndex(args: readonly string[], valued: ReadonlySet<string>): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-") && !arg.startsWith("+")) return i;
    if (valued.has(arg)) i++;
  }
  return -1;
}
