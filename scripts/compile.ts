/**
 * `deno task compile`: a single `dist/rtok` binary, with the same permissions as the install
 * task. `deno compile` needs Deno's `denort` runtime: it downloads it from dl.deno.land, or
 * uses the file `DENORT_BIN` names. Where neither works, this says so plainly and exits 1.
 *
 * @module
 */

import { RTOK_PERMISSIONS } from "./permissions.ts";

const target = Deno.args[0] ?? "dist/rtok";
const out = await new Deno.Command(Deno.execPath(), {
  // The Worker that runs user and project filters is started by URL, and the surfaces and the
  // filter modules are loaded by computed specifier (src/core/lazy.ts, filters/index.ts),
  // so all are named here to be embedded.
  args: [
    "compile",
    "--no-check",
    ...RTOK_PERMISSIONS,
    "--include",
    "src/plugins/cmd/toml/worker.ts",
    "--include",
    "filters/",
    "--include",
    "src/surfaces/",
    "--include",
    "src/plugins/",
    "--include",
    "src/content/",
    "--output",
    target,
    "cli.ts",
  ],
  stdout: "inherit",
  stderr: "piped",
  env: { NO_COLOR: "1" },
}).output();
const err = new TextDecoder().decode(out.stderr);
if (out.code === 0) {
  console.log(`compiled ${target}`);
  Deno.exit(0);
}
if (/denort|dl\.deno\.land/.test(err)) {
  console.error(
    "compile: deno compile needs Deno's denort runtime, and this machine can neither download it " +
      "(dl.deno.land is unreachable) nor find one in DENORT_BIN. Where either works, " +
      "`deno task compile` writes " + target + ".",
  );
} else {
  console.error(err.trimEnd());
}
Deno.exit(1);
