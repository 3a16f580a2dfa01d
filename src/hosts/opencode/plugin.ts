/**
 * The plugin file `rtok init --host opencode` writes into OpenCode's plugins folder. OpenCode
 * has no command hooks: it loads every `.js` file in `<config>/plugin(s)/` and calls the
 * functions it exports. rtok's plugin is plain JavaScript with no import of
 * `@opencode-ai/plugin`; for each finished `bash` call it sends one JSON event to rtok's
 * resident server (`rtok serve`, found through `$RTOK_HOME/serve.json`) when one answers, else
 * to `<rtok> hook opencode` on stdin, and if rtok answers `{"output": "…"}`, puts that text in
 * place of the tool's output. If rtok fails, is slow or answers nothing, the output is left
 * as OpenCode made it.
 *
 * @module
 */

/** The first line of every plugin file rtok writes; no other file is ever rtok's. */
export const PLUGIN_MARK = "// rtok: OpenCode plugin written by `rtok init --host opencode`.";

/** The line that lists the folders rtok created for the plugin (JSON), removed with it. */
export const CREATED_PREFIX = "// rtok-created-dirs: ";

/** The line that names the words the plugin runs (JSON), for `rtok doctor`. */
export const COMMAND_PREFIX = "// rtok-command: ";

/** The file name of rtok's plugin inside the plugins folder. */
export const PLUGIN_FILE = "rtok.js";

/** How long the plugin waits for rtok before it leaves the output alone, in milliseconds. */
export const PLUGIN_TIMEOUT_MS = 10_000;

/** The largest event the plugin sends (the hook reads at most 1 MiB). */
export const PLUGIN_EVENT_LIMIT = 1024 * 1024;

/** How long the plugin waits for the resident server before it runs rtok itself. */
export const PLUGIN_SERVER_TIMEOUT_MS = 5_000;

/**
 * The plugin file's text, running `command` (`<rtok> hook opencode`), with the dirs it made;
 * it asks the server whose state is in `serveState` (`$RTOK_HOME/serve.json`) first.
 */
export function pluginSource(
  command: string,
  createdDirs: readonly string[],
  serveState: string,
): string {
  return `${PLUGIN_MARK}
// \`rtok init --host opencode --uninstall\` removes it. Edits here are lost on the next init.
${COMMAND_PREFIX}${JSON.stringify(command)}
${CREATED_PREFIX}${JSON.stringify(createdDirs)}
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const COMMAND = ${JSON.stringify(command)};
const SERVE_STATE = ${JSON.stringify(serveState)};
const TIMEOUT_MS = ${PLUGIN_TIMEOUT_MS};
const SERVER_TIMEOUT_MS = ${PLUGIN_SERVER_TIMEOUT_MS};
const EVENT_LIMIT = ${PLUGIN_EVENT_LIMIT};

// Asks rtok's resident server, when one runs: its answer, or undefined when there is none
// (then rtok runs as a command). No Deno start-up per call this way.
async function askServer(event) {
  let state;
  try {
    state = JSON.parse(readFileSync(SERVE_STATE, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof state?.port !== "number" || typeof state?.secret !== "string") return undefined;
  try {
    const r = await fetch(\`http://127.0.0.1:\${state.port}/hook/opencode\`, {
      method: "POST",
      headers: { authorization: \`Bearer \${state.secret}\`, "content-type": "application/json" },
      body: event,
      signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
    });
    const text = await r.text();
    return r.ok ? text : undefined;
  } catch {
    return undefined;
  }
}

// Runs rtok with one event on stdin; its stdout, or null when it failed or took too long.
function askRtok(event) {
  return new Promise((resolve) => {
    let settled = false;
    let timer;
    const settle = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    let child;
    try {
      // Its own process group, so a timeout stops rtok and anything it started.
      child = spawn("/bin/sh", ["-c", COMMAND], {
        stdio: ["pipe", "pipe", "ignore"],
        detached: true,
      });
    } catch {
      settle(null);
      return;
    }
    timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch { /* gone already */ }
      settle(null);
    }, TIMEOUT_MS);
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.on("error", () => settle(null));
    child.on("close", (code) => settle(code === 0 ? Buffer.concat(chunks).toString("utf8") : null));
    child.stdin.on("error", () => {});
    child.stdin.end(event);
  });
}

export const RtokPlugin = async ({ directory }) => ({
  "tool.execute.after": async (input, output) => {
    try {
      if (input?.tool !== "bash") return;
      const meta = output?.metadata;
      const event = JSON.stringify({
        event: "tool.execute.after",
        tool: input.tool,
        sessionID: input.sessionID ?? null,
        callID: input.callID ?? null,
        directory: directory ?? null,
        args: input.args ?? null,
        output: output?.output ?? null,
        metadata: meta && typeof meta === "object"
          ? { exit: meta.exit, truncated: meta.truncated }
          : null,
      });
      if (Buffer.byteLength(event) > EVENT_LIMIT) return;
      const served = await askServer(event);
      const text = served !== undefined ? served : await askRtok(event);
      if (!text || !text.trim()) return;
      const answer = JSON.parse(text);
      if (typeof answer?.output === "string") output.output = answer.output;
    } catch { /* rtok changes nothing when anything goes wrong */ }
  },
});
`;
}

/** What a plugin file says of itself: `null` when it is not rtok's. */
export function readPluginFile(
  text: string,
): { command: string | null; createdDirs: string[] } | null {
  if (!text.startsWith(PLUGIN_MARK)) return null;
  const line = (prefix: string) =>
    text.split("\n").find((l) => l.startsWith(prefix))?.slice(prefix.length) ?? null;
  let command: string | null = null;
  let createdDirs: string[] = [];
  try {
    const c = JSON.parse(line(COMMAND_PREFIX) ?? "null");
    if (typeof c === "string") command = c;
  } catch { /* an edited line: no command known */ }
  try {
    const d = JSON.parse(line(CREATED_PREFIX) ?? "[]");
    if (Array.isArray(d)) createdDirs = d.filter((x): x is string => typeof x === "string");
  } catch { /* an edited line: no folder is removed */ }
  return { command, createdDirs };
}
