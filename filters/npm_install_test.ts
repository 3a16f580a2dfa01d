import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Cuts } from "./_pm.ts";
import {
  filterNpmInstall,
  npmCiFilter,
  npmIFilter,
  npmInstallFilter,
  npmInstallPassthrough,
  summarizeEresolve,
} from "./npm_install.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

const SUMMARY = `
added 27 packages, and audited 28 packages in 2s

3 packages are looking for funding
  run \`npm fund\` for details

2 low severity vulnerabilities

Some issues need review, and may require choosing
a different dependency.

Run \`npm audit\` for details.
`;

const WARNINGS = `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: 'modern-only@5.0.0',
npm warn EBADENGINE   required: { node: '>=22' },
npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }
npm warn EBADENGINE }
npm warn deprecated rimraf-lite@3.0.2: Rimraf versions prior to v4 are no longer supported
npm warn deprecated glob-walk@7.2.3: Glob versions prior to v9 are no longer supported
npm warn deprecated inflight-lite@1.0.6: This module is not supported, and leaks memory.
npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:
npm warn install-scripts   fast-hash@2.0.0 (postinstall: node -e "console.log('compiled')")
npm warn install-scripts
npm warn install-scripts Run \`npm install-scripts ls\` to review, or \`npm install-scripts approve <pkg>\` to allow.
`;

const ERESOLVE = `npm error code ERESOLVE
npm error ERESOLVE unable to resolve dependency tree
npm error
npm error While resolving: shop-ui@1.0.0
npm error Found: view-core@18.2.0
npm error node_modules/view-core
npm error   view-core@"18.2.0" from the root project
npm error
npm error Could not resolve dependency:
npm error peer view-core@"^17.0.0" from ui-widgets@4.0.0
npm error node_modules/ui-widgets
npm error   ui-widgets@"^4.0.0" from the root project
npm error
npm error Fix the upstream dependency conflict, or retry this command with --force or --legacy-peer-deps to accept an incorrect (and potentially broken) dependency resolution.
npm error
npm error
npm error For a full report see:
npm error /root/.npm/_logs/2026-01-01T00_00_00_000Z-eresolve-report.txt
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-01-01T00_00_00_000Z-debug-0.log
`;

const FORCE = `npm warn using --force Recommended protections disabled.
npm warn ERESOLVE overriding peer dependency
npm warn While resolving: ui-widgets@4.0.0
npm warn Found: view-core@18.2.0
npm warn node_modules/view-core
npm warn   view-core@"18.2.0" from the root project
npm warn
npm warn Could not resolve dependency:
npm warn peer view-core@"^17.0.0" from ui-widgets@4.0.0
npm warn node_modules/ui-widgets
npm warn   ui-widgets@"^4.0.0" from the root project
npm warn
npm warn Conflicting peer dependency: view-core@17.0.2
npm warn node_modules/view-core
npm warn   peer view-core@"^17.0.0" from ui-widgets@4.0.0
npm warn   node_modules/ui-widgets
npm warn     ui-widgets@"^4.0.0" from the root project
npm warn deprecated glob-walk@7.2.3: Glob versions prior to v9 are no longer supported
`;

Deno.test("npmInstallFilter keeps what changed and the audit line, without timing or funding", () => {
  const out = filterNpmInstall(SUMMARY, OK);
  strictEqual(
    out.text,
    "added 27 packages, and audited 28 packages\n" +
      "2 low severity vulnerabilities (some need review; details: npm audit)\n",
  );
  deepStrictEqual(out.cut, ["timing", "funding notice"]);
});

Deno.test("npmInstallFilter folds npm's audit advice onto the vulnerability count", () => {
  const raw = `up to date, audited 120 packages in 900ms

5 vulnerabilities (2 moderate, 3 high)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force

Run \`npm audit\` for details.
`;
  strictEqual(
    filterNpmInstall(raw, OK).text,
    "up to date, audited 120 packages\n" +
      "5 vulnerabilities (2 moderate, 3 high) (npm audit fix; npm audit fix --force; " +
      "details: npm audit)\n",
  );
  strictEqual(filterNpmInstall("found 0 vulnerabilities\n", OK).text, "found 0 vulnerabilities\n");
});

