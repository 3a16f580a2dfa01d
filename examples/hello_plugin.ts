/**
 * A third-party program built on rtok's library: the built-in plugins plus one of its own,
 * which filters `seq` down to its first and last three numbers and a count. Its runs land in
 * the same ledger as rtok's own, and what it cuts is archived like any other output.
 *
 *     deno run --allow-read --allow-write --allow-env --allow-run examples/hello_plugin.ts seq 1 100
 *
 * @module
 */

import { BUILTIN_PLUGINS, type CommandFilter, type Plugin, runCommand } from "../mod.ts";

const seqFilter: CommandFilter = {
  name: "seq",
  textClass: "log",
  filter(raw) {
    const lines = raw.split("\n").filter((l) => l !== "");
    if (lines.length <= 6) return { text: raw, cut: [] };
    const middle = lines.length - 6;
    return {
      text: [...lines.slice(0, 3), `… ${middle} more …`, ...lines.slice(-3)].join("\n") + "\n",
      cut: [`${middle} numbers`],
    };
  },
};

/** The example plugin. */
export const helloPlugin: Plugin = {
  manifest: {
    id: "hello",
    surfaces: ["cli"],
    defaultOn: true,
    description: "Shortens the output of seq (an example of a third-party plugin).",
  },
  commandFilter(argv) {
    return argv[0] === "seq" ? { filter: seqFilter, prefix: [argv[0]], args: argv.slice(1) } : null;
  },
};

if (import.meta.main) {
  const outcome = await runCommand(Deno.args, [...BUILTIN_PLUGINS, helloPlugin]);
  Deno.exit(outcome.code);
}
