/**
 * `rtok doctor` for OpenCode: rtok's plugin file, written for this rtok, in a folder whose
 * config files all parse (OpenCode does not start otherwise), and `opencode --version`,
 * through the shared check in `../doctor.ts`.
 *
 * @module
 */

import { joinPath } from "../../core/paths.ts";
import { hostHookCommand } from "../shared.ts";
import { type HooksFinding, hostDoctor } from "../doctor.ts";
import type { DoctorOptions, HostCheck, HostDoctor } from "../install.ts";
import {
  CONFIG_FILES,
  installedPlugin,
  jsoncError,
  openCodeConfigDir,
  readText,
  serveStatePath,
} from "./install.ts";
import { pluginSource, readPluginFile } from "./plugin.ts";

/**
 * `opencode --version` from `path`, or `null` when it is not there ("an unknown version" when
 * it runs and names none).
 */
export async function installedOpenCode(path: string | undefined): Promise<string | null> {
  for (const d of (path ?? "").split(":")) {
    if (!d) continue;
    const bin = joinPath(d, "opencode");
    try {
      if (!Deno.statSync(bin).isFile) continue;
    } catch {
      continue;
    }
    try {
      const o = await new Deno.Command(bin, {
        args: ["--version"],
        stdin: "null",
        stdout: "piped",
        stderr: "null",
        signal: AbortSignal.timeout(5000),
      }).output();
      const v = /\d+\.\d+\.\d+\S*/.exec(new TextDecoder().decode(o.stdout))?.[0];
      return v ?? "an unknown version";
    } catch {
      return "an unknown version";
    }
  }
  return null;
}

// rtok's plugin in the config folder `dir`, as this rtok writes it, with every config parsing.
function _hooks(dir: string, opts: DoctorOptions): Promise<HooksFinding> {
  const found = installedPlugin(dir);
  const finding = (status: HostCheck["status"], detail: string): HooksFinding => ({
    configured: found !== null,
    status,
    detail,
  });
  if (!found) {
    return Promise.resolve(finding("warn", `not installed in ${dir}: rtok init --host opencode`));
  }
  const mine = readPluginFile(found.text);
  const want = hostHookCommand(opts.rtok, "opencode");
  if (!mine) return Promise.resolve(finding("warn", `${found.path} is not rtok's`));
  if (found.text !== pluginSource(want, mine.createdDirs, serveStatePath())) {
    return Promise.resolve(finding(
      "warn",
      `${found.path} runs \`${mine.command ?? "?"}\`, not this rtok's plugin: ` +
        "rtok init --host opencode",
    ));
  }
  const bad = CONFIG_FILES.map((n) => joinPath(dir, n)).map((p) => {
    const t = readText(p);
    const e = t === null ? null : jsoncError(t);
    return e ? `${p} ${e}` : null;
  }).find((x) => x !== null);
  return Promise.resolve(
    bad
      ? finding("FAIL", `OpenCode cannot start: ${bad}`)
      : finding("ok", `${found.path} runs \`${want}\``),
  );
}

/** OpenCode's doctor. */
export const DOCTOR: HostDoctor = hostDoctor({
  config: openCodeConfigDir,
  version: (opts) => installedOpenCode(opts.env.PATH ?? Deno.env.get("PATH")),
  hooks: _hooks,
});
