/**
 * The rewrite table: shell lines an agent runs, the Claude Code rules in force, and what the
 * hook must make of them — the verdict, and for `allow` and `ask` the exact rewritten line.
 * `tests/rewrite_table_test.ts` runs every case through `rtok rewrite` and `rtok hook claude`.
 *
 * The inserted words are always `rtok` here: the tests put an executable named `rtok` first on
 * PATH.
 *
 * @module
 */

/** The Claude Code permission lists a case runs under (`~/.claude/settings.json`). */
export interface CaseRules {
  /** `permissions.allow`. */
  readonly allow?: readonly string[];
  /** `permissions.ask`. */
  readonly ask?: readonly string[];
  /** `permissions.deny`. */
  readonly deny?: readonly string[];
}

/** A verdict, as `rtok rewrite --json` prints it. */
export type CaseVerdict = "allow" | "ask" | "deny" | "none";

/** One line and what must become of it. */
export interface RewriteCase {
  /** A name for the step; the line itself when absent. */
  readonly name?: string;
  /** The command line as the agent wrote it. */
  readonly line: string;
  /** The user's rules; none when absent. */
  readonly rules?: CaseRules;
  /** The verdict. */
  readonly verdict: CaseVerdict;
  /** The rewritten line, for `allow` and `ask`. */
  readonly command?: string;
  /** Extra environment for the rtok process. */
  readonly env?: Readonly<Record<string, string>>;
}

type More = Pick<RewriteCase, "name" | "rules" | "env">;

function allow(line: string, command: string, more: More = {}): RewriteCase {
  return { line, verdict: "allow", command, ...more };
}

function ask(line: string, command: string, more: More = {}): RewriteCase {
  return { line, verdict: "ask", command, ...more };
}

function none(line: string, more: More = {}): RewriteCase {
  return { line, verdict: "none", ...more };
}

function deny(line: string, rules: CaseRules, more: More = {}): RewriteCase {
  return { line, verdict: "deny", rules, ...more };
}

const DENY_PUSH: CaseRules = { deny: ["Bash(git push:*)"] };
const DENY_RM: CaseRules = { deny: ["Bash(rm:*)"] };
const ALLOW_LOG: CaseRules = { allow: ["Bash(git log:*)"] };
const ALLOW_ALL: CaseRules = { allow: ["Bash"] };
const ASK_LOG: CaseRules = { ask: ["Bash(git log:*)"] };
const OFF = { RTOK_DISABLED: "1" };

