/**
 * The command hook of the hosts that run a command per tool call (Codex CLI, Gemini CLI,
 * Copilot CLI): a script, `$RTOK_HOME/rtok_hook.sh`, installed as `bash <script> hook <host>`
 * (`sh` where PATH has no bash). It reads the event and asks rtok's resident server
 * (`rtok serve`, its port and secret in `serve.json`) with `?as=command`, whose body is exactly
 * what `rtok hook <host>` prints, and prints that. When no server answers, or it refuses, fails
 * or takes over 5 s, or `RTOK_DISABLED` is set, the script hands the same event to
 * `rtok hook <host>`, a Deno process, and starts a server for the next calls (`rtok serve
 * --ensure`, detached, at most once a minute: `serve.tried` holds when it last tried). Under
 * bash 4.1+ the script runs no other program on the server path (`read -N`, `/dev/tcp`): curl
 * alone takes ~20 ms to start, more than the whole bash path; under sh it needs `cat` and
 * `curl`, which reads the secret from the owner-only `serve.curl`, never from a command line.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import { quoteWord } from "../core/shell.ts";
import { onPath } from "../core/self.ts";
import type { HostId } from "./host.ts";
import { HOST_IDS, HOSTS } from "./hosts.ts";

/** The script's file name inside `$RTOK_HOME`. */
export const COMMAND_HOOK_FILE = "rtok_hook.sh";

/** The hosts whose hooks are commands run per call, installed through the script. */
export const COMMAND_HOOK_HOSTS: readonly HostId[] = HOST_IDS.filter((id) => HOSTS[id].commandHook);

/** The script's first line after the interpreter line: it marks the file as rtok's. */
export const COMMAND_HOOK_MARK = "# rtok: command hook written by `rtok init --host`.";

/** How long the script waits for the server before it runs rtok itself, in seconds. */
export const COMMAND_HOOK_SERVER_TIMEOUT_S = 5;

/** The script's path in `home` (`$RTOK_HOME`). */
export function commandHookPath(home: string): string {
  return joinPath(home, COMMAND_HOOK_FILE);
}

/**
 * The words a host's hook command starts with: `bash '<home>/rtok_hook.sh'` where bash is on
 * `path` (it reaches the server with no other process), else `sh '<home>/rtok_hook.sh'`.
 */
export function commandHookWords(home: string, path: string = Deno.env.get("PATH") ?? ""): string {
  return `${onPath("bash", path) ? "bash" : "sh"} ${quoteWord(commandHookPath(home))}`;
}

/**
 * The words a host's installed hook starts with: the script for a host that runs a command per
 * call, else `rtok` (the words that run rtok).
 */
export function hostHookWords(host: HostId, home: string, rtok: string): string {
  return COMMAND_HOOK_HOSTS.includes(host) ? commandHookWords(home) : rtok;
}

/** The script's text, falling back to `rtok` (the words that run rtok, shell-quoted). */
export function commandHookSource(rtok: string): string {
  return `#!/bin/sh
${COMMAND_HOOK_MARK}
# Edits here are lost on the next init. Run as: bash|sh rtok_hook.sh hook <host>
# Asks rtok's resident server (rtok serve) when one answers, else runs ${rtok} hook <host>;
# the same answer either way. Under bash 4.1 or later it needs no other program (the event
# read with read -N, the server reached through /dev/tcp); under sh, it needs cat and curl.
[ "$1" = hook ] && [ -n "$2" ] || { echo "usage: sh rtok_hook.sh hook <host>" >&2; exit 2; }
host=$2
home=\${RTOK_HOME:-$HOME/.rtok}
port=
secret=
if [ -z "\${RTOK_DISABLED+x}" ] && [ -r "$home/serve.json" ]; then
  while IFS= read -r line; do
    case $line in
      *'"port": '*) port=\${line#*: }; port=\${port%,} ;;
      *'"secret": "'*) secret=\${line#*': "'}; secret=\${secret%%'"'*} ;;
    esac
  done <"$home/serve.json"
fi
case $port in '' | 0 | *[!0-9]*) port= ;; esac
case $secret in '' | *[!0-9a-f]*) port= ;; esac
if [ -n "\${BASH_VERSION:-}" ] && [ "\${BASH_VERSINFO:-0}" -ge 4 ] 2>/dev/null; then
  # Bash run as sh is in POSIX mode, where a failed exec redirection ends the script.
  set +o posix
  lc=\${LC_ALL-unset}
  LC_ALL=C
  IFS= read -r -d '' -N ${COMMAND_HOOK_EVENT_LIMIT} event
  if [ -n "$port" ] && exec 3<>"/dev/tcp/127.0.0.1/$port"; then
    printf 'POST /hook/%s?as=command HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
      "$host" "$secret" "\${#event}" "$event" >&3
    IFS= read -r -t ${COMMAND_HOOK_SERVER_TIMEOUT_S} status <&3
    case $status in
      'HTTP/1.1 200 '*)
        while IFS= read -r -t ${COMMAND_HOOK_SERVER_TIMEOUT_S} header <&3; do
          case $header in $'\r' | '') break ;; esac
        done
        IFS= read -r -d '' -t ${COMMAND_HOOK_SERVER_TIMEOUT_S} -N ${COMMAND_HOOK_EVENT_LIMIT} answer <&3
        printf '%s' "$answer"
        exit 0
        ;;
    esac
  fi 2>/dev/null
  if [ "$lc" = unset ]; then unset LC_ALL; else LC_ALL=$lc; fi
else
  event=$(cat)
  if [ -n "$port" ] && command -v curl >/dev/null 2>&1 && [ -r "$home/serve.curl" ] &&
    answer=$(printf '%s' "$event" | curl -sf --connect-timeout 1 \
      --max-time ${COMMAND_HOOK_SERVER_TIMEOUT_S} -K "$home/serve.curl" \
      -H 'content-type: application/json' --data-binary @- \
      "http://127.0.0.1:$port/hook/$host?as=command"); then
    [ -z "$answer" ] || printf '%s\n' "$answer"
    exit 0
  fi
fi
# None answered: one is started for the next calls (at most once a minute), as Claude Code's
# SessionStart hook does, detached from this call's pipes.
if [ -z "\${RTOK_DISABLED+x}" ] && [ -z "$(find "$home/serve.tried" -mmin -1 2>/dev/null)" ] &&
  : 2>/dev/null >"$home/serve.tried"; then
  (${rtok} serve --ensure </dev/null >/dev/null 2>&1 &)
fi
printf '%s' "$event" | ${rtok} hook "$host"
`;
}

/** The largest event the script reads (the hook reads at most 1 MiB; past it, no answer). */
export const COMMAND_HOOK_EVENT_LIMIT: number = 16 * 1024 * 1024;

/**
 * Writes the script into `home` unless it is there already with this text; true when it
 * wrote.
 */
export async function writeCommandHook(home: string, rtok: string): Promise<boolean> {
  const path = commandHookPath(home);
  const text = commandHookSource(rtok);
  try {
    if (await Deno.readTextFile(path) === text) return false;
  } catch { /* not there yet */ }
  await Deno.mkdir(home, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, text, { mode: 0o644 });
  await Deno.rename(tmp, path);
  return true;
}
