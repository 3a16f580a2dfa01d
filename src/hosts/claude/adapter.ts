/**
 * Claude Code's hook protocol. Its payloads are the plugins' own events (PreToolUse with the
 * permission mode, PostToolUse with the output in the tool's own shape, SessionStart,
 * UserPromptSubmit, PreCompact, Stop), so there is nothing to map: `rtok hook claude` reads
 * them whole with `src/claude/hook_protocol.ts` and answers in Claude Code's own shapes
 * (`answerClaudeHook` in `src/surfaces/_hook_answer.ts`). This adapter says so.
 *
 * @module
 */

import type { NativeAdapter } from "../host.ts";

/** Claude Code's adapter: the native protocol. */
export const ADAPTER: NativeAdapter = { id: "claude", native: true };
