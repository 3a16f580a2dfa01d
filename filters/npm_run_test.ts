import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  bunRunFilter,
  npmRunFilter,
  npmTestFilter,
  pnpmRunFilter,
  pnpmTestFilter,
  SIMILAR_FOLD_AT,
  SIMILAR_KEPT,
  TAP_FOLD_AT,
  yarnRunFilter,
  yarnTestFilter,
} from "./npm_run.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

const CRASH = `/app/src/calc.js:3
  if (b === 0) throw new RangeError("division by zero");
               ^

RangeError: division by zero
    at exports.divide (/app/src/calc.js:3:22)
    at Object.<anonymous> (/app/src/report.js:3:23)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`;

const CRASH_OUT = `RangeError: division by zero
    at exports.divide (/app/src/calc.js:3:22)
      if (b === 0) throw new RangeError("division by zero");
    at /app/src/report.js:3:23
`;

Deno.test("npmTestFilter drops npm's banners and keeps the script's output", () => {
  const raw = `
> calc@1.0.0 pretest
> node -e "console.log('lint ok')"

lint ok

> calc@1.0.0 test
> node test.js

ok 1 - adds integers
2 passed, 0 failed
`;
  const out = npmTestFilter.filter(raw, OK);
  strictEqual(out.text, "lint ok\nok 1 - adds integers\n2 passed, 0 failed\n");
  deepStrictEqual(out.cut, []);
});

Deno.test("npmRunFilter keeps a crash's message and the caller's frames, and says it failed", () => {
  const out = npmRunFilter.filter(CRASH, { ...FAILED, args: ["report"] });
  strictEqual(out.text, CRASH_OUT + "npm run report failed with exit code 1\n");
  deepStrictEqual(out.cut, ["node-internal frames", "node version"]);
});

Deno.test("npmRunFilter writes a long shared stack directory once", () => {
  const dir = "/home/someone/work/projects/calc/src/";
  const raw = CRASH.replaceAll("/app/src/", dir);
  const out = npmRunFilter.filter(raw, { ...FAILED, args: ["report"] });
  const [message, ...frames] = CRASH_OUT.replaceAll("/app/src/", "").split("\n");
  strictEqual(
    out.text,
    [message, `(stack paths below ${dir})`, ...frames].join("\n") +
      "npm run report failed with exit code 1\n",
  );
});

Deno.test("npmRunFilter keeps an assertion's details and drops node's own source excerpt", () => {
  const raw = `node:assert:90
  throw new AssertionError(obj);
  ^

AssertionError [ERR_ASSERTION]: adds decimals
    at Object.<anonymous> (/app/test.js:5:8)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at node:internal/main/run_main_module:28:49 {
  generatedMessage: false,
  code: 'ERR_ASSERTION',
  actual: 0.30000000000000004,
  expected: 0.3,
  operator: 'strictEqual'
}
`;
  strictEqual(
    npmTestFilter.filter(raw, FAILED).text,
    `AssertionError [ERR_ASSERTION]: adds decimals
    at /app/test.js:5:8 {
  generatedMessage: false,
  code: 'ERR_ASSERTION',
  actual: 0.30000000000000004,
  expected: 0.3,
  operator: 'strictEqual'
}
npm test failed with exit code 1
`,
  );
});

Deno.test("npmRunFilter folds frames inside one library and keeps where it entered", () => {
  const raw = `Error: bad row 3
    at parseRow (/app/node_modules/row-parser/lib/parse.js:10:11)
    at walk (/app/node_modules/row-parser/lib/walk.js:20:5)
    at walk (/app/node_modules/row-parser/lib/walk.js:22:7)
    at Parser.run (/app/node_modules/row-parser/lib/index.js:40:3)
    at load (/srv/app/report.js:3:23)
`;
  const out = npmRunFilter.filter(raw, { ...FAILED, args: ["report"] });
  strictEqual(
    out.text,
    `Error: bad row 3
    at parseRow (/app/node_modules/row-parser/lib/parse.js:10:11)
    … 3 more frames in node_modules
    at load (/srv/app/report.js:3:23)
npm run report failed with exit code 1
`,
  );
  deepStrictEqual(out.cut, ["node_modules frames"]);
});

