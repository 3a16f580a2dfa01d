import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  clip,
  Cuts,
  dropNodeFrames,
  factorStackPaths,
  foldLibraryFrames,
  foldSourceExcerpt,
  screenLines,
  shortenAnonymousFrames,
  withoutTiming,
} from "./_pm.ts";

Deno.test("screenLines strips ANSI and keeps a redrawn line's last state", () => {
  deepStrictEqual(screenLines("\x1b[32mok\x1b[0m\r\n⠋ a\r⠙ b\rdone\n\n"), ["ok", "done", ""]);
  deepStrictEqual(screenLines(""), []);
});

Deno.test("Cuts names each cut once, in the order first made", () => {
  const cuts = new Cuts();
  for (const name of ["timing", "hints", "timing"]) cuts.add(name);
  deepStrictEqual(cuts.list(), ["timing", "hints"]);
});

Deno.test("clip cuts long text to its width with an ellipsis", () => {
  strictEqual(clip("abcdef", 4), "abc…");
  strictEqual(clip("abc", 4), "abc");
});

Deno.test("withoutTiming drops the trailing timings package managers print", () => {
  deepStrictEqual(withoutTiming("added 3 packages in 2s"), {
    text: "added 3 packages",
    timed: true,
  });
  deepStrictEqual(withoutTiming("up to date in 350ms"), { text: "up to date", timed: true });
  deepStrictEqual(withoutTiming("27 packages installed [96.00ms]"), {
    text: "27 packages installed",
    timed: true,
  });
  deepStrictEqual(withoutTiming("Done in 0.42s."), { text: "Done.", timed: true });
  deepStrictEqual(withoutTiming("logged in 3 times"), { text: "logged in 3 times", timed: false });
});

Deno.test("dropNodeFrames drops node's frames and its source excerpt, keeping the caller's", () => {
  const lines = [
    "node:assert:90",
    "  throw new AssertionError(obj);",
    "  ^",
    "",
    "AssertionError [ERR_ASSERTION]: nope",
    "    at Object.<anonymous> (/app/test.js:5:8)",
    "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
    "    at node:internal/main/run_main_module:28:49 {",
    "  code: 'ERR_ASSERTION'",
    "}",
  ];
  deepStrictEqual(dropNodeFrames(lines), {
    lines: [
      "AssertionError [ERR_ASSERTION]: nope",
      "    at Object.<anonymous> (/app/test.js:5:8) {",
      "  code: 'ERR_ASSERTION'",
      "}",
    ],
    dropped: 3,
  });
});

Deno.test("foldLibraryFrames keeps where a failure entered node_modules and counts the rest", () => {
  const frames = [
    "Error: x",
    "    at a (/app/node_modules/lib/a.js:1:1)",
    "    at b (/app/node_modules/lib/b.js:1:1)",
    "    at c (/app/node_modules/lib/c.js:1:1)",
    "    at main (/app/main.js:1:1)",
  ];
  deepStrictEqual(foldLibraryFrames(frames), {
    lines: [
      "Error: x",
      "    at a (/app/node_modules/lib/a.js:1:1)",
      "    … 2 more frames in node_modules",
      "    at main (/app/main.js:1:1)",
    ],
    folded: 2,
  });
  // Two frames in a row are not worth a fold line.
  deepStrictEqual(foldLibraryFrames(frames.slice(2)).folded, 0);
});

Deno.test("factorStackPaths writes a long shared directory once, and a short one never", () => {
  const dir = "/home/someone/work/projects/calc/";
  deepStrictEqual(
    factorStackPaths([
      `${dir}calc.js:3`,
      "code",
      `    at f (${dir}calc.js:3:22)`,
      `    at ${dir}lib/r.js:1:2`,
    ]),
    [
      `(stack paths below ${dir})`,
      "calc.js:3",
      "code",
      "    at f (calc.js:3:22)",
      "    at lib/r.js:1:2",
    ],
  );
  const short = ["    at f (/a/b/c.js:1:1)", "    at g (/a/b/d.js:1:1)"];
  deepStrictEqual(factorStackPaths(short), short);
  deepStrictEqual(factorStackPaths(["    at f (/x/y/z/q.js:1:1)"]), ["    at f (/x/y/z/q.js:1:1)"]);
});

Deno.test("foldSourceExcerpt writes node's excerpt under the frame naming its line", () => {
  const raw = [
    "/app/calc.js:3",
    '  if (b === 0) throw new RangeError("zero");',
    "               ^",
    "",
    "RangeError: zero",
    "    at divide (/app/calc.js:3:22)",
    "    at main (/app/report.js:3:23)",
  ];
  deepStrictEqual(foldSourceExcerpt(raw), [
    "RangeError: zero",
    "    at divide (/app/calc.js:3:22)",
    '      if (b === 0) throw new RangeError("zero");',
    "    at main (/app/report.js:3:23)",
  ]);
  // No frame names line 3 of calc.js: the excerpt is the only place that says it, so it stays.
  const elsewhere = raw.map((l) => l.replace("calc.js:3:22", "calc.js:9:1"));
  deepStrictEqual(foldSourceExcerpt(elsewhere), elsewhere);
  // A frame that opens an error object's fields keeps them right under it.
  const fields = [...raw.slice(0, 5), "    at divide (/app/calc.js:3:22) {", "  code: 'X'", "}"];
  deepStrictEqual(foldSourceExcerpt(fields), fields);
});

Deno.test("shortenAnonymousFrames writes a module's top-level frame as node writes unnamed ones", () => {
  deepStrictEqual(
    shortenAnonymousFrames([
      "    at Object.<anonymous> (/app/report.js:3:23)",
      "    at Object.<anonymous> (/app/t.js:5:8) {",
      "    at Object.run (/app/x.js:1:1)",
      "Object.<anonymous> (/app/report.js:3:23)",
    ]),
    [
      "    at /app/report.js:3:23",
      "    at /app/t.js:5:8 {",
      "    at Object.run (/app/x.js:1:1)",
      "Object.<anonymous> (/app/report.js:3:23)",
    ],
  );
});
