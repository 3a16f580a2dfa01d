import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  filterYarnInstall,
  yarnFilter,
  yarnInstallFilter,
  yarnInstallPassthrough,
} from "./yarn_install.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

const STDOUT = `yarn install v1.22.22
info No lockfile found.
[1/4] Resolving packages...
[2/4] Fetching packages...
info fsevents@2.3.2: The platform "linux" is incompatible with this module.
info "fsevents@2.3.2" is an optional dependency and failed compatibility check. Excluding it from installation.
[3/4] Linking dependencies...
[4/4] Building fresh packages...
success Saved lockfile.
Done in 0.37s.
`;

const STDERR = `warning package.json: No license field
warning shop@1.0.0: No license field
warning task-runner > glob-walk@7.2.3: Glob versions prior to v9 are no longer supported
warning task-runner > rimraf-lite@3.0.2: Rimraf versions prior to v4 are no longer supported
warning task-runner > rimraf-lite > glob-walk@7.2.3: Glob versions prior to v9 are no longer supported
warning left-pad@1.3.0: use String.prototype.padStart()
warning modern-only@5.0.0: The engine "node" is incompatible with this module. Expected version ">=22". Got "20.20.2"
warning " > ui-widgets@4.0.0" has incorrect peer dependency "view-core@^17.0.0".
warning "app > form-kit@2.0.0" has unmet peer dependency "react@^18.0.0".
`;

Deno.test("yarnInstallFilter keeps what was saved and excluded, without steps or timing", () => {
  const out = filterYarnInstall(STDOUT, OK);
  strictEqual(
    out.text,
    "info No lockfile found.\n" +
      'info optional, incompatible, excluded: fsevents@2.3.2 (platform "linux")\n' +
      "success Saved lockfile.\n",
  );
  deepStrictEqual(out.cut, ["timing"]);
});

Deno.test("yarnInstallFilter names deprecated packages once and each peer problem", () => {
  const out = filterYarnInstall(STDERR, OK);
  strictEqual(
    out.text,
    "warning package.json: No license field\n" +
      "warning shop@1.0.0: No license field\n" +
      "warning deprecated (3): glob-walk@7.2.3, rimraf-lite@3.0.2, left-pad@1.3.0\n" +
      'warning modern-only@5.0.0: The engine "node" is incompatible with this module. ' +
      'Expected version ">=22". Got "20.20.2"\n' +
      "warning peer: ui-widgets@4.0.0 has incorrect peer view-core@^17.0.0\n" +
      "warning peer: form-kit@2.0.0 has unmet peer react@^18.0.0\n",
  );
  deepStrictEqual(out.cut, ["deprecation notes"]);
});

Deno.test("yarnInstallFilter keeps an error without yarn's own stack frames and hints", () => {
  const raw = `error Error: https://registry.yarnpkg.com/nope: Not found
    at params.callback [as _callback] (/usr/lib/node_modules/yarn/lib/cli.js:66680:18)
    at self.callback (/usr/lib/node_modules/yarn/lib/cli.js:141410:22)
    at Request.emit (node:events:524:28)
    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)
info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command.
`;
  const out = filterYarnInstall(raw, FAILED);
  strictEqual(out.text, "error Error: https://registry.yarnpkg.com/nope: Not found\n");
  deepStrictEqual(out.cut, ["yarn stack frames", "yarn hints"]);
});

Deno.test("yarnInstallFilter keeps an engine error, drops the line summing it up, and keeps yarn 1's unexpected-error form", () => {
  const raw =
    `error modern-only@5.0.0: The engine "node" is incompatible with this module. Expected version ">=22". Got "20.20.2"
error Found incompatible module.
error An unexpected error occurred: "https://registry.yarnpkg.com/nope: Not found".
info If you think this is a bug, please open a bug report with the information provided in "/app/yarn-error.log".
`;
  const out = filterYarnInstall(raw, FAILED);
  deepStrictEqual(out.cut, ["yarn summary", "yarn hints"]);
  strictEqual(
    out.text,
    `error modern-only@5.0.0: The engine "node" is incompatible with this module. Expected version ">=22". Got "20.20.2"
error An unexpected error occurred: "https://registry.yarnpkg.com/nope: Not found".
`,
  );
});

Deno.test("yarnInstallFilter keeps yarn's incompatibility summary when no error above names the module", () => {
  const raw = "error Found incompatible module.\n";
  deepStrictEqual(filterYarnInstall(raw, FAILED), { text: raw, cut: [] });
});

Deno.test("yarnInstallFilter lists yarn add's dependency trees on one line each", () => {
  const raw = `success Saved 2 new dependencies.
info Direct dependencies
└─ is-number@7.0.0
info All dependencies
├─ is-number@7.0.0
└─ left-pad@1.3.0
Done in 0.20s.
`;
  strictEqual(
    filterYarnInstall(raw, OK).text,
    "success Saved 2 new dependencies.\n" +
      "info Direct dependencies (1): is-number@7.0.0\n" +
      "info All dependencies (2): is-number@7.0.0, left-pad@1.3.0\n",
  );
});

Deno.test("yarnInstallFilter keeps an up-to-date run's line and gives nothing for nothing", () => {
  strictEqual(
    filterYarnInstall(
      "yarn install v1.22.22\n[1/4] Resolving packages...\nsuccess Already up-to-date.\n\x1b[2K✨  Done in 0.05s.\n",
      OK,
    )
      .text,
    "success Already up-to-date.\n",
  );
  deepStrictEqual(filterYarnInstall("", OK), { text: "", cut: [] });
});

Deno.test("yarnInstallFilter is idempotent", () => {
  const once = filterYarnInstall(STDOUT + STDERR, OK).text;
  strictEqual(filterYarnInstall(once, OK).text, once);
});

Deno.test("yarnInstallPassthrough defers to --json", () => {
  ok(yarnInstallPassthrough(["--json"]));
  strictEqual(yarnInstallPassthrough(["--frozen-lockfile"]), null);
});

Deno.test("yarn install and bare yarn share the filter and read stderr", () => {
  deepStrictEqual([yarnInstallFilter.name, yarnFilter.name], ["yarn install", "yarn"]);
  strictEqual(yarnFilter.filterStderr, true);
});