Deno.test("npmTestFilter counts a run of passing TAP lines and keeps failures and skips", () => {
  const raw = ["TAP version 13", "# sub", "ok 1 subtracts", "# mul", "ok 2 multiplies"]
    .concat(["# pow", "ok 3 powers", "# add"])
    .concat(Array.from({ length: 6 }, (_, i) => `ok ${i + 4} adds ${i}`))
    .concat([
      "not ok 7 adds decimals",
      "  ---",
      "    expected: 0.3",
      "  ...",
      "ok 8 divides # SKIP not yet",
      "ok 9 a",
      "ok 10 b",
      "",
      "1..10",
      "# pass  8",
      "# fail  1",
    ]).join("\n") + "\n";
  const out = npmTestFilter.filter(raw, FAILED);
  strictEqual(
    out.text,
    `ok ×3 (tests 1–3)
# add
ok ×6 (tests 4–9)
not ok 7 adds decimals
    expected: 0.3
ok 8 divides # SKIP not yet
ok 9 a
ok 10 b

1..10
# pass  8
# fail  1
npm test failed with exit code 1
`,
  );
  deepStrictEqual(out.cut, ["passing test names"]);
  strictEqual(TAP_FOLD_AT, 3);
});

Deno.test("npmTestFilter drops a TAP plan that the closing count repeats, and keeps it alone", () => {
  const counted = "ok 1 a\nnot ok 2 b\n  ---\n    at: t.js:3\n  ...\n1..2\n# tests 2\n# fail  1\n";
  strictEqual(
    npmTestFilter.filter(counted, FAILED).text,
    "ok 1 a\nnot ok 2 b\n    at: t.js:3\n# tests 2\n# fail  1\nnpm test failed with exit code 1\n",
  );
  strictEqual(npmTestFilter.filter("ok 1 a\n1..1\n", OK).text, "ok 1 a\n1..1\n");
  // A `---` line that does not open a failure's details is the script's own output.
  strictEqual(npmTestFilter.filter("---\nok 1 a\n  ...\n", OK).text, "---\nok 1 a\n  ...\n");
});

Deno.test("npmRunFilter counts a build's table of written files and keeps its ends", () => {
  const rows = Array.from(
    { length: 12 },
    (_, i) => `dist/assets/p${i + 1}-${"Ab9_-"[i % 5]}x${i}.js    0.0${i % 10} kB │ gzip: 0.09 kB`,
  );
  const raw = ["vite v5.4.10 building for production...", ...rows, "✓ built in 505ms"].join("\n");
  const out = npmRunFilter.filter(raw + "\n", { ...OK, args: ["build"] });
  const { head, tail } = SIMILAR_KEPT;
  strictEqual(
    out.text,
    [
      "vite v5.4.10 building for production...",
      ...rows.slice(0, head),
      `… ${12 - head - tail} more like these`,
      ...rows.slice(12 - tail),
      "✓ built in 505ms",
    ].join("\n") + "\n",
  );
  deepStrictEqual(out.cut, ["similar lines"]);
  // One row short of the threshold stays whole.
  const few = rows.slice(0, SIMILAR_FOLD_AT - 1).join("\n") + "\n";
  deepStrictEqual(npmRunFilter.filter(few, OK), { text: few, cut: [] });
});

Deno.test("npmRunFilter never folds lines that report a problem, nor stack frames", () => {
  const warnings = Array.from({ length: 10 }, (_, i) => `src/f${i}.js: warning unused x${i}`);
  const frames = Array.from({ length: 10 }, (_, i) => `    at f${i} (/a/f${i}.js:${i}:1)`);
  const failing = Array.from({ length: 10 }, (_, i) => `not ok ${i + 1} case ${i}`);
  const crossed = Array.from({ length: 10 }, (_, i) => `× case ${i} timed out`);
  const raw = [...warnings, "Error: boom", ...frames, ...failing, ...crossed].join("\n") + "\n";
  strictEqual(npmRunFilter.filter(raw, OK).text, raw);
});

