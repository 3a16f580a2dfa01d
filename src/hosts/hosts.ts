/**
 * The hosts besides Claude Code, each with the module that holds its adapter (`ADAPTER`)
 * and its installer (`INSTALLER`, see `install.ts`). Each loads only when its host's hook
 * or `rtok init --host` runs.
 *
 * @module
 */

import { lazyImport } from "../core/lazy.ts";
import type { HostAdapter, HostId } from "./host.ts";
import type { HostInstaller } from "./install.ts";

/** What a host's module exports. */
export interface HostModule {
  /** Its hook protocol. */
  readonly ADAPTER: HostAdapter;
  /** How `rtok init --host` installs it. */
  readonly INSTALLER: HostInstaller;
}

/** Every host besides Claude Code, in the order the help lists them. */
export const HOST_IDS: readonly HostId[] = ["codex", "gemini", "opencode", "copilot"];

// Literal URLs, so the module graph's readers (the layers test, the publisher) see each file.
const _URLS: Readonly<Record<HostId, () => URL>> = {
  codex: () => new URL("./codex.ts", import.meta.url),
  gemini: () => new URL("./gemini.ts", import.meta.url),
  opencode: () => new URL("./opencode.ts", import.meta.url),
  copilot: () => new URL("./copilot.ts", import.meta.url),
};

/** True for a host id rtok knows. */
export function isHostId(name: string): name is HostId {
  return (HOST_IDS as readonly string[]).includes(name);
}

/** Loads a host's module. */
export function loadHost(id: HostId): Promise<HostModule> {
  return lazyImport<HostModule>(_URLS[id]());
}
