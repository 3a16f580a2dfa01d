/**
 * `rtok trust` and `rtok untrust`: pin (or unpin) the sha256 of the working directory's
 * `.rtok/filters.toml`, whose filters run only while the file still has the pinned content.
 * A file that does not parse is refused, so a trusted file is always a usable one.
 *
 * @module
 */

import { rtokHome } from "../core/config.ts";
import { PROJECT_FILE, projectFilterFile } from "../plugins/cmd/toml/sources.ts";
import { trust as pin, untrust as unpin } from "../plugins/cmd/toml/trust.ts";
import { print } from "./_io.ts";

/** `rtok trust` or `rtok untrust`, named by the first argument. */
export function main(args: readonly string[]): Promise<number> {
  const [word, ...rest] = args;
  return word === "untrust" ? untrust(rest) : trust(word === "trust" ? rest : args);
}

/** `rtok trust`: pins `./.rtok/filters.toml` as it is now; prints its hash and filters. */
export async function trust(args: readonly string[]): Promise<number> {
  _noArgs("trust", args);
  const cwd = Deno.cwd();
  const file = projectFilterFile(cwd);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`Cannot trust ${PROJECT_FILE}: there is none in ${cwd}`);
    }
    throw new Error(`Cannot trust ${PROJECT_FILE}: ${(e as Error).message}`);
  }
  const { parseFilterFile } = await import("../plugins/cmd/toml/spec.ts");
  // Throws, naming the line, when the file is not a valid filter file: nothing is pinned.
  const defs = parseFilterFile(text, PROJECT_FILE);
  const { path, sha256 } = await pin(rtokHome(), file, text);
  await print(
    `trusted ${path}\nsha256 ${sha256}\n` +
      `filters: ${defs.length ? defs.map((d) => d.name).join(", ") : "(none)"}\n` +
      "A change to the file untrusts it until you read it and run rtok trust again.\n",
  );
  return 0;
}

/** `rtok untrust`: removes the pin of `./.rtok/filters.toml`. */
export async function untrust(args: readonly string[]): Promise<number> {
  _noArgs("untrust", args);
  const file = projectFilterFile(Deno.cwd());
  const removed = unpin(rtokHome(), file);
  await print(removed ? `untrusted ${file}\n` : `${file} was not trusted\n`);
  return 0;
}

function _noArgs(word: string, args: readonly string[]): void {
  if (args.length > 0) {
    throw new TypeError(
      `rtok ${word} takes no arguments: it acts on ${PROJECT_FILE} in the working directory`,
    );
  }
}
