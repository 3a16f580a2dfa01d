/**
 * `rtok hook codex|gemini|copilot|opencode`: another host's hook, on the same handlers as
 * `rtok hook claude`. The host's adapter reads its payload into one host-neutral event; the
 * plugins answer it (the rewrite of a shell command, the replacement of a tool's output); the
 * adapter writes the answer in the host's shape. Like Claude Code's hook it never fails the
 * agent: whatever goes wrong, it exits 0 with no answer and leaves one failures row.
 *
 * @module
 */

import type { HostAdapter } from "../hosts/host.ts";
import type { HookDeps, HookResult } from "./hook.ts";
import { POSTTOOL_CONTEXT_BUDGET } from "./hook.ts";

/** The tool name the plugins know a shell call by. */
const _SHELL = "Bash";

/** Answers one event of `adapter`'s host given as raw stdin bytes. Never rejects. */
export async function answerHostHook(
  adapter: HostAdapter,
  input: Uint8Array,
  deps: HookDeps,
): Promise<HookResult> {
  try {
    const ev = adapter.readEvent(input, Deno.cwd());
    const ctx = deps.ctx(ev.session);
    const r = deps.registry;
    const call = ev.callId ? { callId: ev.callId } : {};
    if (ev.event === "PreToolUse") {
      const d = await r.preTool({
        tool: _SHELL,
        input: { command: ev.command },
        cwd: ev.cwd,
        env: deps.env,
        host: adapter.id,
        resident: false,
        ...call,
      }, ctx);
      if (d?.kind === "rewrite") deps.checkRecordable();
      return { answer: adapter.preToolAnswer(d, ev), failure: null };
    }
    if (ev.event === "PostToolUse") {
      const shell = ev.result?.kind === "shell";
      const a = await r.postTool(
        {
          tool: shell ? _SHELL : ev.tool,
          input: shell ? { command: ev.result!.command ?? "" } : ev.input,
          output: undefined,
          cwd: ev.cwd,
          host: adapter.id,
          ...(ev.result ? { result: ev.result } : {}),
          ...call,
        },
        ctx,
        POSTTOOL_CONTEXT_BUDGET,
      );
      return { answer: adapter.postToolAnswer(a, ev), failure: null };
    }
    return { answer: "", failure: null };
  } catch (e) {
    return { answer: "", failure: e instanceof Error ? e.message : String(e) };
  }
}
