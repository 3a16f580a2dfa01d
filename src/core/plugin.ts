/**
 * The plugin contract. A plugin is a manifest plus the event methods it serves; every method
 * is optional and a missing one is a no-op. A plugin sees only the {@linkcode Ctx} it is
 * handed, and claims a saving only through `ctx.record`.
 *
 * @module
 */

import type { CommandFilter } from "./filter.ts";
import type { Config } from "./config.ts";
import type { SpoolEntry } from "./spool.ts";
import type { Store } from "./store.ts";
import type { TextClass } from "./tokens.ts";
import type { ToolResult } from "./tool_result.ts";

/** Where rtok runs. */
export type Surface = "cli" | "hook" | "mcp" | "proxy";

/** What a plugin is. */
export interface Manifest {
  /** Its id, as in the catalogue and `[plugins.<id>]`. */
  readonly id: string;
  /**
   * The surfaces whose events it serves: a surface loads only the built-in plugins whose
   * manifest names it (`[]` for a plugin only its own commands ask).
   */
  readonly surfaces: readonly Surface[];
  /** Whether it runs when config is silent. */
  readonly defaultOn: boolean;
  /** One line saying what it does. */
  readonly description: string;
}

/** Which stage produced a saving: asking the tool for less, filtering what it printed, both. */
export type Stage = "none" | "shape" | "filter" | "shape+filter";

/** One run's measurements: the ledger row, before it is a row. Never the content itself. */
export interface Measurement {
  /** The surface that ran it. */
  readonly surface: Surface;
  /** The plugin that produced the output. */
  readonly plugin: string;
  /** The family the ledger groups by: "git log", "grep", or a passthrough tool's name. */
  readonly family: string;
  /** The command as given. */
  readonly command: string;
  /** Its rtok form. */
  readonly rtokCommand: string;
  /** The canonical working directory. */
  readonly project: string;
  /** The agent session, where known. */
  readonly session: string | null;
  /** The session turn, where known. */
  readonly turn: number | null;
  /** Chars the tool printed (after stage 1). */
  readonly rawChars: number;
  /** Chars rtok emitted. */
  readonly emittedChars: number;
  /** How both are counted. */
  readonly textClass: TextClass;
  /** Which stage acted. */
  readonly stage: Stage;
  /** True when something was cut (and archived). */
  readonly lossy: boolean;
  /** The archive id of the raw bytes, when they were kept. */
  readonly archiveId: string | null;
  /** The tool's exit code, when it exited. */
  readonly exitCode: number | null;
  /** Wall time from start to output, in milliseconds. */
  readonly elapsedMs: number;
  /** Why the output was not filtered, when it was not. */
  readonly passthrough: string | null;
  /**
   * When the run began (epoch milliseconds), for a run recorded well after it began (a call
   * filtered when its output returned); the time it is recorded otherwise.
   */
  readonly at?: number;
  /** The agent host whose hook saw the run (`claude`, `codex`…), where one did. */
  readonly host?: string;
  /** The host's id for the tool call a hook's run answered (Claude Code's `tool_use_id`). */
  readonly callId?: string;
  /**
   * Whether a hook's answer reached the host (`false`: the host had given up on the hook, so
   * the model saw the raw output and nothing was saved); absent where it is not known.
   */
  readonly delivered?: boolean;
}

/** A filter that threw: the raw output went out instead. */
export interface FailureRecord {
  /** The surface. */
  readonly surface: Surface;
  /** The plugin whose code threw. */
  readonly plugin: string;
  /** The family or event. */
  readonly family: string;
  /** The command as given. */
  readonly command: string;
  /** The error's message. */
  readonly error: string;
  /** True when the raw output still arrived. */
  readonly fallbackOk: boolean;
}

/** What the archive is told about a raw output it keeps. */
export interface RawMeta {
  /** The command as given. */
  readonly command: string;
  /** Where it ran. */
  readonly cwd: string;
  /** Its exit code. */
  readonly exitCode: number | null;
  /** The filter whose cut sent it. */
  readonly family: string;
}

/** A command filter chosen for an argv, with the argv split around it. */
export interface CommandMatch {
  /** The filter. */
  readonly filter: CommandFilter;
  /** The argv up to and including what selects the filter (`git -C x log`). */
  readonly prefix: readonly string[];
  /** The arguments the filter sees. */
  readonly args: readonly string[];
}

