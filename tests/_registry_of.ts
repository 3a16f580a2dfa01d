/**
 * Runs one command through a registry of only the built-in plugins named in the first
 * argument (comma-separated ids), as a program built on rtok's library would:
 *
 *     deno run … tests/_registry_of.ts measure,archive git log
 *
 * @module
 */

import { BUILTIN_PLUGINS, runCommand } from "../mod.ts";

const ids = new Set(Deno.args[0].split(","));
const unknown = [...ids].filter((id) => !BUILTIN_PLUGINS.some((p) => p.manifest.id === id));
if (unknown.length > 0) throw new TypeError(`No built-in plugin "${unknown.join('", "')}"`);
const outcome = await runCommand(
  Deno.args.slice(1),
  BUILTIN_PLUGINS.filter((p) => ids.has(p.manifest.id)),
);
Deno.exit(outcome.code);
