/**
 * Claude Code's hook, in process and dry, for `rtok replay`, `rtok discover` and the server's
 * warm-up: the same handler, registry and plugins the command hook and the resident server
 * answer with (`answerClaudeHook`), with the ledger and the archive swapped for stand-ins that
 * keep nothing.
 * A ledger row is read for its family and dropped; a cut's raw bytes get the archive id they
 * would have, and are not written. What the plugins remember of a session (files read whole)
 * lives in a private folder that is removed when the replay ends.
 *
 * @module
 */

import { type Config, defaultConfig, loadConfig, rtokHome } from "../core/config.ts";
import { DISABLE_VAR, rtokEnv } from "../core/env.ts";
import type { Measurement, Plugin } from "../core/plugin.ts";
import { HOOK_PLUGINS } from "../plugins/hook.ts";
import { archiveId } from "../plugins/archive/archive.ts";
import { answerClaudeHook, makeHookDeps } from "./_hook_answer.ts";
import type { HookCall, HookReply } from "../replay/replay.ts";

/** The dry hook and what to call when done with it. */
export interface DryHook extends AsyncDisposable {
  /** Answers one PostToolUse event. */
  readonly call: HookCall;
}

/** A dry hook over `config`, else the user's config (the defaults when it cannot be read). */
export async function dryHook(config?: Config): Promise<DryHook> {
  if (!config) {
    try {
      config = await loadConfig(rtokHome());
    } catch { /* no home or a bad config: the defaults, as the hook itself would use */ }
  }
  config ??= defaultConfig();
  const home = await Deno.makeTempDir({ prefix: "rtok-replay-" });
  const rows: Measurement[] = [];
  const failures: string[] = [];
  const ledger: Plugin = {
    manifest: {
      id: "measure",
      surfaces: ["hook"],
      defaultOn: true,
      description: "Reads a replayed answer's ledger row and keeps nothing.",
    },
    onMeasurement(m: Measurement): void {
      rows.push(m);
    },
    onFailure(f): void {
      failures.push(f.error);
    },
  };
  const archive: Plugin = {
    manifest: {
      id: "archive",
      surfaces: ["hook"],
      defaultOn: true,
      description: "Names a replayed cut's raw bytes by their archive id and keeps nothing.",
    },
    keepRaw: (raw: Uint8Array) => archiveId(raw),
  };
  const plugins = HOOK_PLUGINS.map((p) =>
    p.manifest.id === "measure" ? ledger : p.manifest.id === "archive" ? archive : p
  );
  // What the user set to turn the hook off does not turn off the question what it would do.
  const env = { ...rtokEnv(), [DISABLE_VAR]: undefined };
  const deps = makeHookDeps({ config, home, env, plugins });
  const encoder = new TextEncoder();
  const call: HookCall = async (event) => {
    rows.length = 0;
    failures.length = 0;
    const result = await answerClaudeHook(encoder.encode(JSON.stringify(event)), deps);
    const errors = deps.registry.errors.splice(0).map((e) =>
      `${e.error instanceof Error ? e.error.message : String(e.error)} (plugin ${e.plugin})`
    );
    const failure = [result.failure, ...errors, ...failures].filter((x) => x).join("; ");
    const row = rows.at(-1);
    const reply: HookReply = {
      ...(failure ? { failure } : {}),
      ...(row ? { family: row.family, textClass: row.textClass } : {}),
    };
    if (!result.answer) return reply;
    const out = (JSON.parse(result.answer) as { hookSpecificOutput?: Record<string, unknown> })
      .hookSpecificOutput ?? {};
    return {
      ...reply,
      ...(out.updatedToolOutput !== undefined ? { output: out.updatedToolOutput } : {}),
      ...(typeof out.additionalContext === "string" ? { context: out.additionalContext } : {}),
    };
  };
  return {
    call,
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}
