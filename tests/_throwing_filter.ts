/**
 * A program whose only extra filter throws, for the test that a failing filter still lets
 * the raw output through and records the failure.
 *
 * @module
 */

import { BUILTIN_PLUGINS, type Plugin, runCommand } from "../mod.ts";

const throwing: Plugin = {
  manifest: { id: "throwing", surfaces: ["cli"], defaultOn: true, description: "Always throws." },
  commandFilter(argv) {
    if (argv[0] !== "seq") return null;
    return {
      prefix: [argv[0]],
      args: argv.slice(1),
      filter: {
        name: "seq",
        textClass: "log",
        filter() {
          throw new SyntaxError("the parser met something new");
        },
      },
    };
  },
};

const outcome = await runCommand(Deno.args, [...BUILTIN_PLUGINS, throwing]);
Deno.exit(outcome.code);
