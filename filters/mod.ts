/**
 * The built-in command filters, one per command family.
 *
 * @module
 */

import type { CommandFilter } from "../src/core/filter.ts";
import { diffFilter } from "./diff.ts";
import { findFilter } from "./find.ts";
import { gitBranchFilter } from "./git_branch.ts";
import { gitDiffFilter } from "./git_diff.ts";
import { gitLogFilter } from "./git_log.ts";
import { gitShowFilter } from "./git_show.ts";
import { gitStatusFilter } from "./git_status.ts";
import { grepFilter, rgFilter } from "./grep.ts";
import { lsFilter } from "./ls.ts";
import { treeFilter } from "./tree.ts";
import { pytestFilter } from "./pytest.ts";
import { cargoTestFilter } from "./cargo_tests.ts";
import { goTestFilter } from "./go_tests.ts";
import { rspecFilter } from "./rspec.ts";
import { phpunitFilter } from "./phpunit.ts";
import { jestFilter } from "./jest.ts";
import { vitestFilter } from "./vitest.ts";
import { mochaFilter } from "./mocha.ts";
import { nodeTestFilter } from "./node_tests.ts";
import { denoTestFilter } from "./deno_tests.ts";
import { tscFilter } from "./tsc.ts";
import { eslintFilter } from "./eslint.ts";
import { biomeFilter } from "./biome.ts";
import { ruffFilter } from "./ruff.ts";
import { mypyFilter } from "./mypy.ts";
import { cargoBuildFilter, cargoCheckFilter, cargoClippyFilter } from "./cargo_build.ts";
import { goBuildFilter, goVetFilter } from "./go_build.ts";
import { golangciLintFilter } from "./golangci_lint.ts";
import { npmCiFilter, npmIFilter, npmInstallFilter } from "./npm_install.ts";
import { pnpmIFilter, pnpmInstallFilter } from "./pnpm_install.ts";
import { yarnFilter, yarnInstallFilter } from "./yarn_install.ts";
import { bunIFilter, bunInstallFilter } from "./bun_install.ts";
import { pip3InstallFilter, pipInstallFilter } from "./pip_install.ts";
import { cargoFetchFilter } from "./cargo_fetch.ts";
import {
  bunRunFilter,
  npmRunFilter,
  npmTestFilter,
  pnpmRunFilter,
  pnpmTestFilter,
  yarnRunFilter,
  yarnTestFilter,
} from "./npm_run.ts";

/** Every built-in command filter. Git filters are named `git <subcommand>`. */
export const COMMAND_FILTERS: readonly CommandFilter[] = [
  gitLogFilter,
  gitStatusFilter,
  gitDiffFilter,
  gitShowFilter,
  gitBranchFilter,
  grepFilter,
  rgFilter,
  lsFilter,
  findFilter,
  treeFilter,
  diffFilter,
  pytestFilter,
  cargoTestFilter,
  goTestFilter,
  rspecFilter,
  phpunitFilter,
  jestFilter,
  vitestFilter,
  mochaFilter,
  nodeTestFilter,
  denoTestFilter,
  tscFilter,
  eslintFilter,
  biomeFilter,
  ruffFilter,
  mypyFilter,
  cargoBuildFilter,
  cargoCheckFilter,
  cargoClippyFilter,
  goBuildFilter,
  goVetFilter,
  golangciLintFilter,
  npmInstallFilter,
  npmIFilter,
  npmCiFilter,
  pnpmInstallFilter,
  pnpmIFilter,
  yarnInstallFilter,
  yarnFilter,
  bunInstallFilter,
  bunIFilter,
  pipInstallFilter,
  pip3InstallFilter,
  cargoFetchFilter,
  npmRunFilter,
  npmTestFilter,
  pnpmRunFilter,
  pnpmTestFilter,
  yarnRunFilter,
  yarnTestFilter,
  bunRunFilter,
];
