/**
 * The registry: the enabled plugins in dispatch order (the catalogue ∩ config), the merge rules
 * for their answers, and error isolation — a plugin that throws is dropped for that event,
 * its error is kept, and the others still answer.
 *
 * @module
 */

import type { Config } from "./config.ts";
import type {
  ArchiveService,
  CommandMatch,
  Ctx,
  FailureRecord,
  Injection,
  LedgerService,
  Measurement,
  Plugin,
  PostToolAnswer,
  PostToolEvent,
  PreToolDecision,
  PreToolEvent,
  ProxyReport,
  ProxyRequest,
  RawMeta,
  SessionEvent,
} from "./plugin.ts";
import { appendSpool, type Drained, drainSpool, type SpoolEntry } from "./spool.ts";
import type { Store } from "./store.ts";
import { estimate } from "./tokens.ts";

/** How long a spool entry of a plugin a draining registry does not know is kept for its own. */
export const KEEP_FOREIGN_MS: number = 7 * 24 * 60 * 60 * 1000;

/** A plugin error caught by the registry. */
export interface PluginError {
  /** The plugin. */
  readonly plugin: string;
  /** The event it was serving. */
  readonly event: string;
  /** What it threw. */
  readonly error: unknown;
}

/** The enabled plugins and the merge rules over them. */
export class Registry {
  /** Enabled plugins, in dispatch order. */
  readonly enabled: readonly Plugin[];
  /** Errors caught so far, oldest first. */
  readonly errors: PluginError[] = [];
  // Every plugin id this registry was given, enabled or not: a spool entry of another id
  // belongs to a program with plugins of its own, and is left spooled for it.
  readonly #known: ReadonlySet<string>;

  /**
   * Keeps the plugins `config` enables (`[plugins.<id>] enabled`, else the manifest's
   * default), ordered as in `order` (the catalogue for built-ins; a third party passes its
   * own plugins' order or nothing to keep the given order).
   */
  constructor(plugins: readonly Plugin[], config: Config, order: readonly string[] = []) {
    const rank = (p: Plugin): number => {
      const i = order.indexOf(p.manifest.id);
      return i < 0 ? order.length + plugins.indexOf(p) : i;
    };
    this.enabled = plugins
      .filter((p) => {
        const on = config.plugins[p.manifest.id]?.enabled;
        return typeof on === "boolean" ? on : p.manifest.defaultOn;
      })
      .sort((a, b) => rank(a) - rank(b));
    this.#known = new Set(plugins.map((p) => p.manifest.id));
  }

  /** True when the plugin `id` is enabled. */
  has(id: string): boolean {
    return this.enabled.some((p) => p.manifest.id === id);
  }

  /** PreToolUse: the first deny wins; otherwise the last rewrite wins; else `null`. */
  async preTool(ev: PreToolEvent, ctx: Ctx): Promise<PreToolDecision | null> {
    let rewrite: PreToolDecision | null = null;
    for (const p of this.enabled) {
      if (!p.preTool) continue;
      let d: PreToolDecision | null = null;
      try {
        d = await p.preTool(ev, ctx);
      } catch (error) {
        this.errors.push({ plugin: p.manifest.id, event: "preTool", error });
      }
      if (d?.kind === "deny") return d;
      if (d?.kind === "rewrite") rewrite = d;
    }
    return rewrite;
  }

  /**
   * PostToolUse: added contexts concatenated in dispatch order and capped at `budgetChars`;
   * the first replacement (output or text) wins, and the plugins after it are not asked (one
   * output is compressed once, and recorded once); after an answer that keeps the output as it
   * is, neither are they. `null` when no plugin said anything.
   */
  async postTool(ev: PostToolEvent, ctx: Ctx, budgetChars: number): Promise<PostToolAnswer | null> {
    const contexts: string[] = [];
    let output: unknown = undefined;
    let text: string | undefined = undefined;
    for (const p of this.enabled) {
      if (!p.postTool) continue;
      let a: PostToolAnswer | null = null;
      try {
        a = await p.postTool(ev, ctx);
      } catch (error) {
        this.errors.push({ plugin: p.manifest.id, event: "postTool", error });
      }
      if (a?.context) contexts.push(a.context);
      if (a && a.output !== undefined) output = a.output;
      if (a && a.text !== undefined) text = a.text;
      if (output !== undefined || text !== undefined || a?.keep) break;
    }
    const context = contexts.join("\n").slice(0, budgetChars);
    if (!context && output === undefined && text === undefined) return null;
    return {
      ...(context ? { context } : {}),
      ...(output !== undefined ? { output } : {}),
      ...(text !== undefined ? { text } : {}),
    };
  }

