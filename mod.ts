/**
 * rtok's library: the plugin contract, the registry, the store, the token estimator, the
 * never-worse guard and the built-in command filters, for programs that extend rtok with
 * their own plugins.
 *
 * ```ts
 * import { BUILTIN_PLUGINS, runCommand, type Plugin } from "@rtok/cli";
 *
 * const mine: Plugin = {
 *   manifest: { id: "mine", surfaces: ["cli"], defaultOn: true, description: "My filter." },
 *   commandFilter: (argv) => null,
 * };
 * const outcome = await runCommand(["git", "status"], [...BUILTIN_PLUGINS, mine]);
 * ```
 *
 * @module
 */

export type {
  ArchiveService,
  CommandMatch,
  Ctx,
  FailureRecord,
  Injection,
  LedgerService,
  Manifest,
  Measurement,
  Plugin,
  PostToolAnswer,
  PostToolEvent,
  PreToolDecision,
  PreToolEvent,
  ProxyReport,
  ProxyRequest,
  ProxyResult,
  RawMeta,
  SessionEvent,
  Stage,
  Surface,
} from "./src/core/plugin.ts";
export type { CommandFilter, Filtered, FilterInput } from "./src/core/filter.ts";
export type { ToolKind, ToolResult } from "./src/core/tool_result.ts";
export {
  type Config,
  DEFAULT_CONFIG,
  defaultConfig,
  loadConfig,
  rtokHome,
} from "./src/core/config.ts";
export { parseConfig } from "./src/core/config_parse.ts";
export { type CtxInit, makeCtx, type PluginError, Registry } from "./src/core/registry.ts";
export { Store, storePath } from "./src/core/store.ts";
export type { Migration } from "./src/core/migrations.ts";
export type { Drained, SpoolEntry } from "./src/core/spool.ts";
export { CHARS_PER_TOKEN, estimate, TEXT_CLASSES, type TextClass } from "./src/core/tokens.ts";
export { type Guarded, neverWorse } from "./src/core/guard.ts";
export { loadBuiltinFilters } from "./src/plugins/cmd/loaders.ts";
export { BUILTIN_PLUGINS } from "./src/plugins/mod.ts";
export { CATALOGUE, type CatalogueEntry } from "./src/plugins/catalogue.ts";
export { main as runCommand, type Outcome } from "./src/surfaces/run.ts";
