import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  cargoBuildFilter,
  cargoCheckFilter,
  cargoClippyFilter,
  cargoPassthrough,
  cargoVerbose,
  parseCargo,
} from "./cargo_build.ts";

function run(raw: string, exitCode = 101) {
  return cargoBuildFilter.filter(raw, { args: [], shaped: false, exitCode });
}

// `cargo build` (1.95) on stderr: labels, a note with its own location, a suggestion.
const ERRORS = `   Compiling demo v0.1.0 (/work/demo)
error[E0425]: cannot find value \`undefined\` in this scope
 --> src/main.rs:8:20
  |
8 |     println!("{}", undefined);
  |                    ^^^^^^^^^ not found in this scope

error[E0308]: mismatched types
 --> src/util.rs:3:5
  |
1 | pub fn helper() -> i32 {
  |                    --- expected \`i32\` because of return type
2 |     let a = 1;
3 |     "x"
  |     ^^^ expected \`i32\`, found \`&str\`

error[E0308]: mismatched types
 --> src/main.rs:7:18
  |
7 |     let x: i32 = "s";
  |            ---   ^^^ expected \`i32\`, found \`&str\`
  |            |
  |            expected due to this

error[E0061]: this function takes 1 argument but 2 arguments were supplied
  --> src/main.rs:20:42
   |
20 |     println!("{}", store::load(1, 2));
   |                    ^^^^^^^^^^^    - unexpected argument #2 of type \`{integer}\`
   |
note: function defined here
  --> src/store.rs:12:8
   |
12 | pub fn load(id: u32) -> u32 {
   |        ^^^^
help: remove the extra argument
   |
20 -     println!("{}", store::load(1, 2));
20 +     println!("{}", store::load(1));
   |

Some errors have detailed explanations: E0061, E0308, E0425.
For more information about an error, try \`rustc --explain E0061\`.
error: could not compile \`demo\` (bin "demo") due to 4 previous errors
`;

Deno.test("cargoBuildFilter keeps each error's code, location, message and what its labels say", () => {
  const out = run(ERRORS);
  strictEqual(
    out.text,
    [
      "src/main.rs: 3 errors",
      "  8:20 E0425: cannot find value `undefined` in this scope",
      "    not found in this scope",
      "  7:18 E0308: mismatched types",
      "    expected `i32`, found `&str`",
      "    expected due to this",
      "  20:42 E0061: this function takes 1 argument but 2 arguments were supplied",
      "    unexpected argument #2 of type `{integer}`",
      "    note: function defined here (at src/store.rs:12:8)",
      "    help: remove the extra argument",
      '    + println!("{}", store::load(1));',
      "src/util.rs: 1 error",
      "  3:5 E0308: mismatched types",
      "    1: expected `i32` because of return type",
      "    expected `i32`, found `&str`",
      'error: could not compile `demo` (bin "demo") due to 4 previous errors',
      "",
    ].join("\n"),
  );
  deepStrictEqual(out.cut, [
    "1 progress line",
    "4 source excerpts",
    "1 removed suggestion line",
    "2 rustc --explain hints",
  ]);
});

// `cargo clippy` (1.95): lint names from the level note, the doc link, or the same message.
const CLIPPY = `    Checking demo v0.1.0 (/work/demo)
warning: variable does not need to be mutable
 --> src/main.rs:9:9
  |
9 |     let mut a = 1;
  |         ----^
  |         |
  |         help: remove this \`mut\`
  |
  = note: \`#[warn(unused_mut)]\` (part of \`#[warn(unused)]\`) on by default

warning: variable does not need to be mutable
 --> src/lib.rs:4:9
  |
4 |     let mut b = 1;
  |         ----^
  |         |
  |         help: remove this \`mut\`

warning: unneeded \`return\` statement
 --> src/main.rs:3:5
  |
3 |     return v.len();
  |     ^^^^^^^^^^^^^^
  |
  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return
  = note: \`#[warn(clippy::needless_return)]\` on by default
help: remove \`return\`
  |
3 -     return v.len();
3 +     v.len()
  |

warning: unneeded \`return\` statement
 --> src/main.rs:6:5
  |
6 |     return v.len();
  |     ^^^^^^^^^^^^^^
  |
  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return
help: remove \`return\`
  |
6 -     return v.len();
6 +     v.len()
  |

warning: \`demo\` (bin "demo") generated 4 warnings (run \`cargo clippy --fix --bin "demo" -p demo -- \` to apply 4 suggestions)
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 0.34s
`;

Deno.test("cargoClippyFilter names each lint and merges the same warning", () => {
  const out = cargoClippyFilter.filter(CLIPPY, { args: [], shaped: false, exitCode: 0 });
  strictEqual(
    out.text,
    [
      "src/main.rs: 3 warnings (1 below)",
      "  clippy::needless_return: unneeded `return` statement (×2 at 3:5 6:5)",
      "    help: remove `return`",
      "    + v.len()",
      "in several files:",
      "  unused_mut: variable does not need to be mutable (×2)",
      "    src/: main.rs 9:9, lib.rs 4:9",
      "    help: remove this `mut`",
      'warning: `demo` (bin "demo") generated 4 warnings (run `cargo clippy --fix --bin "demo" -p demo -- ` to apply 4 suggestions)',
      "Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.34s",
      "",
    ].join("\n"),
  );
  ok(out.cut.includes("2 lint doc links"));
});

