/**
 * `$RTOK_HOME/config.toml`: where rtok keeps its state, and the few numbers a user may tune.
 * Every key is validated; an error names the file, the line, the key and what was expected.
 *
 * @module
 */

import { lazyImport } from "./lazy.ts";
import { joinPath } from "./paths.ts";

export { type Config, DEFAULT_CONFIG, defaultConfig } from "./config_shape.ts";
import { type Config, defaultConfig } from "./config_shape.ts";

/** `$RTOK_HOME`, else `~/.rtok`. Throws when neither `RTOK_HOME` nor `HOME` is set. */
export function rtokHome(): string {
  const home = Deno.env.get("RTOK_HOME");
  if (home) return home;
  const user = Deno.env.get("HOME");
  if (!user) throw new Error("Cannot find rtok's home: set RTOK_HOME or HOME");
  return joinPath(user, ".rtok");
}

/** The config file's path inside `home`. */
export function configPath(home: string): string {
  return joinPath(home, "config.toml");
}

/**
 * Reads `config.toml` in `home`. A missing file gives the defaults; anything invalid throws a
 * `SyntaxError` or `TypeError` whose message names the file, line and key.
 */
export async function loadConfig(home: string): Promise<Config> {
  const path = configPath(home);
  let text: string;
  try {
    // Sync: a fresh process's first async file read costs more than the read itself.
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return defaultConfig();
    }
    throw new Error(`Cannot read config "${path}": ${(e as Error).message}`);
  }
  // The parser and its validation load only when a config file exists.
  const { parseConfig } = await lazyImport<typeof import("./config_parse.ts")>(
    new URL("./config_parse.ts", import.meta.url),
  );
  return parseConfig(text, path);
}