/** PreToolUse: the agent is about to call a tool. */
export interface PreToolEvent {
  /** The host's tool name (`Bash`, `Read`). */
  readonly tool: string;
  /** The tool's input as the host sent it. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The agent's working directory. */
  readonly cwd: string;
  /** The environment variables rtok reads, as the hook saw them. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The host's permission mode (`default`, `plan`, `acceptEdits`…), where it says. */
  readonly mode?: string;
  /** The host's id for this tool call, which its PostToolUse carries too, where it says. */
  readonly callId?: string;
  /**
   * True when the hook runs in a resident process (`rtok serve`) that will also answer this
   * call's PostToolUse, so a plugin may remember the call until its output arrives.
   */
  readonly resident?: boolean;
  /**
   * The agent host (`claude` when absent): Claude Code's own permission rules decide a
   * rewrite's verdict only for Claude Code.
   */
  readonly host?: string;
}

/** A plugin's PreToolUse answer. */
export type PreToolDecision =
  | { readonly kind: "deny"; readonly reason: string }
  | {
    readonly kind: "rewrite";
    readonly input: Record<string, unknown>;
    readonly reason: string;
    /** True when the user's rules allow the rewritten call; else the host decides. */
    readonly allow?: boolean;
  };

/** PostToolUse: a tool call finished. */
export interface PostToolEvent {
  /** The host's tool name. */
  readonly tool: string;
  /** The tool's input. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The tool's output, in the host's shape. */
  readonly output: unknown;
  /** The output read host-neutrally, when the host's adapter knows the tool's shape. */
  readonly result?: ToolResult;
  /** The agent's working directory. */
  readonly cwd: string;
  /** The host's id for this tool call (as its PreToolUse had it), where it says. */
  readonly callId?: string;
  /** The agent host (`claude` when absent). */
  readonly host?: string;
}

/** A plugin's PostToolUse answer. */
export interface PostToolAnswer {
  /** Text added to the agent's context. */
  readonly context?: string;
  /** A replacement output in the tool's own shape, where the host allows one. */
  readonly output?: unknown;
  /**
   * A replacement for the result's text (`PostToolEvent.result.text`), which the host's
   * adapter writes back into the tool's own shape.
   */
  readonly text?: string;
  /**
   * True when the output must reach the agent as the tool made it (its filter passes it
   * through): the plugins after this one are not asked to replace it.
   */
  readonly keep?: boolean;
}

/** Text a plugin asks to inject at session start or prompt submit. */
export interface Injection {
  /** The text. */
  readonly text: string;
  /** Higher goes first while the budget lasts. */
  readonly priority: number;
}

/** SessionStart, UserPromptSubmit and PreCompact, as plugins see them. */
export interface SessionEvent {
  /** The event's name as the host sent it. */
  readonly event: string;
  /** The prompt, for UserPromptSubmit. */
  readonly prompt?: string;
  /** Why the session starts, for SessionStart (`startup`, `resume`, `clear`, `compact`). */
  readonly source?: string;
  /** What started a compaction (`manual`, `auto`), for PreCompact. */
  readonly trigger?: string;
  /** The session's transcript file, when the host says. */
  readonly transcriptPath?: string;
  /** The session's working directory, when the host says. */
  readonly cwd?: string;
}

/** A model request the proxy is about to forward. */
export interface ProxyRequest {
  /** The wire format. */
  readonly api: "anthropic" | "openai-chat" | "openai-responses" | "gemini";
  /**
   * The body as text. A plugin that changes the request replaces it, splicing its change into
   * the text so every other byte goes upstream as the client sent it.
   */
  body: string;
  /**
   * The body as UTF-8, when the surface holds it so (then `body` is decoded only when read). A
   * plugin may read and replace this instead of `body`: the two always agree.
   */
  bytes?: Uint8Array;
}

/** One tool result a proxy plugin compressed. */
export interface ProxyResult {
  /** The content filter that did it: "git log", "json", "text". */
  readonly shape: string;
  /** Chars of the result as the client sent it. */
  readonly rawChars: number;
  /** Chars sent upstream instead, pointer line included. */
  readonly emittedChars: number;
  /** How both are counted. */
  readonly textClass: TextClass;
  /** The archive id of the raw text, when it was kept. */
  readonly archiveId: string | null;
}

/** What a plugin did to a proxied request. */
export interface ProxyReport {
  /** Tool results it looked at. */
  readonly resultsSeen: number;
  /** Their chars, whether or not they shrank. */
  readonly charsSeen: number;
  /** Chars it removed from the body. */
  readonly charsSaved: number;
  /** The results it compressed. */
  readonly results: readonly ProxyResult[];
  /** Why it left the body alone, when it did (`not JSON`). */
  readonly note?: string;
  /** The style arm of the request's session (`styled`, `holdout`), when a style plugin ran. */
  readonly style?: "styled" | "holdout";
}