Deno.test("cargoClippyFilter reads lints made errors by -D warnings", () => {
  const raw = `error: unneeded \`return\` statement
 --> src/store.rs:7:5
  |
7 |     return n;
  |     ^^^^^^^^
  |
  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return
  = note: \`-D clippy::needless-return\` implied by \`-D warnings\`
  = help: to override \`-D warnings\` add \`#[allow(clippy::needless_return)]\`

error: could not compile \`lintme\` (bin "lintme") due to 1 previous error
`;
  const d = parseCargo(raw).diagnostics[0];
  deepStrictEqual([d.severity, d.code, d.details], ["error", "clippy::needless_return", []]);
  const out = cargoClippyFilter.filter(raw, { args: [], shaped: false, exitCode: 101 });
  ok(out.cut.includes("2 lint-level notes"));
});

Deno.test("cargoBuildFilter keeps a suggestion's added line and a clean build's Finished line", () => {
  const raw = `warning: unused \`Result\` that must be used
  --> src/store.rs:11:5
   |
11 |     std::fs::remove_file("/x");
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
   = note: this \`Result\` may be an \`Err\` variant, which should be handled
help: use \`let _ = ...\` to ignore the resulting value
   |
11 |     let _ = std::fs::remove_file("/x");
   |     +++++++

`;
  deepStrictEqual(parseCargo(raw).diagnostics[0].details, [
    "note: this `Result` may be an `Err` variant, which should be handled",
    "help: use `let _ = ...` to ignore the resulting value",
    '+ let _ = std::fs::remove_file("/x");',
  ]);
  const clean = [
    "   Compiling libc v0.2.150",
    "   Compiling demo v0.1.0 (/work/demo)",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.02s",
    "",
  ].join("\n");
  deepStrictEqual(run(clean, 0), {
    text: "Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.02s\n",
    cut: ["2 progress lines"],
  });
});

Deno.test("cargoBuildFilter reads --message-format short and an error with no location", () => {
  const short = [
    "src/main.rs:9:9: warning: variable does not need to be mutable",
    "src/main.rs:7:18: error[E0308]: mismatched types",
    "",
  ].join("\n");
  deepStrictEqual(parseCargo(short).diagnostics.map((d) => [d.at, d.severity, d.code]), [
    ["9:9", "warning", ""],
    ["7:18", "error", "E0308"],
  ]);
  const linker = [
    "error: linker `cc` not found",
    "  |",
    "  = note: No such file or directory (os error 2)",
    "",
    'error: could not compile `demo` (bin "demo") due to 1 previous error',
    "",
  ].join("\n");
  const text = run(linker).text;
  ok(text.includes("error: linker `cc` not found\n  note: No such file or directory (os error 2)"));
  ok(text.includes("could not compile"));
});

Deno.test("cargo filters read stderr, pass JSON through and read colour as plain text", () => {
  for (const f of [cargoBuildFilter, cargoCheckFilter, cargoClippyFilter]) {
    strictEqual(f.filterStderr, true);
  }
  deepStrictEqual(
    [cargoBuildFilter.name, cargoCheckFilter.name, cargoClippyFilter.name],
    ["cargo build", "cargo check", "cargo clippy"],
  );
  ok(cargoPassthrough(["--message-format", "json"]));
  ok(cargoPassthrough(["--message-format=json-diagnostic-rendered-ansi"]));
  ok(cargoPassthrough(["--message-format", "short,json"]));
  strictEqual(cargoPassthrough(["--message-format=short"]), null);
  strictEqual(cargoPassthrough(["--release", "-p", "demo"]), null);
  strictEqual(cargoPassthrough(["--", "--message-format=json"]), null);
  deepStrictEqual(run(ERRORS.replaceAll("error[", "\x1b[1m\x1b[91merror[\x1b[0m")), run(ERRORS));
});

Deno.test("cargoBuildFilter keeps the rustc command lines the caller's -v asked for", () => {
  const raw = [
    "   Compiling demo v0.1.0 (/work/demo)",
    "     Running `/root/.rustup/toolchains/stable/bin/rustc --crate-name demo --edition=2021 src/main.rs`",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.40s",
    "",
  ].join("\n");
  const verbose = cargoBuildFilter.filter(raw, { args: ["-v"], shaped: false, exitCode: 0 });
  ok(verbose.text.includes("Running `/root/.rustup/toolchains/stable/bin/rustc --crate-name demo"));
  const quiet = cargoBuildFilter.filter(raw, { args: [], shaped: false, exitCode: 0 });
  ok(!quiet.text.includes("Running"));
  deepStrictEqual(
    [["-v"], ["-vv"], ["--verbose"], ["--release", "-rv"], ["--release"], ["--", "-v"]].map(
      cargoVerbose,
    ),
    [true, true, true, true, false, false],
  );
});