/** The cases, by group. */
export const REWRITE_CASE_GROUPS: Readonly<Record<string, readonly RewriteCase[]>> = {
  // ---------------------------------------------------------------------------------------
  // Simple rewrites, one family at a time, with the flags agents use.
  // ---------------------------------------------------------------------------------------
  "git log": [
    allow("git log", "rtok git log"),
    allow("git log --oneline -20", "rtok git log --oneline -20"),
    allow("git log -p --stat -3 -- src/", "rtok git log -p --stat -3 -- src/"),
    allow("git log --graph --decorate --all", "rtok git log --graph --decorate --all"),
    allow(
      'git log --since="2 weeks ago" --author=ada',
      'rtok git log --since="2 weeks ago" --author=ada',
    ),
    allow("git log --format=%H%x09%s -n 5", "rtok git log --format=%H%x09%s -n 5"),
    allow("git log main..HEAD", "rtok git log main..HEAD"),
    allow("git log --stat", "rtok git log --stat"),
    allow("git log --stat -5 -- src/", "rtok git log --stat -5 -- src/"),
    allow("git log --shortstat --author=ada", "rtok git log --shortstat --author=ada"),
    // filtered no more than it was: rtok passes --numstat through untouched when it runs
    allow("git log --numstat", "rtok git log --numstat"),
    ask("git -C ../other log -5", "rtok git -C ../other log -5"),
    ask("git --no-pager log -1", "rtok git --no-pager log -1"),
  ],
  "git status": [
    allow("git status", "rtok git status"),
    allow("git status -sb", "rtok git status -sb"),
    allow("git status --porcelain=v1", "rtok git status --porcelain=v1"),
    allow("git status --short --branch -- src", "rtok git status --short --branch -- src"),
    ask("git --no-optional-locks status", "rtok git --no-optional-locks status"),
  ],
  "git diff": [
    allow("git diff", "rtok git diff"),
    allow("git diff --stat", "rtok git diff --stat"),
    allow("git diff HEAD~1 -- src/main.ts", "rtok git diff HEAD~1 -- src/main.ts"),
    allow("git diff --cached --name-only", "rtok git diff --cached --name-only"),
    allow("git diff main...feature", "rtok git diff main...feature"),
    allow("git diff HEAD~3..HEAD --stat", "rtok git diff HEAD~3..HEAD --stat"),
    ask("git -P diff -U0", "rtok git -P diff -U0"),
  ],
  "git show": [
    allow("git show", "rtok git show"),
    allow("git show HEAD --stat", "rtok git show HEAD --stat"),
    allow("git show abc123:src/a.ts", "rtok git show abc123:src/a.ts"),
    allow("git show --name-status HEAD~2", "rtok git show --name-status HEAD~2"),
  ],
  "git branch": [
    allow("git branch", "rtok git branch"),
    allow("git branch -a", "rtok git branch -a"),
    allow("git branch -vv", "rtok git branch -vv"),
    allow("git branch --show-current", "rtok git branch --show-current"),
    allow("git branch --sort=-committerdate", "rtok git branch --sort=-committerdate"),
    allow("git branch --list 'feat/*'", "rtok git branch --list 'feat/*'"),
    allow("git branch -r --merged=main", "rtok git branch -r --merged=main"),
  ],
  "git blame": [
    allow("git blame src/x.ts", "rtok git blame src/x.ts"),
    allow("git blame -L 10,40 -w src/x.ts", "rtok git blame -L 10,40 -w src/x.ts"),
    allow("git blame -C -C -- src/x.ts", "rtok git blame -C -C -- src/x.ts"),
    allow("git blame --porcelain src/x.ts", "rtok git blame --porcelain src/x.ts"),
    none("git blame src/x.ts | head -20"),
  ],
  "grep": [
    allow("grep -rn TODO src", "rtok grep -rn TODO src"),
    allow('grep -i "error" app.log', 'rtok grep -i "error" app.log'),
    allow("grep -E 'foo|bar' -r .", "rtok grep -E 'foo|bar' -r ."),
    allow("grep -c x file.txt", "rtok grep -c x file.txt"),
    allow(
      'grep -rn --include="*.ts" handler src/',
      'rtok grep -rn --include="*.ts" handler src/',
    ),
    allow("grep -r -X egrep 'a|b' src", "rtok grep -r -X egrep 'a|b' src"),
  ],
  "rg": [
    allow("rg TODO", "rtok rg TODO"),
    allow('rg -n "fn main" src', 'rtok rg -n "fn main" src'),
    allow("rg -t ts -l import", "rtok rg -t ts -l import"),
    allow("rg --files", "rtok rg --files"),
    allow("rg -i 'a|b' -g '!*.lock'", "rtok rg -i 'a|b' -g '!*.lock'"),
    allow("rg -r X TODO src", "rtok rg -r X TODO src"),
    allow("rg --replace=X TODO src", "rtok rg --replace=X TODO src"),
    allow("rg --max-depth 2 TODO", "rtok rg --max-depth 2 TODO"),
    allow("rg --ignore-file .rgignore TODO", "rtok rg --ignore-file .rgignore TODO"),
    ask("rg --pre cat TODO src", "rtok rg --pre cat TODO src", {
      name: "rg --pre runs a program for each file: not a read",
    }),
  ],
  "ls": [
    allow("ls", "rtok ls"),
    allow("ls -la", "rtok ls -la"),
    allow("ls -lh src/", "rtok ls -lh src/"),
    allow("ls -1 tests", "rtok ls -1 tests"),
    allow("ls --color=never -R", "rtok ls --color=never -R"),
  ],
  "find": [
    allow("find . -name '*.ts'", "rtok find . -name '*.ts'"),
    allow("find src -type f -newer deno.json", "rtok find src -type f -newer deno.json"),
    allow("find . -maxdepth 2 -type d", "rtok find . -maxdepth 2 -type d"),
    allow(
      "find . -name \"*.md\" -not -path './node_modules/*'",
      "rtok find . -name \"*.md\" -not -path './node_modules/*'",
    ),
    allow("find . -size +1M -print", "rtok find . -size +1M -print"),
  ],
  "tree": [
    allow("tree", "rtok tree"),
    allow("tree -L 2", "rtok tree -L 2"),
    allow("tree -a -I 'node_modules|.git'", "rtok tree -a -I 'node_modules|.git'"),
    allow("tree -d src", "rtok tree -d src"),
  ],
  "diff": [
    allow("diff a.txt b.txt", "rtok diff a.txt b.txt"),
    allow("diff -u old.ts new.ts", "rtok diff -u old.ts new.ts"),
    allow("diff -r dir1 dir2", "rtok diff -r dir1 dir2"),
    allow("diff --brief a b", "rtok diff --brief a b"),
  ],

  // ---------------------------------------------------------------------------------------
  // Refusals: what the text alone cannot vouch for is never rewritten, quoted or not.
  // ---------------------------------------------------------------------------------------
  "refusals": [
    // command substitution
    none("git log $(git merge-base HEAD main)..HEAD"),
    none('grep "$(cat pattern.txt)" src'),
    none("ls $(pwd)/src"),
    none('echo "$(date)" && git status'),
    // single quotes: nothing inside them expands, so the line is attestable
    allow("grep '$(not run)' notes.md", "rtok grep '$(not run)' notes.md"),
    allow("grep -rn '$(not a substitution)' src", "rtok grep -rn '$(not a substitution)' src"),
    allow("grep -n '`x` <(y) <<EOF' f", "rtok grep -n '`x` <(y) <<EOF' f"),
    // ...but only what the single quotes enclose
    none("grep '$(x)' $(ls)"),
    none("grep \"'$(x)'\" f", { name: "single quotes inside double quotes are literal" }),
    none("grep \\'$(x)\\' f", { name: "an escaped single quote opens nothing" }),
    none("grep $'a' f", { name: "ANSI-C quoting stays refused" }),
    none("grep 'x f $(y)", { name: "an unclosed single quote shields nothing" }),
    // backticks
    none("git log `cat ref`"),
    none('grep "`whoami`" /etc/passwd'),
    none("git status; echo `date`"),
    // process substitution
    none("diff <(ls a) <(ls b)"),
    none("grep x <(cat f)"),
    none("git log > >(tee log.txt)"),
    none('diff "<(x)" b', { name: "<( inside double quotes" }),
    // heredocs and herestrings
    none("grep x <<EOF\nfoo\nEOF"),
    none("cat <<'EOF' | grep x\nhi\nEOF"),
    none('grep x <<< "foo"'),
    none("git log <<-EOF\n\tEOF"),
    // arithmetic
    none("git log -$((1+2))"),
    none('git log -n "$((5))"'),
    none("ls $[1+1]"),
    none("((n++)) && git log"),
    // ANSI-C and locale quoting
    none("grep $'\\t' data.tsv"),
    none("git log --format=$'%h\\n'"),
    none("grep \"$'x'\" f", { name: "$' inside double quotes" }),
    none('grep $"hello" f'),
    // unclosed quotes, a lone trailing backslash
    none('grep "foo f'),
    none("git log 'x"),
    none("grep foo\\"),
    // case syntax, subshells and groups
    none("case x in a) git log;; esac"),
    none("(git log)"),
    none("(cd src && ls)"),
    none("git status && (git log)"),
    none("{ git log; }"),
    none("{ ls; git status; } 2>&1"),
    // a pipe with nothing before it, a redirect with no target
    none("| grep x"),
    none("git log >"),
    none("git log 2>"),
  ],

  // ---------------------------------------------------------------------------------------
  // Redirects: descriptor copies and /dev/null are fine (but no longer "only reads" on their
  // own); anything that writes or reads a file is refused.
  // ---------------------------------------------------------------------------------------
  "redirects": [
    ask("git log 2>&1", "rtok git log 2>&1"),
    ask("git status >&2", "rtok git status >&2"),
    ask("git log 1>&2", "rtok git log 1>&2"),
    ask("git log 2>&-", "rtok git log 2>&-"),
    ask("grep -r x . 2>/dev/null", "rtok grep -r x . 2>/dev/null"),
    ask("ls &>/dev/null", "rtok ls &>/dev/null"),
    ask("git diff >/dev/null", "rtok git diff >/dev/null"),
    ask("git diff > /dev/null 2>&1", "rtok git diff > /dev/null 2>&1"),
    ask("git log >>/dev/null", "rtok git log >>/dev/null"),
    ask("git log < /dev/null", "rtok git log < /dev/null"),
    ask('git log 2>"/dev/null"', 'rtok git log 2>"/dev/null"'),
    ask("2>/dev/null git log", "2>/dev/null rtok git log"),
    ask("find . -name x 2>/dev/null | grep y", "find . -name x 2>/dev/null | rtok grep y"),
    ask("git log 2>&1 | grep fix", "git log 2>&1 | rtok grep fix"),
    allow("git log 2>&1", "rtok git log 2>&1", { rules: ALLOW_LOG }),
    none("git log > out.txt"),
    none("git log >> log"),
    none("git log 2> err.txt"),
    none("ls &> f"),
    none("ls >|f"),
    none("grep x < input"),
    none("git log>x", { name: "glued git log>x" }),
    none("git log 2>err"),
    none("grep x f >out"),
    none("git log >& f"),
    none('git log > "$F"'),
    none("git log 1>out"),
    none("git log &>>all.log"),
    none("grep x 0<input"),
    none("git status <> f"),
    none("git log > /dev/stdout"),
    none("git log > out.txt; git status"),
    none("git log > out.txt", { rules: ALLOW_ALL, name: "a file redirect under allow Bash" }),
  ],

  // ---------------------------------------------------------------------------------------
  // Compound commands: each part on its own, every other byte as written.
  // ---------------------------------------------------------------------------------------
  "compound": [
    allow("git status && git log -3", "rtok git status && rtok git log -3"),
    allow("git status || ls", "rtok git status || rtok ls"),
    allow("git status; git diff", "rtok git status; rtok git diff"),
    allow("git log -1 && git show --stat", "rtok git log -1 && rtok git show --stat"),
    allow("ls;ls", "rtok ls;rtok ls"),
    allow("git status&&git log", "rtok git status&&rtok git log"),
    allow(
      "  git status   &&   ls  -la ;  grep  x  f  ",
      "  rtok git status   &&   rtok ls  -la ;  rtok grep  x  f  ",
    ),
    allow("git status\t;\tls", "rtok git status\t;\trtok ls"),
    allow("git log;", "rtok git log;"),
    allow("git status\ngit log", "rtok git status\nrtok git log"),
    allow("git status\n\ngit diff --stat\n", "rtok git status\n\nrtok git diff --stat\n"),
    allow("git status &&\ngit diff", "rtok git status &&\nrtok git diff"),
    ask("git fetch && git log", "git fetch && rtok git log"),
    ask("make && git status", "rtok make && rtok git status"),
    ask("git status & git log", "rtok git status & rtok git log"),
    ask("git log &", "rtok git log &"),
    ask("cd src && ls -la", "cd src && rtok ls -la"),
    ask("npm test || git diff", "rtok npm test || rtok git diff"),
    ask(
      "git add -A && git commit -m wip && git log -1",
      "git add -A && git commit -m wip && rtok git log -1",
    ),
    ask("echo start; git status; echo done", "echo start; rtok git status; echo done"),
    ask("git status && git push", "rtok git status && git push"),
    ask(
      "git status && ls || tree -L 1; diff a b & grep x f",
      "rtok git status && rtok ls || rtok tree -L 1; rtok diff a b & rtok grep x f",
    ),
    ask("FOO=1; git log", "FOO=1; rtok git log"),
    ask("git push; npm test && make", "git push; rtok npm test && rtok make"),
  ],

  // ---------------------------------------------------------------------------------------
  // Pipes: only the last stage, and only when its filter reads a pipe right.
  // ---------------------------------------------------------------------------------------
  "pipes": [
    allow("git log | grep fix", "git log | rtok grep fix"),
    allow("git log|grep x", "git log|rtok grep x"),
    allow("git log |& grep x", "git log |& rtok grep x"),
    allow("git branch | grep feat", "git branch | rtok grep feat"),
    allow("grep x f | grep -v y | grep z", "grep x f | grep -v y | rtok grep z"),
    allow("find . -name '*.ts' | grep test", "find . -name '*.ts' | rtok grep test"),
    allow("rg foo | grep bar", "rg foo | rtok grep bar"),
    allow("git diff | diff - b.patch", "git diff | rtok diff - b.patch"),
    allow("git log | grep x && rg y", "git log | rtok grep x && rtok rg y"),
    allow("git log |\\\n  grep fix", "git log |  rtok grep fix"),
    ask("cat file | grep x", "cat file | rtok grep x"),
    ask("echo x | ls", "echo x | rtok ls"),
    ask("ls | FOO=1 grep x", "ls | FOO=1 rtok grep x"),
    ask("git log | head; rg x", "git log | head; rtok rg x"),
    none("git log --oneline | head -5"),
    none("git status | cat"),
    none("ls | wc -l"),
    none("ls | rg foo"),
    none("cat a | rg x"),
    none("rg foo | rg bar"),
    none("ls | timeout 5 rg x"),
    none("ls | sudo grep x"),
    none("git log | tee out.log"),
    none("find . | xargs grep x"),
  ],

  // ---------------------------------------------------------------------------------------
  // Quoting: operators, `#` and spaces inside quotes are words; quotes around the tool name.
  // ---------------------------------------------------------------------------------------
  "quoting": [
    allow('grep "a && b" file', 'rtok grep "a && b" file'),
    allow("grep 'x; rm -rf /' f", "rtok grep 'x; rm -rf /' f"),
    allow('grep "a|b" f', 'rtok grep "a|b" f'),
    allow("grep 'a>b' f", "rtok grep 'a>b' f"),
    allow('grep "a > b" f', 'rtok grep "a > b" f'),
    allow('grep "#include" src', 'rtok grep "#include" src'),
    allow("grep '#' f", "rtok grep '#' f"),
    allow("grep foo#bar f", "rtok grep foo#bar f"),
    allow("grep foo\\ bar f", "rtok grep foo\\ bar f"),
    allow('grep "it\'s" f', 'rtok grep "it\'s" f'),
    allow("grep 'say \"hi\"' f", "rtok grep 'say \"hi\"' f"),
    allow('grep "a\\"b" f', 'rtok grep "a\\"b" f'),
    allow('grep "x" "y" && ls "a b"', 'rtok grep "x" "y" && rtok ls "a b"'),
    allow("grep '$PAT' f", "rtok grep '$PAT' f"),
    allow("ls '*.ts'", "rtok ls '*.ts'"),
    allow('"git" log', 'rtok "git" log'),
    allow("'ls' -la", "rtok 'ls' -la"),
    allow("\\git status", "rtok \\git status"),
    allow('g"it" log', 'rtok g"it" log'),
    allow('git "log" -5', 'rtok git "log" -5'),
    allow("git 'status'", "rtok git 'status'"),
    ask('grep "$PAT" f', 'rtok grep "$PAT" f'),
    ask('"/usr/bin/git" log', 'rtok "/usr/bin/git" log'),
    none('grep "unclosed f'),
    none("grep 'unclosed f"),
    none('"timeout" 5 git log', { name: "a quoted wrapper is not looked through" }),
  ],

  // ---------------------------------------------------------------------------------------
  // Comments.
  // ---------------------------------------------------------------------------------------
  "comments": [
    allow("git log # recent commits", "rtok git log # recent commits"),
    allow("git status # && rm -rf /", "rtok git status # && rm -rf /"),
    allow("git log -3 #; git push", "rtok git log -3 #; git push"),
    allow("# first\ngit status", "# first\nrtok git status"),
    allow("git status;# done", "rtok git status;# done"),
    allow("git status # note\nls", "rtok git status # note\nrtok ls"),
    allow("git log # a \\\ngit status", "rtok git log # a \\\nrtok git status"),
    ask("echo hi #x\ngit log", "echo hi #x\nrtok git log"),
    none("# just a note"),
    none("# git log"),
    none("git log # $(x)"),
  ],

  // ---------------------------------------------------------------------------------------
  // Line continuations: backslash-newline removed, as the shell reads it.
  // ---------------------------------------------------------------------------------------
  "continuations": [
    allow("git log \\\n  --oneline -5", "rtok git log   --oneline -5"),
    allow("git \\\nlog", "rtok git log"),
    allow("git lo\\\ng", "rtok git log"),
    allow("grep -rn \\\n  TODO \\\n  src", "rtok grep -rn   TODO   src"),
    allow("git status && \\\ngit diff", "rtok git status && rtok git diff"),
    allow('grep "a\\\nb" f', 'rtok grep "ab" f'),
    allow("grep 'a\\\nb' f", "rtok grep 'a\\\nb' f"),
    allow("ls \\\n", "rtok ls "),
    ask("FOO=1 \\\n  git log", "FOO=1   rtok git log"),
    none("git log \\\n  > out.txt"),
  ],

  // ---------------------------------------------------------------------------------------
  // Environment prefixes and wrappers: rtok goes right before the tool word.
  // ---------------------------------------------------------------------------------------
  "wrappers": [
    ask("FOO=1 git log", "FOO=1 rtok git log"),
    ask("FOO=1 BAR=2 git log", "FOO=1 BAR=2 rtok git log"),
    ask("GIT_PAGER=cat git log -5", "GIT_PAGER=cat rtok git log -5"),
    ask("LC_ALL=C grep -r x .", "LC_ALL=C rtok grep -r x ."),
    ask('FOO="a b" git status', 'FOO="a b" rtok git status'),
    ask("FOO= ls", "FOO= rtok ls"),
    ask("timeout 5 git log", "timeout 5 rtok git log"),
    ask("timeout -s KILL 5 git log", "timeout -s KILL 5 rtok git log"),
    ask("timeout --signal=KILL 5s git log", "timeout --signal=KILL 5s rtok git log"),
    ask("timeout -k 1 5 git log", "timeout -k 1 5 rtok git log"),
    ask("timeout --kill-after=1 5 git log", "timeout --kill-after=1 5 rtok git log"),
    ask("timeout --preserve-status 1m git log", "timeout --preserve-status 1m rtok git log"),
    ask("timeout --foreground -v 5 ls", "timeout --foreground -v 5 rtok ls"),
    ask("time git status", "time rtok git status"),
    ask("time -p git status", "time -p rtok git status"),
    ask("nice git log", "nice rtok git log"),
    ask("nice -n 10 git log", "nice -n 10 rtok git log"),
    ask("nice -n5 grep x f", "nice -n5 rtok grep x f"),
    ask("nice -5 ls", "nice -5 rtok ls"),
    ask("nice --adjustment=3 ls", "nice --adjustment=3 rtok ls"),
    ask("nohup git log", "nohup rtok git log"),
    ask("nohup git log &", "nohup rtok git log &"),
    ask("command git log", "command rtok git log"),
    ask("command -p git log", "command -p rtok git log"),
    ask("exec git log", "exec rtok git log"),
    ask("FOO=1 timeout 5 git log", "FOO=1 timeout 5 rtok git log"),
    ask("nice -n 5 timeout 10 git log", "nice -n 5 timeout 10 rtok git log"),
    ask("time nice -n 5 grep x f", "time nice -n 5 rtok grep x f"),
    ask("nohup timeout 5 ls", "nohup timeout 5 rtok ls"),
    none("timeout --foo 5 git log"),
    none("timeout git log", { name: "timeout without a duration" }),
    none("timeout 5", { name: "timeout with no command" }),
    none("nice -x ls"),
    none("command -v git"),
    none("command -- git log"),
    none("exec -a x git log"),
    none("exec -c git log"),
    none("env FOO=1 git log", { name: "env is not a wrapper" }),
    none("FOO=1"),
    ask("FOO=1 npm test", "FOO=1 rtok npm test"),
    none("FOO=1 cat x"),
  ],

  // ---------------------------------------------------------------------------------------
  // sudo and doas: never.
  // ---------------------------------------------------------------------------------------
  "sudo": [
    none("sudo git log"),
    none("sudo -u bob ls"),
    none("sudo grep -r x /etc"),
    none("doas ls"),
    none("timeout 5 sudo git log"),
    none("FOO=1 sudo ls"),
    none("/usr/bin/sudo git status"),
  ],

  // ---------------------------------------------------------------------------------------
  // Paths: an absolute tool path is known by the tool's name, and kept.
  // ---------------------------------------------------------------------------------------
  "paths": [
    ask("/usr/bin/git log -5", "rtok /usr/bin/git log -5"),
    ask("/bin/ls -la", "rtok /bin/ls -la"),
    ask("/usr/bin/grep -rn x .", "rtok /usr/bin/grep -rn x ."),
    ask("/usr/bin/find . -name x", "rtok /usr/bin/find . -name x"),
    ask("/usr/local/bin/rg TODO", "rtok /usr/local/bin/rg TODO"),
    ask("/usr/bin/diff a b", "rtok /usr/bin/diff a b"),
    ask("/usr/bin/tree -L 1", "rtok /usr/bin/tree -L 1"),
    ask("FOO=1 /usr/bin/git status", "FOO=1 rtok /usr/bin/git status"),
    allow("/usr/bin/git log", "rtok /usr/bin/git log", {
      rules: { allow: ["Bash(/usr/bin/git log:*)"] },
    }),
    none("/usr/bin/git push"),
    none("/bin/cat f"),
    none("./script.sh"),
    none("../bin/cat x"),
    none("bin/run --fast"),
  ],

  // ---------------------------------------------------------------------------------------
  // Already rtok.
  // ---------------------------------------------------------------------------------------
  "already rtok": [
    none("rtok git log"),
    none("rtok ls -la"),
    none("rtok gain"),
    none("/usr/local/bin/rtok git log"),
    none("FOO=1 rtok git status"),
    none("timeout 5 rtok grep x f"),
    ask("git status && rtok git log", "rtok git status && rtok git log"),
    ask("rtok git log | grep x", "rtok git log | rtok grep x"),
  ],

  // ---------------------------------------------------------------------------------------
  // RTOK_DISABLED, as a prefix and in the environment.
  // ---------------------------------------------------------------------------------------
  "RTOK_DISABLED": [
    none("RTOK_DISABLED=1 git log"),
    none("git log; RTOK_DISABLED=1 git status", {
      name: "a prefix on one part turns off the line",
    }),
    none("RTOK_DISABLED=1 true; git status"),
    none("git status && RTOK_DISABLED=1 ls"),
    none("RTOK_DISABLED=1 git log | grep x"),
    none("git log; RTOK_DISABLED=1 git status", { rules: ALLOW_ALL }),
    none("RTOK_DISABLED=1 ls -la"),
    none("FOO=1 RTOK_DISABLED=1 git status"),
    none("RTOK_DISABLED=true grep x f"),
    none('RTOK_DISABLED="1" git log'),
    ask("RTOK_DISABLED=0 git log", "RTOK_DISABLED=0 rtok git log"),
    none("git log", { env: OFF }),
    none("ls -la", { env: OFF }),
    none("git status && git diff", { env: OFF }),
    none("grep x f | grep y", { env: OFF }),
    none("git log", { env: OFF, rules: ALLOW_ALL }),
    allow("git log", "rtok git log", { env: { RTOK_DISABLED: "0" } }),
    allow("git log", "rtok git log", { env: { RTOK_DISABLED: "" } }),
  ],

  // ---------------------------------------------------------------------------------------
  // Shell keywords: a line whose command word is syntax is not rewritten there.
  // ---------------------------------------------------------------------------------------
  "keywords": [
    none("if git status; then ls; fi"),
    none("for f in a b; do grep x $f; done"),
    none("while true; do git status; done"),
    none("until git diff --quiet; do sleep 1; done"),
    none('case "$x" in a) ls;; esac'),
    none("f() { git log; }"),
    none("function f { git log; }"),
    none("select x in a; do ls; done"),
    none("coproc git log"),
    none("! git diff --quiet"),
    none("(git status)"),
    none("{ git status; }"),
    ask("[[ -d src ]] && ls src", "[[ -d src ]] && rtok ls src"),
    ask("[ -d src ] && ls src", "[ -d src ] && rtok ls src"),
    ask("test -d src && ls src", "test -d src && rtok ls src"),
  ],

  // ---------------------------------------------------------------------------------------
  // Commands with no filter.
  // ---------------------------------------------------------------------------------------
  "no filter": [
    none("cat README.md"),
    none("echo hello"),
    ask("npm install", "rtok npm install"),
    ask("make build", "rtok make build"),
    none('git commit -m "fix: x"'),
    none("git push origin main"),
    none("git"),
    none("git --version"),
    none("git -C src"),
    none("git stash list"),
    none("git checkout -b x"),
    none("git fetch --all"),
    none("git reflog"),
    none("git shortlog -sn"),
    ask("python3 -m pytest", "rtok python3 -m pytest"),
    ask("cargo test", "rtok cargo test"),
    none("deno task test"),
    none("head -20 f"),
    none("wc -l f"),
    none("sed -n 1,5p f"),
    none("grepx foo"),
    none("lsof -i"),
    none("$GIT log", { name: "the tool word is a variable" }),
    none("git $CMD"),
    none("git -C $DIR log", { name: "a variable among the words that select the filter" }),
    none('"$TOOL" x'),
  ],

  // ---------------------------------------------------------------------------------------
  // Permission rules: deny.
  // ---------------------------------------------------------------------------------------
  "deny": [
    deny("git push", DENY_PUSH),
    deny("git push origin main", DENY_PUSH),
    deny("git status && git push", DENY_PUSH),
    deny("git log | grep x; git push", DENY_PUSH),
    deny("FOO=1 git push", DENY_PUSH, { name: "deny through an env prefix" }),
    deny("/usr/bin/git push", DENY_PUSH, { name: "deny through a tool path" }),
    deny("timeout 5 git push origin", DENY_PUSH, { name: "deny through a wrapper" }),
    deny('"git" push', DENY_PUSH, { name: "deny through quotes" }),
    allow("git log", "rtok git log", { rules: DENY_PUSH }),
    deny("git log", { deny: ["Bash(git log)"] }),
    deny("git log -5", { deny: ["Bash(git log)"] }),
    allow("git status", "rtok git status", { rules: { deny: ["Bash(git log)"] } }),
    deny("git push --force", { deny: ["Bash(git * --force)"] }),
    deny("git log --force", { deny: ["Bash(git * --force)"] }),
    allow("git log", "rtok git log", { rules: { deny: ["Bash(git * --force)"] } }),
    deny("git log", { deny: ["Bash(git log *)"] }),
    deny("git log -1", { deny: ["Bash(git log *)"] }),
    deny("git log", { deny: ["Bash(git lo:*)"] }),
    deny("git log", { deny: ["Bash"] }),
    deny("echo hi", { deny: ["Bash"] }),
    deny("ls | grep x", { deny: ["Bash"] }),
    deny("ls && rm -rf build", DENY_RM),
    deny("git status; rm x", DENY_RM),
    deny("ls && /bin/rm -rf x", DENY_RM),
    deny("ls && nohup rm x", DENY_RM),
    allow("ls", "rtok ls", { rules: DENY_RM }),
    deny("git status && git push", {
      deny: ["Bash(git push:*)"],
      ask: ["Bash(git status:*)"],
      allow: ["Bash"],
    }),
  ],

  // ---------------------------------------------------------------------------------------
  // Permission rules: ask.
  // ---------------------------------------------------------------------------------------
  "ask": [
    ask("git log", "rtok git log", { rules: ASK_LOG }),
    ask("git log -5", "rtok git log -5", { rules: ASK_LOG }),
    ask("FOO=1 git log", "FOO=1 rtok git log", { rules: ASK_LOG }),
    ask("/usr/bin/git log", "rtok /usr/bin/git log", { rules: ASK_LOG }),
    allow("git status", "rtok git status", { rules: ASK_LOG }),
    ask("git status", "rtok git status", { rules: { ask: ["Bash(git status)"] } }),
    ask("git status -s", "rtok git status -s", { rules: { ask: ["Bash(git status)"] } }),
    ask("git diff main", "rtok git diff main", { rules: { ask: ["Bash(git * main)"] } }),
    ask("git log main", "rtok git log main", { rules: { ask: ["Bash(git * main)"] } }),
    ask("ls", "rtok ls", { rules: { ask: ["Bash"] } }),
    ask("git log", "rtok git log", {
      rules: { allow: ["Bash(git log:*)"], ask: ["Bash(git log:*)"] },
      name: "ask beats allow",
    }),
    ask("git status && ls", "rtok git status && rtok ls", {
      rules: { allow: ["Bash"], ask: ["Bash(ls:*)"] },
    }),
    ask("git status && git log", "rtok git status && rtok git log", {
      rules: { ask: ["Bash(git log)"] },
    }),
    ask("npm test && git log", "rtok npm test && rtok git log", {
      rules: { ask: ["Bash(npm test:*)"], allow: ["Bash(npm test:*)"] },
    }),
    none("git push", { rules: { ask: ["Bash(git push:*)"] } }),
  ],

  // ---------------------------------------------------------------------------------------
  // Permission rules: allow (strict: on the command as written).
  // ---------------------------------------------------------------------------------------
  "allow rules": [
    allow("git branch -D old", "rtok git branch -D old", {
      rules: { allow: ["Bash(git branch:*)"] },
    }),
    allow("git branch new-feature", "rtok git branch new-feature", {
      rules: { allow: ["Bash(git branch:*)"] },
    }),
    allow("git branch new", "rtok git branch new", {
      rules: { allow: ["Bash(git branch new)"] },
    }),
    ask("git branch new2", "rtok git branch new2", {
      rules: { allow: ["Bash(git branch new)"] },
    }),
    allow("git branch -D main", "rtok git branch -D main", {
      rules: { allow: ["Bash(git * main)"] },
    }),
    ask("git branch -D dev", "rtok git branch -D dev", {
      rules: { allow: ["Bash(git * main)"] },
    }),
    allow("FOO=1 git log", "FOO=1 rtok git log", { rules: ALLOW_ALL }),
    allow("cat f | grep x", "cat f | rtok grep x", { rules: ALLOW_ALL }),
    allow("/usr/bin/git log", "rtok /usr/bin/git log", { rules: ALLOW_ALL }),
    allow("git log &", "rtok git log &", { rules: ALLOW_ALL }),
    allow("find . -delete", "rtok find . -delete", { rules: { allow: ["Bash(find:*)"] } }),
    allow("find . -name '*.o' -exec rm {} +", "rtok find . -name '*.o' -exec rm {} +", {
      rules: { allow: ["Bash(find:*)"] },
    }),
    allow("cat a | grep x", "cat a | rtok grep x", { rules: { allow: ["Bash(cat:*)"] } }),
    allow("npm test && git log", "rtok npm test && rtok git log", {
      rules: { allow: ["Bash(npm test:*)"] },
    }),
    ask("npm testing && git log", "npm testing && rtok git log", {
      rules: { allow: ["Bash(npm test:*)"] },
    }),
    ask("FOO=1 git log", "FOO=1 rtok git log", { rules: ALLOW_LOG }),
    allow("git log --output=x", "rtok git log --output=x", { rules: ALLOW_LOG }),
    allow("git log &", "rtok git log &", { rules: ALLOW_LOG }),
    ask("git log --output=x", "rtok git log --output=x", {
      rules: { allow: ["Bash(git lo:*)"] },
      name: "an allow prefix covers whole words only",
    }),
    allow("git -C src log", "rtok git -C src log", {
      rules: { allow: ["Bash(git -C src log:*)"] },
    }),
    allow("ls -la /tmp", "rtok ls -la /tmp", { rules: { allow: ["Bash(ls:*)"] } }),
    allow("timeout 5 git log", "timeout 5 rtok git log", {
      rules: { allow: ["Bash(timeout 5 git log:*)"] },
    }),
    ask("git diff --ext-diff", "rtok git diff --ext-diff", {
      rules: { allow: ["Bash(git diff)"] },
      name: "an exact allow rule covers only the exact command",
    }),
  ],

  // ---------------------------------------------------------------------------------------
  // No rules: read-only arguments are allowed, anything else asks.
  // ---------------------------------------------------------------------------------------
  "read-only": [
    ask("git branch -D x", "rtok git branch -D x"),
    ask("git branch -d x", "rtok git branch -d x"),
    ask("git branch newbranch", "rtok git branch newbranch"),
    ask("git branch -m a b", "rtok git branch -m a b"),
    ask("git branch -u origin/main", "rtok git branch -u origin/main"),
    allow("git branch --contains=abc", "rtok git branch --contains=abc"),
    ask("git log --output=out.txt", "rtok git log --output=out.txt"),
    ask("git log --output out.txt", "rtok git log --output out.txt"),
    ask("git diff --output=x.patch", "rtok git diff --output=x.patch"),
    ask("git diff --ext-diff", "rtok git diff --ext-diff"),
    ask("git show --textconv HEAD", "rtok git show --textconv HEAD"),
    ask("git blame --textconv src/x.ts", "rtok git blame --textconv src/x.ts"),
    ask("find . -exec cat {} \\;", "rtok find . -exec cat {} \\;"),
    ask("find . -execdir ls \\;", "rtok find . -execdir ls \\;"),
    ask("find . -ok rm {} \\;", "rtok find . -ok rm {} \\;"),
    ask("find . -delete", "rtok find . -delete"),
    ask("find . -fprint out", "rtok find . -fprint out"),
    ask("find . -fls out", "rtok find . -fls out"),
    ask("tree -o out.txt", "rtok tree -o out.txt"),
    ask("tree -R -H .", "rtok tree -R -H ."),
    ask("rg --pre cat x", "rtok rg --pre cat x"),
    ask("rg --pre=cat x", "rtok rg --pre=cat x"),
    ask("rg -z x", "rtok rg -z x"),
    ask("rg --search-zip x", "rtok rg --search-zip x"),
    ask("git -c core.pager=cat log", "rtok git -c core.pager=cat log"),
    ask("git --git-dir=.git log", "rtok git --git-dir=.git log"),
    ask("git --git-dir .git log", "rtok git --git-dir .git log"),
    ask("git --work-tree=. status", "rtok git --work-tree=. status"),
    ask("git --exec-path=/tmp log", "rtok git --exec-path=/tmp log"),
    ask("git -C src --no-pager diff", "rtok git -C src --no-pager diff"),
    ask("git -C src log", "rtok git -C src log"),
    ask("ls ~", "rtok ls ~"),
    ask("ls ~/src", "rtok ls ~/src"),
    ask("grep $X f", "rtok grep $X f"),
    ask('grep -r "$HOME" .', 'rtok grep -r "$HOME" .'),
    ask("ls *.md", "rtok ls *.md"),
    ask("ls src/{a,b}", "rtok ls src/{a,b}"),
    ask("ls file?.txt", "rtok ls file?.txt"),
    ask("grep [a-z] f", "rtok grep [a-z] f"),
    // a path outside the working directory: Claude Code asks before reading it
    ask("ls -la /tmp", "rtok ls -la /tmp"),
    ask("ls ..", "rtok ls .."),
    ask("ls ../sibling", "rtok ls ../sibling"),
    ask("ls src/../..", "rtok ls src/../.."),
    ask("grep -r TODO /etc", "rtok grep -r TODO /etc"),
    ask("grep --file=/etc/patterns x", "rtok grep --file=/etc/patterns x"),
    ask("find / -name x", "rtok find / -name x"),
    ask("tree '/var/log'", "rtok tree '/var/log'"),
    ask("diff a.txt ../b.txt", "rtok diff a.txt ../b.txt"),
    ask("git diff -- ../other", "rtok git diff -- ../other"),
    ask("rg x ~/notes", "rtok rg x ~/notes"),
    allow("ls a..b", "rtok ls a..b"),
    allow("ls ./src", "rtok ls ./src"),
    allow("grep -r x src/a/b", "rtok grep -r x src/a/b"),
  ],

  // Found in review: each was wrong once.
  "review": [
    none("ls |\nrg foo", { name: "a newline after | continues the pipeline" }),
    none("git log |\nhead -5"),
    none("git log | # keep\n  head"),
    allow("git status &&\n git log", "rtok git status &&\n rtok git log"),
    allow("git status ||\ngit log", "rtok git status ||\nrtok git log"),
    none("git log |", { name: "a pipe with nothing after it" }),
    none("git log &&"),
    ask("rg -nz foo", "rtok rg -nz foo", { name: "-z inside a cluster runs decompressors" }),
    ask("rg -zn foo", "rtok rg -zn foo"),
    ask("rg --hostname-bin=x foo", "rtok rg --hostname-bin=x foo"),
    ask("tree -ao out.txt", "rtok tree -ao out.txt", { name: "-o inside a cluster writes a file" }),
    ask("tree -Ro x", "rtok tree -Ro x"),
    allow("tree -aL 2", "rtok tree -aL 2"),
    none("./git log", { name: "a relative path may be a local script" }),
    none("bin/ls -la"),
    ask("git log >&/dev/null", "rtok git log >&/dev/null"),
    none("RTOK_DISABLED=1 git log && ls -la", { name: "RTOK_DISABLED on one part" }),
    none("ls -la; RTOK_DISABLED=1 git log"),
  ],
  // Every filter family the catalogue added, in the forms agents type: these run code or write
  // files, so without a rule of the user's Claude Code decides.
  "catalogue": [
    ask("pytest -q tests/unit", "rtok pytest -q tests/unit"),
    ask("python -m pytest -x", "rtok python -m pytest -x"),
    ask("cargo test --lib", "rtok cargo test --lib"),
    ask("cargo test -q --offline", "rtok cargo test -q --offline"),
    ask("go test ./...", "rtok go test ./..."),
    ask("go test -v ./pkg/...", "rtok go test -v ./pkg/..."),
    ask("rspec spec/cart_spec.rb", "rtok rspec spec/cart_spec.rb"),
    ask("rspec --format documentation", "rtok rspec --format documentation"),
    ask("bundle exec rspec --fail-fast", "rtok bundle exec rspec --fail-fast"),
    ask("phpunit --testdox", "rtok phpunit --testdox"),
    ask("phpunit tests/Unit", "rtok phpunit tests/Unit"),
    ask("npx jest --ci", "rtok npx jest --ci"),
    ask("jest src/a.test.js", "rtok jest src/a.test.js"),
    ask("npx vitest run", "rtok npx vitest run"),
    ask("vitest run --reporter=dot", "rtok vitest run --reporter=dot"),
    ask("npx mocha test/", "rtok npx mocha test/"),
    ask("mocha --recursive", "rtok mocha --recursive"),
    ask("node --test", "rtok node --test"),
    ask("node --test test/a.test.js", "rtok node --test test/a.test.js"),
    ask("deno test -A", "rtok deno test -A"),
    ask("deno test --no-check src/", "rtok deno test --no-check src/"),
    ask("npx tsc --noEmit", "rtok npx tsc --noEmit"),
    ask("./node_modules/.bin/tsc -p .", "rtok ./node_modules/.bin/tsc -p ."),
    ask("npx eslint .", "rtok npx eslint ."),
    ask("eslint src --max-warnings 0", "rtok eslint src --max-warnings 0"),
    ask("npx biome check .", "rtok npx biome check ."),
    ask("biome lint src", "rtok biome lint src"),
    ask("ruff check .", "rtok ruff check ."),
    ask("ruff check src --fix", "rtok ruff check src --fix"),
    ask("mypy src", "rtok mypy src"),
    ask("python -m mypy --strict app.py", "rtok python -m mypy --strict app.py"),
    ask("cargo build", "rtok cargo build"),
    ask("cargo build --release", "rtok cargo build --release"),
    ask("cargo check", "rtok cargo check"),
    ask("cargo check --all-targets", "rtok cargo check --all-targets"),
    ask("cargo clippy", "rtok cargo clippy"),
    ask("cargo clippy -- -D warnings", "rtok cargo clippy -- -D warnings"),
    ask("go build ./...", "rtok go build ./..."),
    ask("go build -o app .", "rtok go build -o app ."),
    ask("go vet ./...", "rtok go vet ./..."),
    ask("go vet ./pkg/...", "rtok go vet ./pkg/..."),
    ask("golangci-lint run ./...", "rtok golangci-lint run ./..."),
    ask("golangci-lint run --out-format json", "rtok golangci-lint run --out-format json"),
    ask("npm install left-pad", "rtok npm install left-pad"),
    ask("npm install --save-dev typescript", "rtok npm install --save-dev typescript"),
    ask("npm i", "rtok npm i"),
    ask("npm i -D vitest", "rtok npm i -D vitest"),
    ask("npm ci", "rtok npm ci"),
    ask("npm ci --ignore-scripts", "rtok npm ci --ignore-scripts"),
    ask("pnpm install", "rtok pnpm install"),
    ask("pnpm install --frozen-lockfile", "rtok pnpm install --frozen-lockfile"),
    ask("pnpm i", "rtok pnpm i"),
    ask("pnpm i lodash", "rtok pnpm i lodash"),
    ask("yarn install", "rtok yarn install"),
    ask("yarn install --frozen-lockfile", "rtok yarn install --frozen-lockfile"),
    ask("yarn", "rtok yarn"),
    ask("yarn --frozen-lockfile", "rtok yarn --frozen-lockfile"),
    ask("bun install", "rtok bun install"),
    ask("bun install --production", "rtok bun install --production"),
    ask("bun i", "rtok bun i"),
    ask("bun i zod", "rtok bun i zod"),
    ask("pip install -r requirements.txt", "rtok pip install -r requirements.txt"),
    ask("python -m pip install ./pkg", "rtok python -m pip install ./pkg"),
    ask("pip3 install requests", "rtok pip3 install requests"),
    ask("pip3 install -e .", "rtok pip3 install -e ."),
    ask("cargo fetch", "rtok cargo fetch"),
    ask("cargo fetch --locked", "rtok cargo fetch --locked"),
    ask("npm run build", "rtok npm run build"),
    ask("npm run lint -- --fix", "rtok npm run lint -- --fix"),
    ask("pnpm run build", "rtok pnpm run build"),
    ask("pnpm run dev", "rtok pnpm run dev"),
    ask("pnpm test", "rtok pnpm test"),
    ask("pnpm test -- --watch=false", "rtok pnpm test -- --watch=false"),
    ask("yarn run build", "rtok yarn run build"),
    ask("yarn run lint", "rtok yarn run lint"),
    ask("yarn test", "rtok yarn test"),
    ask("yarn test --ci", "rtok yarn test --ci"),
    ask("bun run build", "rtok bun run build"),
    ask("bun run dev", "rtok bun run dev"),
    ask("terraform plan", "rtok terraform plan"),
    ask("terraform plan -out=tfplan", "rtok terraform plan -out=tfplan"),
    ask("tofu plan", "rtok tofu plan"),
    ask("tofu plan -var-file=prod.tfvars", "rtok tofu plan -var-file=prod.tfvars"),
    ask("du -h", "rtok du -h"),
    ask("du -ah node_modules", "rtok du -ah node_modules"),
    ask("ps aux", "rtok ps aux"),
    ask("ps -ef", "rtok ps -ef"),
    ask("docker ps", "rtok docker ps"),
    ask("docker ps -a", "rtok docker ps -a"),
    ask("docker images", "rtok docker images"),
    ask("docker images --all", "rtok docker images --all"),
    ask("docker logs web", "rtok docker logs web"),
    ask("docker logs --tail 200 api", "rtok docker logs --tail 200 api"),
    ask("docker build -t myapp .", "rtok docker build -t myapp ."),
    ask("docker build --no-cache -f ci.df .", "rtok docker build --no-cache -f ci.df ."),
    ask("kubectl get pods", "rtok kubectl get pods"),
    ask("kubectl get deploy -n prod -o wide", "rtok kubectl get deploy -n prod -o wide"),
    ask("kubectl logs api-7d9c6b8f5d-9mvtz", "rtok kubectl logs api-7d9c6b8f5d-9mvtz"),
    ask("kubectl logs deploy/api --tail=100", "rtok kubectl logs deploy/api --tail=100"),
    ask("kubectl describe pod api-7d9c6b8f5d", "rtok kubectl describe pod api-7d9c6b8f5d"),
    ask("kubectl describe node worker-2", "rtok kubectl describe node worker-2"),
    ask("curl -sS https://api.example.com/health", "rtok curl -sS https://api.example.com/health"),
    ask("curl -v -o out.bin https://x.test/f", "rtok curl -v -o out.bin https://x.test/f"),
    ask("wget https://example.com/latest.tar.gz", "rtok wget https://example.com/latest.tar.gz"),
    ask("wget -q -O - https://example.com/api", "rtok wget -q -O - https://example.com/api"),
    ask("shellcheck scripts/deploy.sh", "rtok shellcheck scripts/deploy.sh"),
    ask("shellcheck -f gcc bin/*.sh", "rtok shellcheck -f gcc bin/*.sh"),
    ask("jq . data.json", "rtok jq . data.json"),
    ask("jq .version package.json", "rtok jq .version package.json"),
    ask("yamllint .", "rtok yamllint ."),
    ask("yamllint -f parsable config.yaml", "rtok yamllint -f parsable config.yaml"),
    ask("systemctl status nginx", "rtok systemctl status nginx"),
    ask("systemctl status --no-pager api.service", "rtok systemctl status --no-pager api.service"),
    ask("journalctl -u api --since today", "rtok journalctl -u api --since today"),
    ask("journalctl -xe", "rtok journalctl -xe"),
    ask("gh pr view 123", "rtok gh pr view 123"),
    ask("gh pr list --state open", "rtok gh pr list --state open"),
    ask("gh issue view 118", "rtok gh issue view 118"),
    ask("gh issue list --label bug", "rtok gh issue list --label bug"),
    ask("gh run list --limit 5", "rtok gh run list --limit 5"),
    ask("gh run view 8934512345 --log-failed", "rtok gh run view 8934512345 --log-failed"),
    ask("mvn -q test", "rtok mvn -q test"),
    ask("mvn -B clean install -DskipTests", "rtok mvn -B clean install -DskipTests"),
    ask("make", "rtok make"),
    ask("make -j4 test", "rtok make -j4 test"),
    ask("df -h", "rtok df -h"),
    ask("df", "rtok df"),
    ask("gradle build", "rtok gradle build"),
    ask("./gradlew test --offline", "rtok ./gradlew test --offline"),
    ask("./mvnw -B verify", "rtok ./mvnw -B verify"),
    ask("dotnet build -c Release", "rtok dotnet build -c Release"),
    ask("dotnet build src/Shop.sln", "rtok dotnet build src/Shop.sln"),
    ask("dotnet test --no-build", "rtok dotnet test --no-build"),
    ask("dotnet test --filter Price", "rtok dotnet test --filter Price"),
    ask("helm upgrade --install shop ./chart", "rtok helm upgrade --install shop ./chart"),
    ask("helm upgrade shop ./chart -f prod.yaml", "rtok helm upgrade shop ./chart -f prod.yaml"),
    ask("helm install db bitnami/postgresql", "rtok helm install db bitnami/postgresql"),
    ask("helm -n staging install shop ./chart", "rtok helm -n staging install shop ./chart"),
    ask("helm status shop -n staging", "rtok helm status shop -n staging"),
    ask("helm status db", "rtok helm status db"),
    ask("helm list -A", "rtok helm list -A"),
    ask("helm list --failed", "rtok helm list --failed"),
    ask("helm template shop ./chart", "rtok helm template shop ./chart"),
    ask("helm template shop ./chart -f dev.yaml", "rtok helm template shop ./chart -f dev.yaml"),
    ask("ansible-playbook -i hosts site.yml", "rtok ansible-playbook -i hosts site.yml"),
    ask("ansible-playbook site.yml --check", "rtok ansible-playbook site.yml --check"),
    ask("pre-commit run --all-files", "rtok pre-commit run --all-files"),
    ask("pre-commit run ruff --files a.py", "rtok pre-commit run ruff --files a.py"),
    ask("markdownlint docs/*.md", "rtok markdownlint docs/*.md"),
    ask("markdownlint --fix README.md", "rtok markdownlint --fix README.md"),
    ask("npx markdownlint-cli2 README.md", "rtok npx markdownlint-cli2 README.md"),
    ask("markdownlint-cli2 '**/*.md'", "rtok markdownlint-cli2 '**/*.md'"),
    none("pre-commit install", { name: "pre-commit has a filter for run only" }),
    none("sub/gradlew build", { name: "a wrapper below the root may be any script" }),
  ],
};

/** Every case, in group order. */
export const REWRITE_CASES: readonly RewriteCase[] = Object.values(REWRITE_CASE_GROUPS).flat();
