import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { bunIFilter, bunInstallFilter, filterBunInstall } from "./bun_install.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

Deno.test("bunInstallFilter keeps the packages, the count and blocked scripts", () => {
  const raw = `bun install v1.4.5 (a7733435c)

+ app-server@3.1.0
+ fast-hash@2.0.0
- left-pad@1.3.0

27 packages installed [96.00ms]

Blocked 1 postinstall. Run \`bun pm untrusted\` for details.
`;
  const out = filterBunInstall(raw, OK);
  strictEqual(
    out.text,
    "+ app-server@3.1.0, fast-hash@2.0.0, - left-pad@1.3.0\n27 packages installed\n" +
      "Blocked 1 postinstall. Run `bun pm untrusted` for details.\n",
  );
  deepStrictEqual(out.cut, ["timing"]);
});

Deno.test("bunInstallFilter drops progress from stderr and keeps every error", () => {
  const raw = `Resolving dependencies
Resolved, downloaded and extracted [1]
error: GET https://registry.npmjs.org/nope - 404
error: nope@^1.0.0 failed to resolve
`;
  strictEqual(
    filterBunInstall(raw, FAILED).text,
    "error: GET https://registry.npmjs.org/nope - 404\nerror: nope@^1.0.0 failed to resolve\n",
  );
});

Deno.test("bunInstallFilter keeps a no-change run's line and warnings", () => {
  const raw = `bun install v1.4.5 (a7733435c)
warn: incorrect peer dependency "view-core@18.2.0"

Checked 28 installs across 29 packages (no changes) [7.00ms]
`;
  strictEqual(
    filterBunInstall(raw, OK).text,
    'warn: incorrect peer dependency "view-core@18.2.0"\n' +
      "Checked 28 installs across 29 packages (no changes)\n",
  );
});

Deno.test("bunInstallFilter strips ANSI, gives nothing for nothing and is idempotent", () => {
  const raw =
    "\x1b[32m+\x1b[0m a@1.0.0\n\x1b[1m1\x1b[0m package installed \x1b[2m[3.00ms]\x1b[0m\n";
  const once = filterBunInstall(raw, OK).text;
  strictEqual(once, "+ a@1.0.0\n1 package installed\n");
  strictEqual(filterBunInstall(once, OK).text, once);
  deepStrictEqual(filterBunInstall("", OK), { text: "", cut: [] });
});

Deno.test("bun install and bun i share the filter and read stderr", () => {
  deepStrictEqual([bunInstallFilter.name, bunIFilter.name], ["bun install", "bun i"]);
  strictEqual(bunIFilter.filterStderr, true);
});
