/**
 * The rewrite rules: one entry per command family that has a filter, and only those (a test
 * holds this table to the filter index). Each says whether the filter stays right when the
 * command reads a pipe, and which of its arguments keep it a read-only command — the commands
 * Claude Code itself runs without asking, so the hook may say "allow" for their rtok form
 * without granting anything the agent did not already have.
 *
 * @module
 */

/** One family's rule. */
export interface RewriteRule {
  /** True when the filter is right on the last stage of a pipeline (input from a pipe). */
  readonly pipeSafe: boolean;
  /**
   * True when the command with these arguments (after the family's own words) only reads,
   * as far as rtok can tell from the text: no flag that writes a file or runs a program.
   */
  readOnly(args: readonly string[]): boolean;
}

// True unless an argument is one of `bad` (a long option also with `=value`), or a cluster of
// short options (`-nz`, `-ofile`) holding one of the letters in `short`.
function _none(
  bad: readonly string[],
  short = "",
): (args: readonly string[]) => boolean {
  return (args) =>
    !args.some((a) =>
      bad.some((b) => a === b || (b.startsWith("--") && a.startsWith(`${b}=`))) ||
      (short !== "" && /^-[A-Za-z0-9]/.test(a) && [...a.slice(1)].some((c) => short.includes(c)))
    );
}

// git's log-like commands: `--output` writes a file; an external diff or textconv runs a
// program the repository's config names.
const GIT_READ = _none(["--output", "--ext-diff", "--textconv"]);

const GIT_BRANCH_LIST = new Set([
  "-a",
  "-r",
  "-l",
  "-v",
  "-vv",
  "--all",
  "--remotes",
  "--list",
  "--verbose",
  "--show-current",
  "--no-color",
  "--color",
  "--no-column",
  "-q",
  "--quiet",
]);

// `git branch NAME` creates a branch, `-d`/`-m`/`-u` change them: only listing is reading.
function _gitBranchReads(args: readonly string[]): boolean {
  const listing = args.includes("--list") || args.includes("-l");
  return args.every((a) =>
    GIT_BRANCH_LIST.has(a) ||
    /^--(sort|format|contains|no-contains|merged|no-merged|points-at|color|column)=/.test(a) ||
    (!a.startsWith("-") && listing)
  );
}