  /**
   * SessionStart or UserPromptSubmit: injections sorted by priority (highest first, ties in
   * dispatch order), emitted whole while they fit in `budgetChars`. `null` when none fit.
   */
  inject(
    event: "sessionStart" | "promptSubmit",
    ev: SessionEvent,
    ctx: Ctx,
    budgetChars: number,
  ): string | null {
    const found: Injection[] = [];
    for (const p of this.enabled) {
      const inj = this.#guard(p, event, () => p[event]?.(ev, ctx) ?? null);
      if (inj?.text) found.push(inj);
    }
    found.sort((a, b) => b.priority - a.priority);
    const out: string[] = [];
    let used = 0;
    for (const inj of found) {
      const cost = inj.text.length + (out.length ? 1 : 0);
      if (used + cost > budgetChars) continue;
      out.push(inj.text);
      used += cost;
    }
    return out.length ? out.join("\n") : null;
  }

  /** PreCompact or Stop: every plugin that listens. */
  notify(event: "preCompact" | "stop", ev: SessionEvent, ctx: Ctx): void {
    for (const p of this.enabled) this.#guard(p, event, () => p[event]?.(ev, ctx));
  }

  /** PreCompact, each plugin awaited in turn; one that throws or rejects is isolated. */
  async preCompact(ev: SessionEvent, ctx: Ctx): Promise<void> {
    for (const p of this.enabled) {
      if (!p.preCompact) continue;
      try {
        await p.preCompact(ev, ctx);
      } catch (error) {
        this.errors.push({ plugin: p.manifest.id, event: "preCompact", error });
      }
    }
  }

  /**
   * The first enabled plugin's filter for `argv` run in `cwd` (the process's own when absent)
   * and that plugin's id, or `null`.
   */
  async commandFilter(
    argv: readonly string[],
    cwd?: string,
  ): Promise<{ match: CommandMatch; plugin: string } | null> {
    for (const p of this.enabled) {
      if (!p.commandFilter) continue;
      try {
        const match = await p.commandFilter(argv, cwd);
        if (match) return { match, plugin: p.manifest.id };
      } catch (error) {
        this.errors.push({ plugin: p.manifest.id, event: "commandFilter", error });
      }
    }
    return null;
  }

  /** Keeps raw bytes with the first plugin that keeps them; `null` when none could. */
  async keepRaw(raw: Uint8Array, meta: RawMeta, ctx: Ctx): Promise<string | null> {
    for (const p of this.enabled) {
      if (!p.keepRaw) continue;
      try {
        return await p.keepRaw(raw, meta, ctx);
      } catch (error) {
        this.errors.push({ plugin: p.manifest.id, event: "keepRaw", error });
      }
    }
    return null;
  }

  /**
   * A model request on its way upstream: each plugin in dispatch order may change `req.body`.
   * A plugin that throws is dropped for this request and its change undone; the others still
   * run. Returns the reports, one per plugin that made one.
   */
  async proxyFilter(req: ProxyRequest, ctx: Ctx): Promise<ProxyReport[]> {
    const reports: ProxyReport[] = [];
    for (const p of this.enabled) {
      if (!p.proxyFilter) continue;
      // Kept as bytes when held so: reading `body` would decode the whole body.
      const before = req.bytes ?? req.body;
      try {
        const r = await p.proxyFilter(req, ctx);
        if (r) reports.push(r);
      } catch (error) {
        if (typeof before === "string") req.body = before;
        else req.bytes = before;
        this.errors.push({ plugin: p.manifest.id, event: "proxyFilter", error });
      }
    }
    return reports;
  }

  /** Hands a measurement to every plugin that persists measurements. */
  async record(m: Measurement, ctx: Ctx): Promise<void> {
    for (const p of this.enabled) {
      await this.#guardAsync(p, "onMeasurement", () => p.onMeasurement?.(m, ctx));
    }
  }

