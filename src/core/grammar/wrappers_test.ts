import { strictEqual } from "node:assert/strict";
import { peelWrappers } from "./wrappers.ts";

const words = (line: string) => line.split(" ").map((value) => ({ value, quoted: false }));

Deno.test("peelWrappers finds the wrapped command past each wrapper's options", () => {
  strictEqual(peelWrappers(words("timeout -s KILL 5 nice -n 3 grep x"), 0), 7);
  strictEqual(peelWrappers(words("FOO=1 time -p nohup command -p ls"), 1), 6);
  strictEqual(peelWrappers(words("timeout --kill-after=2 1.5s rg x"), 0), 3);
  strictEqual(peelWrappers(words("exec git log"), 0), 1);
  strictEqual(peelWrappers(words("git log"), 0), 0);
});

Deno.test("peelWrappers says why a wrapper cannot be looked through", () => {
  strictEqual(peelWrappers(words("timeout grep x"), 0), "timeout has no duration");
  strictEqual(
    peelWrappers(words("command -v grep"), 0),
    "command with an option only looks a command up",
  );
  strictEqual(
    peelWrappers(words("nice --bogus ls"), 0),
    `nice's option "--bogus" is not understood`,
  );
  strictEqual(peelWrappers([{ value: "time", quoted: true }, ...words("ls")], 0), 0);
});
