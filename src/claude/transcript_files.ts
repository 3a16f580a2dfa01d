/**
 * Where Claude Code keeps a session's transcripts, in every layout seen in the wild, and which
 * files make one session. Under the projects folder (`~/.claude/projects`) each project is a
 * folder named after its working directory, holding:
 *
 * - `<session>.jsonl`: the session (every version);
 * - `agent-<id>.jsonl` beside it: a subagent's sidechain (2.0), whose lines carry the parent's
 *   `sessionId`;
 * - `<session>/subagents/agent-<id>.jsonl`: a subagent's sidechain (2.1);
 * - `<session>/tool-results/…`: outputs Claude Code saved to files (not transcripts).
 *
 * A session is counted once by its id, with every file that carries it: a session's own file is
 * named by its id; a subagent's file belongs to the id its lines give, else to the session
 * folder its `subagents/` folder sits in.
 *
 * @module
 */

import { joinPath } from "../core/paths.ts";
import { isObject, readLine } from "./_transcript_line.ts";

// Folders searched below a root: project/session/subagents, from the projects folder or the
// folder above it (`~/.claude`).
const _DEPTH = 4;

/** One session's transcript files. */
export interface SessionFiles {
  /** The session id. */
  readonly session: string;
  /** The folder the session's own file is in (its project's folder). */
  readonly dir: string;
  /** The session's own transcript, when it is there. */
  readonly main: string | null;
  /** Its subagents' transcripts, sorted. */
  readonly agents: readonly string[];
}

/** What could not be read while listing. */
export interface ListProblems {
  /** Paths that did not exist. */
  missingPaths: number;
  /** Files or folders that could not be read. */
  unreadable: number;
}

/** Every `.jsonl` file at or below `root` (a file, a project folder, or the projects folder). */
export function transcriptFiles(root: string, problems: ListProblems): string[] {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(root);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) problems.missingPaths++;
    else problems.unreadable++;
    return [];
  }
  if (info.isFile) return [root];
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      problems.unreadable++;
      return;
    }
    for (const e of entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) {
      const p = joinPath(dir, e.name);
      if ((e.isFile || e.isSymlink) && e.name.endsWith(".jsonl")) out.push(p);
      else if (e.isDirectory && depth > 0 && e.name !== "tool-results") walk(p, depth - 1);
    }
  };
  walk(root, _DEPTH);
  return out;
}

// The first `sessionId` a transcript's lines give, read from its first 64 KiB.
function _sessionIdIn(path: string): string | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return null;
  }
  try {
    const buf = new Uint8Array(64 * 1024);
    const n = file.readSync(buf) ?? 0;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    const lines = text.split("\n");
    // The last line may be cut by the read.
    if (n === buf.length) lines.pop();
    for (const line of lines) {
      if (!line.includes("sessionId")) continue;
      const read = readLine(line.trim());
      if (read.kind === "line" && isObject(read.value)) {
        const id = read.value.sessionId;
        if (typeof id === "string" && id !== "") return id;
      }
    }
    return null;
  } finally {
    file.close();
  }
}

function _name(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.jsonl$/, "");
}

function _dir(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/** True when `path` is a subagent's transcript (`agent-*.jsonl`, or under `subagents/`). */
export function isAgentTranscript(path: string): boolean {
  return _name(path).startsWith("agent-") || _dir(path).endsWith("/subagents");
}

/**
 * `paths` (transcript files) grouped into sessions by id, in the order their first file came.
 * A subagent file whose session's own file is not among them is still a session of its own id.
 */
export function groupSessions(paths: readonly string[]): SessionFiles[] {
  const by = new Map<
    string,
    { session: string; dir: string; main: string | null; agents: string[] }
  >();
  for (const path of paths) {
    const agent = isAgentTranscript(path);
    // A 2.1 subagent sits in `<project>/<session>/subagents/`.
    const placed = _dir(path).endsWith("/subagents") ? _dir(_dir(path)) : null;
    // Claude Code names a session's own file by its id; a subagent's lines carry its parent's.
    const session = agent
      ? _sessionIdIn(path) ?? (placed ? placed.slice(placed.lastIndexOf("/") + 1) : _name(path))
      : _name(path);
    const dir = placed ? _dir(placed) : _dir(path);
    let s = by.get(session);
    if (!s) {
      s = { session, dir, main: null, agents: [] };
      by.set(session, s);
    }
    if (agent) s.agents.push(path);
    else {
      s.main = path;
      s.dir = dir;
    }
  }
  return [...by.values()].map((s) => ({ ...s, agents: [...s.agents].sort() }));
}
