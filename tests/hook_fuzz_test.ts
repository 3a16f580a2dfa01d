import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { defaultConfig } from "../src/core/config.ts";
import { joinContinuations } from "../src/core/lexer.ts";
import { answerClaudeHook, makeHookDeps } from "../src/surfaces/_hook_answer.ts";
import { rtok, tempDir } from "./_helpers.ts";
import { prng } from "./_prng.ts";

// Written apart from the lexer on purpose: the oracle must not share its bugs.
const NEVER_REWRITTEN = ["$(", "`", "<(", ">(", "<<", "$'", "$((", "$["];

// A comment to its newline, a single-quoted span, a double-quoted one, an escape, any other
// character: the shell's reading of quotes, enough to say where single quotes shield a needle.
const SHELL_PIECES =
  /(?:^|(?<=[\s;&|<>()]))#[^\n]*|'[^']*'|"(?:\\[\s\S]|[^"\\])*"?|\\[\s\S]|[\s\S]/g;

/** `line` with what single quotes enclose removed (the quotes kept): what may expand. */
function live(line: string): string {
  return line.replace(
    SHELL_PIECES,
    (piece) => piece.startsWith("'") && piece.length > 1 && piece.endsWith("'") ? "''" : piece,
  );
}

const TOOLS = [
  "git log",
  "git log --oneline -20",
  "git -C sub status",
  "git diff HEAD~1",
  "git show --stat",
  "git branch -a",
  "git commit -m 'x'",
  "grep -rn foo .",
  "rg -n 'a|b' src",
  "ls -la",
  "find . -name '*.ts'",
  "tree -L 2",
  "diff a b",
  "echo hi",
  "cat README.md",
  "npm test",
  "/usr/bin/git log",
  "rtok git log",
  "sudo ls",
  "head -5",
  "wc -l",
];
const PREFIXES = [
  "",
  "",
  "",
  "FOO=1 ",
  "timeout 5 ",
  "nice -n 3 ",
  "time ",
  "nohup ",
  "command ",
  "exec ",
  "RTOK_DISABLED=1 ",
];
const SAFE_REDIRECTS = ["", "", "", " 2>&1", " 2>/dev/null", " >/dev/null", " >&2", " &>/dev/null"];
const FILE_REDIRECTS = [" > out.txt", " >> log", " 2> err.txt", " &> all.log", " >|f", " < in.txt"];
const OPERATORS = [" && ", " || ", "; ", " | ", " & ", "\n", " |& "];
const INJECTIONS = [
  "$(date)",
  "`id`",
  "<(ls)",
  ">(cat)",
  "<<EOF\nx\nEOF",
  "$'a\\tb'",
  "$((1+2))",
  "$[1]",
];
const NOISE = [..."'\"\\$`(){}[]<>|&;#*?~=!\n\t \u00e9\u2603\u0000", "$(", "<<", "\\\n"];

interface Line {
  readonly text: string;
  /** True when a construct that must never be rewritten was put in at the top level. */
  readonly forbidden: boolean;
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function generate(r: () => number): Line {
  let text = "";
  let forbidden = false;
  const segments = 1 + Math.floor(r() * 4);
  for (let i = 0; i < segments; i++) {
    if (i > 0) text += pick(r, OPERATORS);
    text += pick(r, PREFIXES) + pick(r, TOOLS);
    if (r() < 0.1) {
      text += pick(r, FILE_REDIRECTS);
      forbidden = true;
    } else text += pick(r, SAFE_REDIRECTS);
    if (r() < 0.08) {
      text += ` ${pick(r, INJECTIONS)}`;
      forbidden = true;
    }
    if (r() < 0.05) text += " \\\n  --no-color";
  }
  return { text, forbidden };
}

function mutate(r: () => number, text: string): string {
  let out = text;
  const edits = 1 + Math.floor(r() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(r() * (out.length + 1));
    const what = r();
    if (what < 0.5) out = out.slice(0, at) + pick(r, NOISE) + out.slice(at);
    else if (what < 0.8) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(r() * 3));
    else out = out.slice(0, at) + out.slice(at).split("").reverse().join("");
  }
  return out;
}

function bashPayload(command: unknown, cwd: string, tool = "Bash"): Record<string, unknown> {
  return {
    session_id: "fuzz",
    transcript_path: "/tmp/fuzz.jsonl",
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: { command, description: "fuzz", timeout: 3000 },
    tool_use_id: "toolu_fuzz",
  };
}

const EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "SessionStart",
  "UserPromptSubmit",
  "PreCompact",
  "Stop",
  "Nope",
  "",
];
const VALUES: unknown[] = [null, 0, -1, 1e308, "", "x", true, [], {}, [1, "a"], { command: 1 }];

