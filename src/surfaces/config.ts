/**
 * `rtok config`: where rtok keeps its state, and the settings in effect.
 *
 * @module
 */

import { type Config, configPath, defaultConfig, loadConfig, rtokHome } from "../core/config.ts";
import { storePath } from "../core/store.ts";
import { CATALOGUE } from "../plugins/catalogue.ts";
import { spoolPath } from "../core/spool.ts";
import { archiveDir } from "../plugins/archive/archive.ts";
import { print } from "./_io.ts";

/** Runs `rtok config`; returns 1 when the config file is invalid. */
export async function main(args: readonly string[]): Promise<number> {
  if (args.length > 0 && args[0] !== "--help" && args[0] !== "-h") {
    throw new TypeError(`unexpected argument "${args[0]}": rtok config takes none`);
  }
  const home = rtokHome();
  const path = configPath(home);
  let config: Config = defaultConfig();
  let problem: string | null = null;
  try {
    config = await loadConfig(home);
  } catch (e) {
    problem = (e as Error).message;
  }
  const exists = await Deno.stat(path).then(() => true, () => false);
  const plugins = CATALOGUE.map((c) => {
    const on = config.plugins[c.id]?.enabled;
    return `${c.id}=${typeof on === "boolean" ? on : c.defaultOn}`;
  });
  await print([
    `home      ${home}  (RTOK_HOME, else ~/.rtok)`,
    `config    ${path}${exists ? "" : "  (absent: defaults in effect)"}`,
    `store     ${storePath(home)}`,
    `archive   ${archiveDir(home)}`,
    `spool     ${spoolPath(home)}`,
    "",
    "[archive]",
    `max_age_days = ${config.archive.maxAgeDays}`,
    `max_total_mb = ${config.archive.maxTotalMb}`,
    "",
    "[ledger]",
    `retention_days = ${config.ledger.retentionDays}`,
    `spool_kb = ${config.ledger.spoolKb}`,
    "",
    "[cmd]",
    `max_filter_mb = ${config.cmd.maxFilterMb}`,
    `filter_timeout_ms = ${config.cmd.filterTimeoutMs}`,
    "",
    `# plugins: ${plugins.join(", ")}  ([plugins.<id>] enabled = true|false)`,
    "",
  ].join("\n"));
  if (problem) {
    await print(`\nproblem: ${problem}\n(the defaults above are in effect until it is fixed)\n`);
    return 1;
  }
  return 0;
}
