import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { buildLab, pointerId, rtok, tempDir } from "./_helpers.ts";
import { archiveDir, sha256Hex } from "../src/plugins/archive/archive.ts";

Deno.test("rtok gain reports a 20 % expand rate after 10 lossy runs and 2 expands, and flags it", async () => {
  using dir = tempDir();
  const home = `${dir.path}/home`;
  const lab = `${dir.path}/lab`;
  await buildLab(lab);
  let id = "";
  for (let i = 0; i < 10; i++) {
    const r = await rtok(home, ["git", "log"], { cwd: lab });
    id = pointerId(r.out)!;
    ok(id, r.out);
  }
  // One expand on the command line…
  const expanded = await rtok(home, ["expand", id], { cwd: lab });
  strictEqual(expanded.code, 0);
  const raw = expanded.stdout;
  // …and one the hook sees: the agent reading the archived file with its Read tool.
  const file = `${archiveDir(home)}/${await sha256Hex(raw)}`;
  const event = {
    hook_event_name: "PostToolUse",
    session_id: "s1",
    cwd: lab,
    tool_name: "Read",
    tool_input: { file_path: file },
    tool_response: { type: "text", file: { filePath: file, content: "…" } },
  };
  const hook = await rtok(home, ["hook", "claude"], { cwd: lab, stdin: JSON.stringify(event) });
  deepStrictEqual([hook.code, hook.out], [0, ""]);
  // A Read of anything else is not an expand.
  const other = { ...event, tool_input: { file_path: `${lab}/app.py` } };
  await rtok(home, ["hook", "claude"], { cwd: lab, stdin: JSON.stringify(other) });

  const json = await rtok(home, ["gain", "--format", "json"], { cwd: lab });
  strictEqual(json.code, 0, json.err);
  const g = JSON.parse(json.out) as { expandRates: unknown[] };
  deepStrictEqual(g.expandRates, [
    { family: "git log", lossyRuns: 10, expands: 2, ratePct: 20, flagged: true },
  ]);

  const text = await rtok(home, ["gain"], { cwd: lab });
  match(text.out, /\nexpand rate: lossy outputs asked for again/);
  match(text.out, /\ngit log\s+10\s+2\s+20\.0%\s+\d+\s+\d+\.\d%\s+too aggressive\?\n/);
  match(text.out, /1 filter above 5%/);

  const csv = await rtok(home, ["gain", "--format", "csv"], { cwd: lab });
  const [header, row] = csv.out.trim().split("\n");
  const cells = Object.fromEntries(header.split(",").map((k, i) => [k, row.split(",")[i]]));
  deepStrictEqual(
    [cells.command, cells.lossyRuns, cells.expands, cells.expandRatePct, cells.tooAggressive],
    ["git log", "10", "2", "20", "true"],
  );
});