// Whole payloads: well formed, wrong in shape, or not JSON at all.
function payload(
  r: () => number,
  cwd: string,
): { bytes: Uint8Array; command: string | null; forbidden: boolean } {
  const enc = (s: string) => new TextEncoder().encode(s);
  const kind = r();
  if (kind < 0.4) {
    const line = generate(r);
    return {
      bytes: enc(JSON.stringify(bashPayload(line.text, cwd))),
      command: line.text,
      forbidden: line.forbidden,
    };
  }
  if (kind < 0.7) {
    const text = mutate(r, generate(r).text);
    return { bytes: enc(JSON.stringify(bashPayload(text, cwd))), command: text, forbidden: false };
  }
  const p: Record<string, unknown> = bashPayload(generate(r).text, cwd);
  const keys = Object.keys(p);
  const how = r();
  if (how < 0.2) delete p[pick(r, keys)];
  else if (how < 0.4) p[pick(r, keys)] = pick(r, VALUES);
  else if (how < 0.55) p.hook_event_name = pick(r, EVENTS);
  else if (how < 0.65) p.tool_name = pick(r, ["Read", "Edit", "bash", "BASH", "mcp__x__y", ""]);
  else if (how < 0.75) (p.tool_input as Record<string, unknown>).command = pick(r, VALUES);
  let text = JSON.stringify(p);
  const raw = r();
  if (raw < 0.1) text = text.slice(0, Math.floor(r() * text.length));
  else if (raw < 0.15) text = mutate(r, text);
  else if (raw < 0.17) text = JSON.stringify(pick(r, VALUES));
  let bytes = enc(text);
  if (r() < 0.03) {
    bytes = Uint8Array.from({ length: 1 + Math.floor(r() * 64) }, () => Math.floor(r() * 256));
  }
  // The command as the hook will read it, after whatever was done to the text.
  let cmd: unknown = null;
  try {
    cmd = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))?.tool_input?.command;
  } catch { /* not JSON: no command */ }
  return { bytes, command: typeof cmd === "string" ? cmd : null, forbidden: false };
}

// True when `rewritten` is `original` with zero or more `word ` inserted, and nothing else.
function onlyInsertions(original: string, rewritten: string, word: string): boolean {
  const memo = new Set<number>();
  const go = (i: number, j: number): boolean => {
    if (j === rewritten.length) return i === original.length;
    const key = i * (rewritten.length + 1) + j;
    if (memo.has(key)) return false;
    memo.add(key);
    if (rewritten.startsWith(word, j) && go(i, j + word.length)) return true;
    return i < original.length && original[i] === rewritten[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

function checkAnswer(
  answer: string,
  p: { bytes: Uint8Array; command: string | null; forbidden: boolean },
  note: string,
): void {
  if (answer === "") return;
  const parsed = JSON.parse(answer);
  ok(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed), note);
  const out = parsed.hookSpecificOutput;
  if (!out?.updatedInput) return;
  strictEqual(out.hookEventName, "PreToolUse", note);
  ok(out.permissionDecision === undefined || out.permissionDecision === "allow", note);
  ok(p.command !== null, `${note}: a rewrite needs a string command`);
  const cmd = p.command!;
  ok(!p.forbidden, `${note}: rewrote a line with a file redirect or substitution`);
  const expands = live(joinContinuations(cmd));
  for (const needle of NEVER_REWRITTEN) ok(!expands.includes(needle), `${note}: rewrote ${needle}`);
  const rewritten = out.updatedInput.command as string;
  ok(rewritten !== cmd, note);
  ok(
    onlyInsertions(joinContinuations(cmd), rewritten, "rtok "),
    `${note}: ${JSON.stringify(rewritten)} from ${JSON.stringify(cmd)}`,
  );
  deepStrictEqual(
    { ...out.updatedInput, command: cmd },
    JSON.parse(new TextDecoder().decode(p.bytes)).tool_input,
    note,
  );
}

function world(tmp: string) {
  const bin = `${tmp}/bin`;
  Deno.mkdirSync(bin);
  Deno.mkdirSync(`${tmp}/home/.claude`, { recursive: true });
  Deno.mkdirSync(`${tmp}/project`);
  Deno.writeTextFileSync(`${bin}/rtok`, "#!/bin/sh\n", { mode: 0o755 });
  Deno.writeTextFileSync(
    `${tmp}/home/.claude/settings.json`,
    JSON.stringify({
      permissions: {
        allow: ["Bash(npm test:*)"],
        deny: ["Bash(git commit:*)"],
        ask: ["Bash(git branch:*)"],
      },
    }),
  );
  return {
    env: { HOME: `${tmp}/home`, PATH: `${bin}:/usr/bin:/bin`, RTOK_HOME: `${tmp}/rtok` },
    project: `${tmp}/project`,
  };
}

const SEED = 20261203;

Deno.test("answerClaudeHook() survives 10,000 random and mutated events, rewriting only what it can vouch for", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  // The rewrite alone: the guard's own rewrites insert more than `rtok ` (its tests are its own).
  const config = defaultConfig();
  config.plugins.guard = { enabled: false };
  const deps = makeHookDeps({ config, home: w.env.RTOK_HOME, env: w.env });
  const r = prng(SEED);
  let rewrites = 0;
  let answers = 0;
  for (let n = 0; n < 10_000; n++) {
    const p = payload(r, w.project);
    const note = `seed ${SEED} case ${n}`;
    const result = await answerClaudeHook(p.bytes, deps);
    checkAnswer(result.answer, p, note);
    if (result.answer) answers++;
    if (result.answer.includes("updatedInput")) rewrites++;
    deps.registry.errors.splice(0);
  }
  // The generator must reach both sides, or the test proves nothing.
  ok(rewrites > 2000, `${rewrites} rewrites`);
  ok(answers < 10_000 - 2000, `${10_000 - answers} events answered with nothing`);
});

Deno.test("rtok hook claude exits 0 and prints nothing or one JSON object for 200 random events", async () => {
  using tmp = tempDir();
  const w = world(tmp.path);
  const r = prng(SEED + 1);
  const cases = Array.from({ length: 200 }, () => payload(r, w.project));
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const p = cases[i];
      const res = await rtok(w.env.RTOK_HOME, ["hook", "claude"], {
        env: w.env,
        cwd: w.project,
        stdin: p.bytes,
      });
      strictEqual(res.code, 0, `case ${i}: ${res.err}`);
      const lines = res.out.split("\n").filter(Boolean);
      ok(lines.length <= 1, `case ${i}: ${res.out}`);
      checkAnswer(lines[0] ?? "", p, `process case ${i}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
});