Deno.test("npmInstallFilter names every deprecated package, engine mismatch and install script", () => {
  const out = filterNpmInstall(WARNINGS, OK);
  strictEqual(
    out.text,
    "npm warn EBADENGINE modern-only@5.0.0 requires node: '>=22' " +
      "(current node: 'v20.20.2', npm: '11.19.1')\n" +
      "npm warn deprecated (3): rimraf-lite@3.0.2, glob-walk@7.2.3, inflight-lite@1.0.6\n" +
      "npm warn install-scripts not in allowScripts: fast-hash@2.0.0 (postinstall) " +
      "(npm install-scripts approve <pkg>)\n",
  );
  deepStrictEqual(out.cut, ["script commands", "deprecation notes"]);
});

Deno.test("npmInstallFilter counts a package deprecated twice once", () => {
  const raw = "npm warn deprecated a@1.0.0: old\nnpm warn deprecated a@1.0.0: old\n";
  strictEqual(filterNpmInstall(raw, OK).text, "npm warn deprecated (1): a@1.0.0\n");
});

Deno.test("npmInstallFilter reads a peer conflict as wanted, found and conflicting", () => {
  const out = filterNpmInstall(FORCE, OK);
  strictEqual(
    out.text,
    "npm warn using --force\n" +
      'npm warn ERESOLVE overriding peer dependency: could not resolve peer view-core@"^17.0.0" ' +
      "from ui-widgets@4.0.0; found view-core@18.2.0; conflicting peer view-core@17.0.2\n" +
      "npm warn deprecated (1): glob-walk@7.2.3\n",
  );
  deepStrictEqual(out.cut, ["npm hints", "dependency paths", "deprecation notes"]);
});

Deno.test("npmInstallFilter keeps an ERESOLVE error's code, conflict and way out", () => {
  const out = filterNpmInstall(ERESOLVE, FAILED);
  strictEqual(
    out.text,
    "npm error ERESOLVE: unable to resolve dependency tree\n" +
      '  could not resolve peer view-core@"^17.0.0" from ui-widgets@4.0.0; ' +
      "found view-core@18.2.0 (while resolving shop-ui@1.0.0)\n" +
      "  retry with --force or --legacy-peer-deps to accept it\n",
  );
  deepStrictEqual(out.cut, ["log path", "dependency paths", "report path"]);
});

Deno.test("summarizeEresolve keeps lines it does not know", () => {
  const cuts = new Cuts();
  deepStrictEqual(summarizeEresolve(["Found: a@1.0.0", "Something new: b"], cuts), [
    "found a@1.0.0",
    "Something new: b",
  ]);
});

Deno.test("npmInstallFilter keeps a 404's code and URL, without npm's hints", () => {
  const raw = `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found
npm error 404
npm error 404  The requested resource 'nope@*' could not be found or you do not have permission to access it.
npm error 404
npm error 404 Note that you can also install from a
npm error 404 tarball, folder, http url, or git url.
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log
`;
  const out = filterNpmInstall(raw, FAILED);
  strictEqual(
    out.text,
    "npm error E404: Not Found - GET https://registry.npmjs.org/nope - Not found\n",
  );
  deepStrictEqual(out.cut, ["npm hints", "log path"]);
});

Deno.test("npmInstallFilter reads npm 6's ERR! lines and its log path on the next line", () => {
  const raw = `npm ERR! code ETARGET
npm ERR! notarget No matching version found for is-number@99.0.0.
npm ERR! notarget In most cases you or one of your dependencies are requesting
npm ERR! notarget a package version that doesn't exist.

npm ERR! A complete log of this run can be found in:
npm ERR!     /root/.npm/_logs/2020-01-01T00_00_00_000Z-debug.log
`;
  strictEqual(
    filterNpmInstall(raw, FAILED).text,
    "npm error ETARGET: No matching version found for is-number@99.0.0.\n",
  );
});