/** Every family with a filter, by the name the ledger uses. */
export const REWRITE_RULES: Readonly<Record<string, RewriteRule>> = {
  "git log": { pipeSafe: true, readOnly: GIT_READ },
  "git status": { pipeSafe: true, readOnly: GIT_READ },
  "git diff": { pipeSafe: true, readOnly: GIT_READ },
  "git show": { pipeSafe: true, readOnly: GIT_READ },
  "git branch": { pipeSafe: true, readOnly: _gitBranchReads },
  // grep with no file reads its input and prints bare lines, which the filter reads right.
  "grep": { pipeSafe: true, readOnly: () => true },
  // rg with no path searches its input or the directory depending on what stdin is, which
  // the filter cannot see: never on a pipe. `--pre` and `-z` run other programs.
  "rg": {
    pipeSafe: false,
    readOnly: _none(["--pre", "--search-zip", "--hostname-bin"], "z"),
  },
  "ls": { pipeSafe: true, readOnly: () => true },
  "find": {
    pipeSafe: true,
    readOnly: _none([
      "-exec",
      "-execdir",
      "-ok",
      "-okdir",
      "-delete",
      "-fprint",
      "-fprint0",
      "-fprintf",
      "-fls",
    ]),
  },
  // `-o` writes the listing to a file; `-R` with `-H` writes an index into every directory.
  "tree": { pipeSafe: true, readOnly: _none([], "oR") },
  "diff": { pipeSafe: true, readOnly: () => true },
  // Test runners run the project's code and write caches and build artifacts.
  "pytest": { pipeSafe: false, readOnly: () => false },
  "cargo test": { pipeSafe: false, readOnly: () => false },
  "go test": { pipeSafe: false, readOnly: () => false },
  "rspec": { pipeSafe: false, readOnly: () => false },
  "phpunit": { pipeSafe: false, readOnly: () => false },
  // Test runners run the project's code.
  "jest": { pipeSafe: false, readOnly: () => false },
  "vitest": { pipeSafe: false, readOnly: () => false },
  "mocha": { pipeSafe: false, readOnly: () => false },
  "node --test": { pipeSafe: false, readOnly: () => false },
  "deno test": { pipeSafe: false, readOnly: () => false },
  // Compilers and linters write caches and build artifacts, and some run the project's code
  // (build scripts, config files, plugins).
  "tsc": { pipeSafe: false, readOnly: () => false },
  "eslint": { pipeSafe: false, readOnly: () => false },
  "biome": { pipeSafe: false, readOnly: () => false },
  "ruff": { pipeSafe: false, readOnly: () => false },
  "mypy": { pipeSafe: false, readOnly: () => false },
  "cargo build": { pipeSafe: false, readOnly: () => false },
  "cargo check": { pipeSafe: false, readOnly: () => false },
  "cargo clippy": { pipeSafe: false, readOnly: () => false },
  "go build": { pipeSafe: false, readOnly: () => false },
  "go vet": { pipeSafe: false, readOnly: () => false },
  // Linters may write (`--fix`) and run the project's build.
  "golangci-lint": { pipeSafe: false, readOnly: () => false },
  // Package managers write node_modules, lockfiles, caches and environments, and run install
  // scripts; script runners run the project's code.
  "npm install": { pipeSafe: false, readOnly: () => false },
  "npm i": { pipeSafe: false, readOnly: () => false },
  "npm ci": { pipeSafe: false, readOnly: () => false },
  "pnpm install": { pipeSafe: false, readOnly: () => false },
  "pnpm i": { pipeSafe: false, readOnly: () => false },
  "yarn install": { pipeSafe: false, readOnly: () => false },
  "yarn": { pipeSafe: false, readOnly: () => false },
  "bun install": { pipeSafe: false, readOnly: () => false },
  "bun i": { pipeSafe: false, readOnly: () => false },
  "pip install": { pipeSafe: false, readOnly: () => false },
  "pip3 install": { pipeSafe: false, readOnly: () => false },
  "cargo fetch": { pipeSafe: false, readOnly: () => false },
  "npm run": { pipeSafe: false, readOnly: () => false },
  "npm test": { pipeSafe: false, readOnly: () => false },
  "pnpm run": { pipeSafe: false, readOnly: () => false },
  "pnpm test": { pipeSafe: false, readOnly: () => false },
  "yarn run": { pipeSafe: false, readOnly: () => false },
  "yarn test": { pipeSafe: false, readOnly: () => false },
  "bun run": { pipeSafe: false, readOnly: () => false },
  // Declarative filters (filters/*.toml). None is read-only, not even the plain reads (du, ps,
  // docker ps, kubectl get): the real Claude Code's own unasked reads are verified only for
  // git, ls, grep, find, tree and diff. Plans take state locks; the rest reach daemons,
  // clusters and the network. jq reads stdin, so its filter is right on piped input.
  "terraform plan": { pipeSafe: false, readOnly: () => false },
  "tofu plan": { pipeSafe: false, readOnly: () => false },
  "du": { pipeSafe: false, readOnly: () => false },
  "ps": { pipeSafe: false, readOnly: () => false },
  "docker ps": { pipeSafe: false, readOnly: () => false },
  "docker images": { pipeSafe: false, readOnly: () => false },
  "docker logs": { pipeSafe: false, readOnly: () => false },
  "docker build": { pipeSafe: false, readOnly: () => false },
  "kubectl get": { pipeSafe: false, readOnly: () => false },
  "kubectl logs": { pipeSafe: false, readOnly: () => false },
  "kubectl describe": { pipeSafe: false, readOnly: () => false },
  "curl": { pipeSafe: false, readOnly: () => false },
  "wget": { pipeSafe: false, readOnly: () => false },
  "shellcheck": { pipeSafe: false, readOnly: () => false },
  "jq": { pipeSafe: true, readOnly: () => false },
  "yamllint": { pipeSafe: false, readOnly: () => false },
  "systemctl status": { pipeSafe: false, readOnly: () => false },
  "journalctl": { pipeSafe: false, readOnly: () => false },
  "gh pr": { pipeSafe: false, readOnly: () => false },
  "gh issue": { pipeSafe: false, readOnly: () => false },
  "gh run": { pipeSafe: false, readOnly: () => false },
  "mvn": { pipeSafe: false, readOnly: () => false },
  // Builds, tests, installs and playbooks run code and change files or clusters; helm status,
  // list and template read a cluster or render a chart, but plugins and post-renderers run
  // programs, and the unasked reads are verified only for the git family and the file tools.
  "gradle": { pipeSafe: false, readOnly: () => false },
  "dotnet build": { pipeSafe: false, readOnly: () => false },
  "dotnet test": { pipeSafe: false, readOnly: () => false },
  "helm install": { pipeSafe: false, readOnly: () => false },
  "helm upgrade": { pipeSafe: false, readOnly: () => false },
  "helm status": { pipeSafe: false, readOnly: () => false },
  "helm list": { pipeSafe: false, readOnly: () => false },
  "helm template": { pipeSafe: false, readOnly: () => false },
  "ansible-playbook": { pipeSafe: false, readOnly: () => false },
  "pre-commit run": { pipeSafe: false, readOnly: () => false },
  "markdownlint": { pipeSafe: false, readOnly: () => false },
  "markdownlint-cli2": { pipeSafe: false, readOnly: () => false },
  "make": { pipeSafe: false, readOnly: () => false },
  "df": { pipeSafe: false, readOnly: () => false },
};