/**
 * The archive every context carries: where the raw bytes behind a cut are kept. The plugins
 * that keep bytes (`archive`, or a program's own) stand behind it; with none enabled it keeps
 * nothing and says why, so nothing is cut.
 */
export interface ArchiveService {
  /** Keeps `raw`; its archive id, or `null` when it could not be kept. */
  keep(raw: Uint8Array, meta: RawMeta): Promise<string | null>;
  /** Why nothing can be kept at all (no enabled plugin keeps raw output), else `null`. */
  readonly unavailable: string | null;
}

/**
 * The ledger every context carries: the rows that claim savings, and the filters that failed.
 * The plugins that persist them (`measure`, or a program's own) stand behind it.
 */
export interface LedgerService {
  /** Records one measurement: the only way to claim a saving. */
  record(m: Measurement): Promise<void>;
  /** Records a filter that threw (its raw output went out). */
  failure(f: FailureRecord): Promise<void>;
}

/** The whole world a plugin sees. */
export interface Ctx {
  /** The effective config. */
  readonly config: Config;
  /** The store, or `null` when it could not be opened (the run still goes on). */
  readonly store: Store | null;
  /** `$RTOK_HOME`. */
  readonly home: string;
  /** The agent session, where known. */
  readonly session: string | null;
  /** The owning call's row id, where a surface made one. */
  readonly callId: number | null;
  /** Estimated tokens of `text` read as `textClass`. */
  estimate(text: string, textClass: TextClass): number;
  /** This plugin's own `[plugins.<id>]` table (empty when absent). */
  pluginConfig(id: string): Readonly<Record<string, unknown>>;
  /** The archive, always there (it refuses, saying why, when no plugin keeps bytes). */
  readonly archive: ArchiveService;
  /** The ledger, always there. */
  readonly ledger: LedgerService;
  /** `ledger.record`: the only way to claim a saving. */
  record(m: Measurement): Promise<void>;
  /** `archive.keep`: its id, or `null` when the raw bytes could not be kept. */
  keepRaw(raw: Uint8Array, meta: RawMeta): Promise<string | null>;
  /**
   * Defers a store write: `kind` is `<plugin id>.<what>`, and the plugin's `ingest` applies
   * it when the spool is drained. Cheap: no SQLite on the caller's path.
   */
  defer(kind: string, data: Readonly<Record<string, unknown>>): void;
}

/** A plugin: a manifest and the events it serves. */
export interface Plugin {
  /** What it is. */
  readonly manifest: Manifest;
  /** PreToolUse: deny or rewrite the call, or `null` for no opinion (it may load lazily). */
  preTool?(ev: PreToolEvent, ctx: Ctx): PreToolDecision | null | Promise<PreToolDecision | null>;
  /** PostToolUse: add context or replace the output, or `null` (it may load lazily). */
  postTool?(ev: PostToolEvent, ctx: Ctx): PostToolAnswer | null | Promise<PostToolAnswer | null>;
  /** SessionStart: an injection, or `null`. */
  sessionStart?(ev: SessionEvent, ctx: Ctx): Injection | null;
  /** UserPromptSubmit: an injection, or `null`. */
  promptSubmit?(ev: SessionEvent, ctx: Ctx): Injection | null;
  /** PreCompact: keep what the session must not forget (it may take its time: awaited). */
  preCompact?(ev: SessionEvent, ctx: Ctx): void | Promise<void>;
  /** Stop: the agent finished its answer. */
  stop?(ev: SessionEvent, ctx: Ctx): void;
  /** Change a model request before it is forwarded; say what it did, or `null` for nothing. */
  proxyFilter?(req: ProxyRequest, ctx: Ctx): Promise<ProxyReport | null>;
  /**
   * The filter for a command line run in `cwd` (the process's own when absent), or `null`
   * when it has none (it may load it lazily).
   */
  commandFilter?(
    argv: readonly string[],
    cwd?: string,
  ): CommandMatch | null | Promise<CommandMatch | null>;
  /** Keep raw bytes; returns the archive id. */
  keepRaw?(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string>;
  /** Persist a measurement (the ledger). */
  onMeasurement?(m: Measurement, ctx: Ctx): void | Promise<void>;
  /** Persist a failure. */
  onFailure?(f: FailureRecord, ctx: Ctx): void | Promise<void>;
  /** Apply this plugin's deferred writes (kinds `<id>.*`) to the store, in the drain's write. */
  ingest?(entries: readonly SpoolEntry[], store: Store, ctx: Ctx): void;
  /**
   * Load what the plugin will need for the work a surface is starting. A surface calls it
   * while it waits on something else (the tool it runs), so the loading costs no time.
   */
  prepare?(): Promise<void>;
}