Deno.test("npmInstallFilter folds a failed install script into one line and keeps its output", () => {
  const raw = `npm error code 1
npm error path /app/node_modules/native-addon
npm error command failed
npm error command sh -c node-gyp rebuild
npm error gyp ERR! build error: python3 not found
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log
`;
  strictEqual(
    filterNpmInstall(raw, FAILED).text,
    "npm error exit code 1: command failed in /app/node_modules/native-addon: sh -c node-gyp rebuild\n" +
      "  gyp ERR! build error: python3 not found\n",
  );
});

Deno.test("npmInstallFilter replaces a usage text with where to find it", () => {
  const raw = `npm error code EUSAGE
npm error
npm error The \`npm ci\` command can only install with an existing package-lock.json.
npm error
npm error Clean install a project
npm error
npm error Usage:
npm error npm ci
npm error
npm error Options:
npm error [--install-strategy <hoisted|nested|shallow|linked>]
npm error
npm error aliases: clean-install, ic, install-clean, isntall-clean
npm error
npm error Run "npm help ci" for more info
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log
`;
  const out = filterNpmInstall(raw, FAILED);
  strictEqual(
    out.text,
    "npm error EUSAGE: The `npm ci` command can only install with an existing " +
      "package-lock.json.\n  (usage: npm help ci)\n",
  );
  deepStrictEqual(out.cut, ["usage text", "log path"]);
});

Deno.test("npmInstallFilter drops update notices and keeps warnings it does not know", () => {
  const raw = `npm notice
npm notice New minor version of npm available! 11.19.1 -> 11.21.2
npm warn config production Use \`--omit=dev\` instead.
npm warn config production Use \`--omit=dev\` instead.

added 1 package in 1s
`;
  const out = filterNpmInstall(raw, OK);
  strictEqual(
    out.text,
    "npm warn config production Use `--omit=dev` instead. (×2)\nadded 1 package\n",
  );
  deepStrictEqual(out.cut, ["npm notices", "timing"]);
});

Deno.test("npmInstallFilter strips ANSI colours and keeps a stream's last redrawn state", () => {
  const raw = "\x1b[33mnpm\x1b[39m \x1b[30;43mwarn\x1b[39;49m deprecated a@1.0.0: x\n" +
    "⠙ idealTree\r⠹ reify\radded 3 packages in 1s\n";
  strictEqual(
    filterNpmInstall(raw, OK).text,
    "npm warn deprecated (1): a@1.0.0\nadded 3 packages\n",
  );
});

Deno.test("npmInstallFilter gives nothing for nothing and is idempotent", () => {
  deepStrictEqual(filterNpmInstall("", OK), { text: "", cut: [] });
  const once = filterNpmInstall(WARNINGS + SUMMARY, OK).text;
  strictEqual(filterNpmInstall(once, OK).text, once);
});

Deno.test("npmInstallPassthrough defers to --json and --parseable", () => {
  for (const args of [["--json"], ["--json=true"], ["x", "--parseable"]]) {
    ok(npmInstallPassthrough(args), args.join(" "));
  }
  for (const args of [[], ["left-pad"], ["--", "--json"], ["--no-audit"]]) {
    strictEqual(npmInstallPassthrough(args), null, args.join(" "));
  }
});

Deno.test("npm install, npm i and npm ci share the filter and read stderr", () => {
  deepStrictEqual([npmInstallFilter.name, npmIFilter.name, npmCiFilter.name], [
    "npm install",
    "npm i",
    "npm ci",
  ]);
  for (const f of [npmInstallFilter, npmIFilter, npmCiFilter]) {
    strictEqual(f.filterStderr, true);
    strictEqual(f.shape, undefined);
  }
});