Deno.test("npmRunFilter keeps npm 6–10's error lines in short and a missing script's help", () => {
  const old = `npm ERR! code ELIFECYCLE
npm ERR! errno 1
npm ERR! calc@1.0.0 test: \`node test.js\`
npm ERR! Exit status 1
npm ERR! A complete log of this run can be found in:
npm ERR!     /root/.npm/_logs/2020-01-01-debug.log
`;
  strictEqual(
    npmTestFilter.filter(old, FAILED).text,
    "npm error ELIFECYCLE: errno 1\n  calc@1.0.0 test: `node test.js`\n  Exit status 1\n",
  );
  const missing = `npm error Missing script: "tset"
npm error
npm error To see a list of scripts, run:
npm error   npm run
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log
`;
  strictEqual(
    npmRunFilter.filter(missing, { ...FAILED, args: ["tset"] }).text,
    'npm error Missing script: "tset"\n  To see a list of scripts, run:\n  npm run\n',
  );
});

Deno.test("yarn, pnpm and bun framing goes and their failure lines stay", () => {
  const yarn = `yarn run v1.22.22
$ node report.js
report: 3 rows
error Command failed with exit code 1.
info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.
Done in 0.42s.
`;
  const y = yarnRunFilter.filter(yarn, { ...FAILED, args: ["report"] });
  strictEqual(y.text, "report: 3 rows\nerror Command failed with exit code 1.\n");
  deepStrictEqual(y.cut, ["yarn hints", "timing"]);
  strictEqual(
    pnpmRunFilter.filter(
      "$ node report.js\nreport\n[ELIFECYCLE] Command failed with exit code 1.\n",
      FAILED,
    )
      .text,
    "report\n[ELIFECYCLE] Command failed with exit code 1.\n",
  );
  strictEqual(
    pnpmTestFilter.filter("\n> calc@1.0.0 test /app\n> node test.js\n\nok\n", OK).text,
    "ok\n",
  );
  strictEqual(
    bunRunFilter.filter(
      '$ node report.js\nreport\nerror: script "report" exited with code 1\n',
      FAILED,
    )
      .text,
    'report\nerror: script "report" exited with code 1\n',
  );
  strictEqual(yarnTestFilter.filter("yarn run v1.22.22\n$ node t.js\nok\n", OK).text, "ok\n");
});

Deno.test("npmRunFilter keeps `$ ` lines, which only pnpm, yarn and bun print as framing", () => {
  strictEqual(npmRunFilter.filter("$ echo hi\nhi\n", OK).text, "$ echo hi\nhi\n");
});

Deno.test("npmRunFilter writes a repeated line once with its count, and strips ANSI", () => {
  const raw = "\x1b[33mwarn: slow query\x1b[0m\nwarn: slow query\nwarn: slow query\ndone\n";
  strictEqual(npmRunFilter.filter(raw, OK).text, "warn: slow query (×3)\ndone\n");
});

Deno.test("npmRunFilter gives nothing for nothing, and a failure line for a silent failure", () => {
  deepStrictEqual(npmRunFilter.filter("", OK), { text: "", cut: [] });
  strictEqual(
    npmRunFilter.filter("", { ...FAILED, args: ["build"] }).text,
    "npm run build failed with exit code 1\n",
  );
});

Deno.test("npmRunFilter is idempotent", () => {
  const input = { ...FAILED, args: ["report"] };
  const once = npmRunFilter.filter(CRASH, input).text;
  ok(once.includes("failed"));
  strictEqual(npmRunFilter.filter(once, input).text, once);
});

Deno.test("every script filter reads stderr and has no stage 1", () => {
  const all = [
    npmRunFilter,
    npmTestFilter,
    pnpmRunFilter,
    pnpmTestFilter,
    yarnRunFilter,
    yarnTestFilter,
    bunRunFilter,
  ];
  deepStrictEqual(all.map((f) => f.name), [
    "npm run",
    "npm test",
    "pnpm run",
    "pnpm test",
    "yarn run",
    "yarn test",
    "bun run",
  ]);
  for (const f of all) {
    strictEqual(f.filterStderr, true);
    strictEqual(f.shape, undefined);
  }
});
