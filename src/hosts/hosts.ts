/**
 * The one record of the agent hosts rtok installs into, Claude Code among them. Everything
 * that names a host reads it from here: `rtok hook <host>` and `rtok serve` (which hosts
 * exist, how each one's payloads are read), `rtok init --host` and `rtok doctor` (each host's
 * installer and doctor), the help's host lists, and the tests (which release of each CLI they
 * drive). A host's code lives in `src/hosts/<id>/`: `adapter.ts` (its hook protocol),
 * `install.ts` (`rtok init`) and `doctor.ts` (`rtok doctor`); each loads only when used.
 *
 * To add a host: its id in `HostId` (`host.ts`) and one entry here (the type checker then
 * asks for every field), its folder of three modules, any new environment variable in the
 * permission list (`src/core/permissions.ts`; `hosts_test.ts` fails until it is there), its
 * hook-protocol probe in `scripts/probe/`, and its end-to-end test.
 *
 * @module
 */

import { lazyImport } from "../core/lazy.ts";
import type { HostAdapter, HostId, HostInfo, InitOption, NativeAdapter } from "./host.ts";
import type { HostDoctor, HostInstaller } from "./install.ts";

export type { HostId, HostInfo, InitOption };

// Literal URLs, so the module graph's readers (the layers test, the publisher) see each file.
/** Every host, in the order the help lists them. */
export const HOSTS: Readonly<Record<HostId, HostInfo>> = {
  claude: {
    id: "claude",
    name: "Claude Code",
    bin: "claude",
    npm: "@anthropic-ai/claude-code",
    verifiedVersion: "2.1.332",
    env: ["CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"],
    readsRules: true,
    watched: true,
    httpDeadline: true,
    initOptions: ["project", "mcp", "replace", "serve"],
    commandHook: false,
    adapter: () => new URL("./claude/adapter.ts", import.meta.url),
    installer: () => new URL("./claude/install.ts", import.meta.url),
    doctor: () => new URL("./claude/doctor.ts", import.meta.url),
  },
  codex: {
    id: "codex",
    name: "Codex CLI",
    bin: "codex",
    npm: "@openai/codex",
    verifiedVersion: "0.171.0",
    env: ["CODEX_HOME"],
    readsRules: false,
    watched: false,
    httpDeadline: false,
    initOptions: [],
    commandHook: true,
    adapter: () => new URL("./codex/adapter.ts", import.meta.url),
    installer: () => new URL("./codex/install.ts", import.meta.url),
    doctor: () => new URL("./codex/doctor.ts", import.meta.url),
  },
  gemini: {
    id: "gemini",
    name: "Gemini CLI",
    bin: "gemini",
    npm: "@google/gemini-cli",
    verifiedVersion: "0.61.0",
    env: ["GEMINI_CLI_HOME"],
    readsRules: false,
    watched: false,
    httpDeadline: false,
    initOptions: [],
    commandHook: true,
    adapter: () => new URL("./gemini/adapter.ts", import.meta.url),
    installer: () => new URL("./gemini/install.ts", import.meta.url),
    doctor: () => new URL("./gemini/doctor.ts", import.meta.url),
  },
  opencode: {
    id: "opencode",
    name: "OpenCode",
    bin: "opencode",
    npm: "opencode-ai",
    verifiedVersion: "1.18.33",
    env: ["XDG_CONFIG_HOME"],
    readsRules: false,
    watched: false,
    httpDeadline: false,
    initOptions: [],
    commandHook: false,
    adapter: () => new URL("./opencode/adapter.ts", import.meta.url),
    installer: () => new URL("./opencode/install.ts", import.meta.url),
    doctor: () => new URL("./opencode/doctor.ts", import.meta.url),
  },
  copilot: {
    id: "copilot",
    name: "GitHub Copilot CLI",
    bin: "copilot",
    npm: "@github/copilot",
    verifiedVersion: "1.0.102",
    env: ["COPILOT_HOME"],
    readsRules: false,
    watched: false,
    httpDeadline: false,
    initOptions: [],
    commandHook: true,
    adapter: () => new URL("./copilot/adapter.ts", import.meta.url),
    installer: () => new URL("./copilot/install.ts", import.meta.url),
    doctor: () => new URL("./copilot/doctor.ts", import.meta.url),
  },
};

/**
 * The host whose hook payloads are the plugins' own events (its adapter is `native`): an event
 * that names no host came from it.
 */
export const NATIVE_HOST: HostId = "claude";

/** Every host id, in the order the help lists them. */
export const HOST_IDS: readonly HostId[] = Object.keys(HOSTS) as HostId[];

/** True for a host id rtok knows. */
export function isHostId(name: string): name is HostId {
  return Object.hasOwn(HOSTS, name);
}

/** A host's hook protocol. */
export async function loadAdapter(id: HostId): Promise<HostAdapter | NativeAdapter> {
  return (await lazyImport<{ ADAPTER: HostAdapter | NativeAdapter }>(HOSTS[id].adapter()))
    .ADAPTER;
}

/** A host's installer (`rtok init --host`). */
export async function loadInstaller(id: HostId): Promise<HostInstaller> {
  return (await lazyImport<{ INSTALLER: HostInstaller }>(HOSTS[id].installer())).INSTALLER;
}

/** A host's doctor (`rtok doctor`). */
export async function loadDoctor(id: HostId): Promise<HostDoctor> {
  return (await lazyImport<{ DOCTOR: HostDoctor }>(HOSTS[id].doctor())).DOCTOR;
}

/** Loads what a host's hook runs (the server's warm-up loads each ahead of its first event). */
export function loadHost(id: HostId): Promise<HostAdapter | NativeAdapter> {
  return loadAdapter(id);
}

/**
 * The environment the host installers and doctors read: HOME and each host's own variables,
 * from this process (an unset or unreadable one is `undefined`).
 */
export function hostEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of ["HOME", ...HOST_IDS.flatMap((id) => HOSTS[id].env)]) {
    try {
      env[name] = Deno.env.get(name);
    } catch {
      env[name] = undefined;
    }
  }
  return env;
}
