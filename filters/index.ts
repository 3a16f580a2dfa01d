/**
 * The built-in command filters by family, each loaded only when its command runs: a run needs
 * one filter, and loading every module would cost each run milliseconds.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";

// A computed specifier keeps Deno from walking every filter module (and theirs) when any rtok
// process starts: measured 6 ms per run on `rtok git status`. Only the one a run needs loads.
const _at = (p: string): string => new URL(p, import.meta.url).href;

// A declarative built-in (`filters/*.toml`): its file is parsed only when its family runs.
const builtinToml = async (file: string, family: string): Promise<CommandFilter> =>
  (await import(_at("./toml_index.ts"))).builtinTomlFilter(file, family);

/**
 * Family name → a loader for its filter: the hand-written ones `COMMAND_FILTERS` lists, and
 * the declarative ones of `toml_index.ts`.
 */
export const FILTER_LOADERS: Readonly<Record<string, () => Promise<CommandFilter>>> = {
  "git log": async () => (await import(_at("./git_log.ts"))).gitLogFilter,
  "git status": async () => (await import(_at("./git_status.ts"))).gitStatusFilter,
  "git diff": async () => (await import(_at("./git_diff.ts"))).gitDiffFilter,
  "git show": async () => (await import(_at("./git_show.ts"))).gitShowFilter,
  "git branch": async () => (await import(_at("./git_branch.ts"))).gitBranchFilter,
  "grep": async () => (await import(_at("./grep.ts"))).grepFilter,
  "rg": async () => (await import(_at("./grep.ts"))).rgFilter,
  "ls": async () => (await import(_at("./ls.ts"))).lsFilter,
  "find": async () => (await import(_at("./find.ts"))).findFilter,
  "tree": async () => (await import(_at("./tree.ts"))).treeFilter,
  "diff": async () => (await import(_at("./diff.ts"))).diffFilter,
  "pytest": async () => (await import(_at("./pytest.ts"))).pytestFilter,
  "cargo test": async () => (await import(_at("./cargo_tests.ts"))).cargoTestFilter,
  "go test": async () => (await import(_at("./go_tests.ts"))).goTestFilter,
  "rspec": async () => (await import(_at("./rspec.ts"))).rspecFilter,
  "phpunit": async () => (await import(_at("./phpunit.ts"))).phpunitFilter,
  "jest": async () => (await import(_at("./jest.ts"))).jestFilter,
  "vitest": async () => (await import(_at("./vitest.ts"))).vitestFilter,
  "mocha": async () => (await import(_at("./mocha.ts"))).mochaFilter,
  "node --test": async () => (await import(_at("./node_tests.ts"))).nodeTestFilter,
  "deno test": async () => (await import(_at("./deno_tests.ts"))).denoTestFilter,
  "tsc": async () => (await import(_at("./tsc.ts"))).tscFilter,
  "eslint": async () => (await import(_at("./eslint.ts"))).eslintFilter,
  "biome": async () => (await import(_at("./biome.ts"))).biomeFilter,
  "ruff": async () => (await import(_at("./ruff.ts"))).ruffFilter,
  "mypy": async () => (await import(_at("./mypy.ts"))).mypyFilter,
  "cargo build": async () => (await import(_at("./cargo_build.ts"))).cargoBuildFilter,
  "cargo check": async () => (await import(_at("./cargo_build.ts"))).cargoCheckFilter,
  "cargo clippy": async () => (await import(_at("./cargo_build.ts"))).cargoClippyFilter,
  "go build": async () => (await import(_at("./go_build.ts"))).goBuildFilter,
  "go vet": async () => (await import(_at("./go_build.ts"))).goVetFilter,
  "golangci-lint": async () => (await import(_at("./golangci_lint.ts"))).golangciLintFilter,
  "npm install": async () => (await import(_at("./npm_install.ts"))).npmInstallFilter,
  "npm i": async () => (await import(_at("./npm_install.ts"))).npmIFilter,
  "npm ci": async () => (await import(_at("./npm_install.ts"))).npmCiFilter,
  "pnpm install": async () => (await import(_at("./pnpm_install.ts"))).pnpmInstallFilter,
  "pnpm i": async () => (await import(_at("./pnpm_install.ts"))).pnpmIFilter,
  "yarn install": async () => (await import(_at("./yarn_install.ts"))).yarnInstallFilter,
  "yarn": async () => (await import(_at("./yarn_install.ts"))).yarnFilter,
  "bun install": async () => (await import(_at("./bun_install.ts"))).bunInstallFilter,
  "bun i": async () => (await import(_at("./bun_install.ts"))).bunIFilter,
  "pip install": async () => (await import(_at("./pip_install.ts"))).pipInstallFilter,
  "pip3 install": async () => (await import(_at("./pip_install.ts"))).pip3InstallFilter,
  "cargo fetch": async () => (await import(_at("./cargo_fetch.ts"))).cargoFetchFilter,
  "npm run": async () => (await import(_at("./npm_run.ts"))).npmRunFilter,
  "npm test": async () => (await import(_at("./npm_run.ts"))).npmTestFilter,
  "pnpm run": async () => (await import(_at("./npm_run.ts"))).pnpmRunFilter,
  "pnpm test": async () => (await import(_at("./npm_run.ts"))).pnpmTestFilter,
  "yarn run": async () => (await import(_at("./npm_run.ts"))).yarnRunFilter,
  "yarn test": async () => (await import(_at("./npm_run.ts"))).yarnTestFilter,
  "bun run": async () => (await import(_at("./npm_run.ts"))).bunRunFilter,
  "make": () => builtinToml("make.toml", "make"),
  "df": () => builtinToml("df.toml", "df"),
  "terraform plan": () => builtinToml("terraform.toml", "terraform plan"),
  "tofu plan": () => builtinToml("terraform.toml", "tofu plan"),
  "du": () => builtinToml("du.toml", "du"),
  "ps": () => builtinToml("ps.toml", "ps"),
  "docker ps": () => builtinToml("docker.toml", "docker ps"),
  "docker images": () => builtinToml("docker.toml", "docker images"),
  "docker logs": () => builtinToml("docker.toml", "docker logs"),
  "docker build": () => builtinToml("docker.toml", "docker build"),
  "kubectl get": () => builtinToml("kubectl.toml", "kubectl get"),
  "kubectl logs": () => builtinToml("kubectl.toml", "kubectl logs"),
  "kubectl describe": () => builtinToml("kubectl.toml", "kubectl describe"),
  "curl": () => builtinToml("curl.toml", "curl"),
  "wget": () => builtinToml("wget.toml", "wget"),
  "shellcheck": () => builtinToml("shellcheck.toml", "shellcheck"),
  "jq": () => builtinToml("jq.toml", "jq"),
  "yamllint": () => builtinToml("yamllint.toml", "yamllint"),
  "systemctl status": () => builtinToml("systemd.toml", "systemctl status"),
  "journalctl": () => builtinToml("systemd.toml", "journalctl"),
  "gh pr": () => builtinToml("gh.toml", "gh pr"),
  "gh issue": () => builtinToml("gh.toml", "gh issue"),
  "gh run": () => builtinToml("gh.toml", "gh run"),
  "mvn": () => builtinToml("mvn.toml", "mvn"),
  "gradle": () => builtinToml("gradle.toml", "gradle"),
  "dotnet build": () => builtinToml("dotnet.toml", "dotnet build"),
  "dotnet test": () => builtinToml("dotnet.toml", "dotnet test"),
  "helm install": () => builtinToml("helm.toml", "helm install"),
  "helm upgrade": () => builtinToml("helm.toml", "helm upgrade"),
  "helm status": () => builtinToml("helm.toml", "helm status"),
  "helm list": () => builtinToml("helm.toml", "helm list"),
  "helm template": () => builtinToml("helm.toml", "helm template"),
  "ansible-playbook": () => builtinToml("ansible.toml", "ansible-playbook"),
  "pre-commit run": () => builtinToml("pre_commit.toml", "pre-commit run"),
  "markdownlint": () => builtinToml("markdownlint.toml", "markdownlint"),
  "markdownlint-cli2": () => builtinToml("markdownlint.toml", "markdownlint-cli2"),
};
