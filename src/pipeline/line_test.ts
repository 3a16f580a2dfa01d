import { deepStrictEqual } from "node:assert/strict";
import { plainCommand, planLine } from "./line.ts";

Deno.test("planLine() reads cat of one file, runs one plain command itself, else the shell", () => {
  deepStrictEqual(planLine("cat a.ts", "/p"), { kind: "cat", operand: "a.ts", path: "/p/a.ts" });
  deepStrictEqual(planLine("git log -5", "/p"), { kind: "plain", argv: ["git", "log", "-5"] });
  deepStrictEqual(planLine("git log | head", "/p"), { kind: "shell" });
  deepStrictEqual(planLine("git log > out.txt", "/p"), { kind: "shell" });
  deepStrictEqual(planLine("FOO=1 git log", "/p"), { kind: "shell" });
  deepStrictEqual(planLine("git log $REF", "/p"), { kind: "shell" });
});

Deno.test("plainCommand() names the family of a plain command, and nothing for an unfiltered one", () => {
  deepStrictEqual(plainCommand("git status"), { family: "git status", argv: ["git", "status"] });
  deepStrictEqual(plainCommand("echo hi"), null);
  deepStrictEqual(plainCommand("git status &"), null);
});
