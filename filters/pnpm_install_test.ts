import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  filterPnpmInstall,
  pnpmIFilter,
  pnpmInstallFilter,
  pnpmInstallPassthrough,
} from "./pnpm_install.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

const INSTALL = `Progress: resolved 0, reused 0, downloaded 1, added 0
Packages are hard linked from the content-addressable store to the virtual store.
  Content-addressable store is at: /home/me/.local/share/pnpm/store/v11
  Virtual store is at:             node_modules/.pnpm
Packages: +27
+++++++++++++++++++++++++++
Progress: resolved 27, reused 0, downloaded 27, added 27, done
[WARN] Issues with peer dependencies found. Run "pnpm peers check" to list them.

dependencies:
+ app-server 3.1.0
+ cookie-crumbs 0.5.0 (0.7.2 is available)

devDependencies:
+ typescript 5.4.5

[WARN] 3 deprecated subdependencies found: glob-walk@7.2.3, inflight-lite@1.0.6, rimraf-lite@3.0.2

Done in 513ms using pnpm v12.23.0
`;

Deno.test("pnpmInstallFilter keeps the count, each section's packages and every warning", () => {
  const out = filterPnpmInstall(INSTALL, OK);
  strictEqual(
    out.text,
    `Packages: +27
[WARN] Issues with peer dependencies found (list: pnpm peers check)
dependencies: +app-server 3.1.0, +cookie-crumbs 0.5.0 (0.7.2 is available)
devDependencies: +typescript 5.4.5
[WARN] deprecated subdependencies (3): glob-walk@7.2.3, inflight-lite@1.0.6, rimraf-lite@3.0.2
`,
  );
  deepStrictEqual(out.cut, ["progress", "timing"]);
});

Deno.test("pnpmInstallFilter keeps pnpm 11+ errors with their code and help", () => {
  const raw = `Error: ERR_PNPM_FETCH_404

  × installing dependencies
  ╰─▶ Failed to resolve dependency tree: GET https://registry.npmjs.org/nope: Not Found - 404

      Failed to resolve nope@^1.0.0
  help: nope is not in the npm registry, or you have no permission to fetch it.

        No authorization header was set for the request.

`;
  const out = filterPnpmInstall(raw, FAILED);
  strictEqual(
    out.text,
    `Error: ERR_PNPM_FETCH_404
  × installing dependencies
  ╰─▶ Failed to resolve dependency tree: GET https://registry.npmjs.org/nope: Not Found - 404
  Failed to resolve nope@^1.0.0
  help: nope is not in the npm registry, or you have no permission to fetch it.
  No authorization header was set for the request.
`,
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("pnpmInstallFilter reads pnpm 8–10's WARN and ERR_PNPM lines and drops the update box", () => {
  const raw = ` WARN  deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
Lockfile is up to date, resolution step is skipped
Already up to date

   ╭──────────────────────────────────────────╮
   │                                          │
   │   Update available! 9.0.0 → 10.0.0.      │
   │   Run "pnpm add -g pnpm" to update.      │
   │                                          │
   ╰──────────────────────────────────────────╯

 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date
`;
  const out = filterPnpmInstall(raw, FAILED);
  strictEqual(
    out.text,
    `WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
Already up to date
ERR_PNPM_OUTDATED_LOCKFILE Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date
`,
  );
  deepStrictEqual(out.cut, ["lockfile notes", "update notice"]);
});

Deno.test("pnpmInstallFilter keeps the text of a box that is not the update notice", () => {
  const raw = `╭ Warning ─────────────────────────────╮
│                                       │
│   Ignored build scripts: esbuild.     │
│   Run "pnpm approve-builds" to pick.  │
│                                       │
╰───────────────────────────────────────╯
`;
  strictEqual(
    filterPnpmInstall(raw, OK).text,
    'Ignored build scripts: esbuild.\nRun "pnpm approve-builds" to pick.\n',
  );
});

Deno.test("pnpmInstallFilter strips ANSI colours and gives nothing for nothing", () => {
  strictEqual(
    filterPnpmInstall("\x1b[33m WARN \x1b[39m x\nPackages: \x1b[32m+1\x1b[39m\n", OK).text,
    "WARN x\nPackages: +1\n",
  );
  deepStrictEqual(filterPnpmInstall("", OK), { text: "", cut: [] });
});

Deno.test("pnpmInstallFilter is idempotent", () => {
  const once = filterPnpmInstall(INSTALL, OK).text;
  strictEqual(filterPnpmInstall(once, OK).text, once);
});

Deno.test("pnpmInstallPassthrough defers to the ndjson reporter and --json", () => {
  for (const args of [["--reporter=ndjson"], ["--reporter", "ndjson"], ["--json"]]) {
    ok(pnpmInstallPassthrough(args), args.join(" "));
  }
  for (const args of [[], ["--frozen-lockfile"], ["--reporter=append-only"]]) {
    strictEqual(pnpmInstallPassthrough(args), null, args.join(" "));
  }
});

Deno.test("pnpm install and pnpm i share the filter and read stderr", () => {
  deepStrictEqual([pnpmInstallFilter.name, pnpmIFilter.name], ["pnpm install", "pnpm i"]);
  strictEqual(pnpmIFilter.filterStderr, true);
});

Deno.test("pnpmInstallFilter drops the notes on a lockfile that needed nothing", () => {
  const raw = `✓ Lockfile passes supply-chain policies (verified 118ms ago)
Lockfile is up to date, resolution step is skipped
Packages: +27
+++++++++++++++++++++++++++
Progress: resolved 27, reused 0, downloaded 27, added 27, done

dependencies:
+ app-server 3.1.0

Done in 173ms using pnpm v12.23.0
`;
  const out = filterPnpmInstall(raw, OK);
  strictEqual(out.text, "Packages: +27\ndependencies: +app-server 3.1.0\n");
  deepStrictEqual(out.cut, ["lockfile notes", "progress", "timing"]);
  // A lockfile that is not up to date is news: it stays.
  const stale = "Lockfile is out of date with package.json\n";
  deepStrictEqual(filterPnpmInstall(stale, OK), { text: stale, cut: [] });
});
