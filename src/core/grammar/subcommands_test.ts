import { strictEqual } from "node:assert/strict";
import { SUBCOMMAND_TOOLS, subcommandIndex } from "./subcommands.ts";
import { GIT_GLOBAL_VALUED } from "./git.ts";

Deno.test("subcommandIndex skips global options and their values", () => {
  strictEqual(subcommandIndex(["-C", "dir", "--no-pager", "log"], GIT_GLOBAL_VALUED), 3);
  strictEqual(subcommandIndex(["--git-dir", "x", "-c", "a=b", "status"], GIT_GLOBAL_VALUED), 4);
  strictEqual(subcommandIndex(["+nightly", "test"], SUBCOMMAND_TOOLS.cargo), 1);
  strictEqual(subcommandIndex(["-n", "prod", "get", "pods"], SUBCOMMAND_TOOLS.kubectl), 2);
  strictEqual(subcommandIndex(["--version"], GIT_GLOBAL_VALUED), -1);
});
