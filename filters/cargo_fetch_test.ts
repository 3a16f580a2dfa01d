import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { cargoFetchFilter, filterCargoFetch } from "./cargo_fetch.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 101 };

Deno.test("cargoFetchFilter keeps the lock changes and lists the downloads by source", () => {
  const raw = `    Updating crates.io index
     Locking 4 packages to latest compatible versions
      Adding thiserror v1.0.64 (available: v2.0.3)
 Downloading crates ...
  Downloaded thiserror v1.0.64
  Downloaded serde v1.0.210 (registry \`crates-io\`)
  Downloaded anyhow v1.0.89 (registry \`crates-io\`)
  Downloaded mylib v0.2.0 (registry \`company\`)
  Downloaded 3 crates (412.9 KB) in 0.52s
`;
  const out = filterCargoFetch(raw, OK);
  strictEqual(
    out.text,
    `Locking 4 packages to latest compatible versions
Adding thiserror v1.0.64 (available: v2.0.3)
Downloaded 3 crates (412.9 KB)
Downloaded 1: thiserror v1.0.64
Downloaded 2 from registry \`crates-io\`: anyhow v1.0.89, serde v1.0.210
Downloaded 1 from registry \`company\`: mylib v0.2.0
`,
  );
  deepStrictEqual(out.cut, ["timing"]);
});

Deno.test("cargoFetchFilter keeps an error with every line that carries it on", () => {
  const raw = `    Updating crates.io index
error: failed to get \`serde\` as a dependency of package \`app v0.1.0 (/app)\`

Caused by:
  download of config.json failed

Caused by:
  Could not resolve host: index.crates.io
`;
  strictEqual(
    filterCargoFetch(raw, FAILED).text,
    `error: failed to get \`serde\` as a dependency of package \`app v0.1.0 (/app)\`
Caused by:
  download of config.json failed
Caused by:
  Could not resolve host: index.crates.io
`,
  );
});

Deno.test("cargoFetchFilter keeps warnings and gives nothing for nothing", () => {
  const raw = "warning: package `log v0.4.21` in Cargo.lock is yanked in registry `crates-io`\n" +
    "    Blocking waiting for file lock on package cache\n";
  strictEqual(
    filterCargoFetch(raw, OK).text,
    "warning: package `log v0.4.21` in Cargo.lock is yanked in registry `crates-io`\n",
  );
  deepStrictEqual(filterCargoFetch("", OK), { text: "", cut: [] });
});

Deno.test("cargoFetchFilter strips ANSI colours and is idempotent", () => {
  const raw = "\x1b[1m\x1b[32m  Downloaded\x1b[0m itoa v1.0.11 (registry `crates-io`)\n";
  const once = filterCargoFetch(raw, OK).text;
  strictEqual(once, "Downloaded 1 from registry `crates-io`: itoa v1.0.11\n");
  strictEqual(filterCargoFetch(once, OK).text, once);
});

Deno.test("cargoFetchFilter reads stderr, where cargo reports", () => {
  strictEqual(cargoFetchFilter.name, "cargo fetch");
  strictEqual(cargoFetchFilter.filterStderr, true);
});