  /** Hands a failure to every plugin that persists failures. */
  async failure(f: FailureRecord, ctx: Ctx): Promise<void> {
    for (const p of this.enabled) {
      await this.#guardAsync(p, "onFailure", () => p.onFailure?.(f, ctx));
    }
  }

  /**
   * Drains the spool at `ctx.home` into `ctx.store` in one `BEGIN IMMEDIATE` write, each
   * plugin applying its own kinds. A plugin that throws loses its entries of this drain (its
   * error is kept); entries of a plugin this registry was given but config turns off are
   * dropped; entries of a plugin id it was not given at all (another program's plugin) stay
   * spooled for up to {@linkcode KEEP_FOREIGN_MS}, then are dropped.
   */
  drain(ctx: Ctx): Drained {
    const store = ctx.store;
    if (!store) throw new Error("the store is not available");
    // The store's write lock is taken before the spool's: a drain that waits on a busy store
    // must not hold the spool, or every hook and run appending to it would wait too.
    return store.write(() =>
      drainSpool(ctx.home, (entries) => {
        const mine = new Map<string, SpoolEntry[]>();
        const foreign: SpoolEntry[] = [];
        const since = Date.now() - KEEP_FOREIGN_MS;
        for (const e of entries) {
          const id = e.kind.slice(0, e.kind.indexOf("."));
          if (!this.#known.has(id)) {
            if (e.ts >= since) foreign.push(e);
            continue;
          }
          mine.set(id, [...(mine.get(id) ?? []), e]);
        }
        for (const p of this.enabled) {
          const list = mine.get(p.manifest.id);
          if (list && p.ingest) this.#guard(p, "ingest", () => p.ingest!(list, store, ctx));
        }
        return foreign;
      })
    );
  }

  /** Lets every plugin load what it will need, at once; a failure is kept, not thrown. */
  async prepare(): Promise<void> {
    await Promise.all(this.enabled.map((p) => this.#guardAsync(p, "prepare", () => p.prepare?.())));
  }

  async #guardAsync(p: Plugin, event: string, fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (error) {
      this.errors.push({ plugin: p.manifest.id, event, error });
    }
  }

  #guard<T>(p: Plugin, event: string, fn: () => T): T | null {
    try {
      return fn();
    } catch (error) {
      this.errors.push({ plugin: p.manifest.id, event, error });
      return null;
    }
  }
}

/** What a surface knows when it builds a {@linkcode Ctx}. */
export interface CtxInit {
  /** The effective config. */
  readonly config: Config;
  /** The store, or `null` when it could not be opened. */
  readonly store: Store | null;
  /** `$RTOK_HOME`. */
  readonly home: string;
  /** The agent session, where known. */
  readonly session?: string | null;
  /** The owning call's row id, where known. */
  readonly callId?: number | null;
}

/** Why a registry of `plugins` keeps no raw bytes, or `null` when one of them does. */
export function archiveUnavailable(plugins: readonly Plugin[]): string | null {
  return plugins.some((p) => p.keepRaw)
    ? null
    : "no enabled plugin keeps raw output: enable the archive plugin";
}

/**
 * Builds the context plugins see. Its archive and ledger are the registry's plugins that keep
 * raw bytes and persist measurements, resolved here once: every context has both.
 */
export function makeCtx(registry: Registry, init: CtxInit): Ctx {
  const unavailable = archiveUnavailable(registry.enabled);
  const archive: ArchiveService = {
    unavailable,
    keep: (raw, meta) =>
      unavailable === null ? registry.keepRaw(raw, meta, ctx) : Promise.resolve(null),
  };
  const ledger: LedgerService = {
    record: (m) => registry.record(m, ctx),
    failure: (f) => registry.failure(f, ctx),
  };
  const ctx: Ctx = {
    config: init.config,
    store: init.store,
    home: init.home,
    session: init.session ?? null,
    callId: init.callId ?? null,
    estimate,
    pluginConfig: (id) => init.config.plugins[id] ?? {},
    archive,
    ledger,
    record: ledger.record,
    keepRaw: archive.keep,
    defer: (kind, data) => {
      if (!init.home) throw new Error("rtok's home is not known, so nothing can be recorded");
      appendSpool(init.home, [{ kind, ts: Date.now(), data }]);
    },
  };
  return ctx;
}
