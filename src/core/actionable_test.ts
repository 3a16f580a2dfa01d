import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  actionableLines,
  isActionable,
  keepActionable,
  KEPT_HEADER,
  missingActionable,
} from "./actionable.ts";

Deno.test("isActionable() knows what failed and what to do from what merely passed", async (t) => {
  const yes = [
    "Please manually install OpenSSL and try installing Prisma again.",
    "error: could not compile `app` due to 2 previous errors",
    "npm ERR! code ERESOLVE",
    "warning: unused variable: `x`",
    "hint: Updates were rejected because the remote contains work",
    "Error: ENOENT: no such file or directory, open 'config.json'",
    "make: *** [Makefile:12: build] Error 2",
    "Did you mean `parseArgs`?",
    "Run `npm audit fix` to fix them.",
    "FAILED tests/test_io.py::test_empty - AssertionError",
  ];
  const no = [
    "",
    "test result: ok. 12 passed; 0 failed; 0 ignored",
    "✓ reports failed uploads (3 ms)",
    "==================== warnings summary ====================",
    '  14 |     print(f"failed")',
    "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
    "Compiling app v0.1.0 (/work/app)",
    "Add the retry loop to the uploader",
  ];
  for (const l of yes) await t.step(`yes: ${l}`, () => ok(isActionable(l)));
  for (const l of no) await t.step(`no: ${l || "(blank)"}`, () => ok(!isActionable(l)));
});

Deno.test("actionableLines() keeps the first project frame of a stack, not the library's", () => {
  const lines = [
    "TypeError: Cannot read properties of undefined (reading 'id')",
    "    at Object.get (/app/node_modules/orm/lib/model.js:40:11)",
    "    at loadUser (/app/src/users.ts:12:5)",
    "    at main (/app/src/index.ts:3:1)",
  ];
  deepStrictEqual(actionableLines(lines), [0, 2]);
});

Deno.test("actionableLines() counts an npm error block by its first line and what says something", () => {
  const lines = [
    "npm error code EUSAGE",
    "npm error",
    "npm error Clean install a project",
    "npm error [--global-style] [--omit <dev|optional|peer>]",
    'npm error Run "npm help ci" for more info',
  ];
  deepStrictEqual(actionableLines(lines), [0, 4]);
});

Deno.test("keepActionable() puts back the line a cut dropped, with the line it introduces", () => {
  const raw = [
    "#12 [build 3/7] RUN npx prisma generate",
    "#12 0.913 Prisma failed to detect the libssl/openssl version to use:",
    "#12 0.913 Please manually install OpenSSL and try installing Prisma again.",
    "#12 DONE 1.2s",
    "",
  ].join("\n");
  const view = {
    text: "#12 [build 3/7] RUN npx prisma generate\n#12 DONE 1.2s\n",
    cut: ["2 lines"],
  };
  const kept = keepActionable(raw, view);
  ok(kept.text.startsWith(view.text));
  const added = kept.text.slice(view.text.length).split("\n");
  strictEqual(added[0], KEPT_HEADER);
  deepStrictEqual(added.slice(1, 3), [
    "#12 0.913 Prisma failed to detect the libssl/openssl version to use:",
    "#12 0.913 Please manually install OpenSSL and try installing Prisma again.",
  ]);
  deepStrictEqual(kept.cut, ["2 lines"]);
  deepStrictEqual(missingActionable(raw, kept.text), []);
  deepStrictEqual(missingActionable(raw, view.text).length, 2);
});

Deno.test("keepActionable() leaves a view alone that rewords its errors or cut nothing", () => {
  const raw = "src/a.ts(3,1): error TS2304: Cannot find name 'foo'.\nsome noise\n";
  const reworded = { text: "TS2304 Cannot find name 'foo': src/a.ts 3,1\n", cut: ["1 line"] };
  strictEqual(keepActionable(raw, reworded), reworded);
  const lossless = { text: "nothing of it", cut: [] };
  strictEqual(keepActionable(raw, lossless), lossless);
});

Deno.test("keepActionable() writes a repeated line once with its count", () => {
  const raw = Array(5).fill("warning: retrying the upload of chunk_a").join("\n");
  const kept = keepActionable(raw, { text: "uploads\n", cut: ["5 lines"] });
  ok(
    kept.text.endsWith(`${KEPT_HEADER}\nwarning: retrying the upload of chunk_a (×5)\n`),
    kept.text,
  );
});
