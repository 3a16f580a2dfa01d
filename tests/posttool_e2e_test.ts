import { ok, strictEqual } from "node:assert/strict";
import { claudeBinary, runClaude, startScriptedStandIn, type Step } from "./_claude.ts";
import { denoDir, installRtok, ledger, run, stopServer, tempDir } from "./_helpers.ts";

// A long module: classes with methods and free functions, each name unique.
function serviceModule(): { text: string; names: string[] } {
  const lines = ["// Order service.", 'import { readFileSync } from "node:fs";', ""];
  const names: string[] = [];
  for (let c = 0; c < 7; c++) {
    names.push(`OrderStage${c}`);
    lines.push(`export class OrderStage${c} {`);
    for (let m = 0; m < 5; m++) {
      names.push(`settleBatch${c}x${m}`);
      lines.push(`  settleBatch${c}x${m}(total: number): number {`);
      for (let k = 0; k < 7; k++) lines.push(`    const part${k} = total * ${k} + ${m};`);
      lines.push("    return total;", "  }");
    }
    lines.push("}", "");
  }
  for (let f = 0; f < 12; f++) {
    names.push(`formatInvoice${f}`);
    lines.push(`export function formatInvoice${f}(id: string): string {`);
    lines.push(`  return "invoice-" + id + "-${f}";`, "}");
  }
  return { text: lines.join("\n") + "\n", names };
}

interface Project {
  readonly dir: string;
  readonly names: string[];
  readonly ids: string[];
  readonly errors: string[];
  readonly grepFiles: string[];
  readonly paths: string[];
}

function project(dir: string): Project {
  const { text, names } = serviceModule();
  Deno.mkdirSync(`${dir}/src`, { recursive: true });
  Deno.writeTextFileSync(`${dir}/src/service.ts`, text);
  const paths: string[] = [];
  const grepFiles: string[] = [];
  for (let p = 0; p < 10; p++) {
    Deno.mkdirSync(`${dir}/src/pkg_${p}`, { recursive: true });
    for (let f = 0; f < 12; f++) {
      const path = `src/pkg_${p}/module_${f}.ts`;
      const calls = f % 3 === 0
        ? Array.from({ length: 4 }, (_, i) => `const parser${i} = makeParser("${p}-${f}-${i}");`)
        : [];
      if (calls.length) grepFiles.push(path);
      Deno.writeTextFileSync(
        `${dir}/${path}`,
        [`export const id = "${p}-${f}";`, ...calls].join("\n") + "\n",
      );
      paths.push(path);
    }
  }
  const ids = Array.from({ length: 220 }, (_, i) => `ord_${7000 + i * 13}`);
  Deno.mkdirSync(`${dir}/data`);
  Deno.writeTextFileSync(
    `${dir}/data/orders.json`,
    JSON.stringify(
      {
        orders: ids.map((id, i) => ({
          id,
          customer: `customer-${i % 17}`,
          status: i % 9 === 0 ? "refunded" : "paid",
          amount: 100 + i,
        })),
      },
      null,
      2,
    ) + "\n",
  );
  const errors: string[] = [];
  const log: string[] = [];
  for (let i = 1; i <= 1500; i++) {
    const level = i % 211 === 0 ? "ERROR" : "INFO";
    const line = `2026-12-04T09:${
      String(i % 60).padStart(2, "0")
    }:00Z ${level} handled request ${i}`;
    if (level === "ERROR") errors.push(line);
    log.push(line);
  }
  Deno.mkdirSync(`${dir}/logs`);
  Deno.writeTextFileSync(`${dir}/logs/server.log`, log.join("\n") + "\n");
  Deno.mkdirSync(`${dir}/test`);
  const tests = Array.from(
    { length: 40 },
    (_, i) =>
      `test("adds case ${i}", () => assert.strictEqual(${i} + 1, ${
        i === 7 || i === 23 ? i + 2 : i + 1
      }));`,
  );
  Deno.writeTextFileSync(
    `${dir}/test/math.test.mjs`,
    ['import { test } from "node:test";', 'import assert from "node:assert";', ...tests].join(
      "\n",
    ) +
      "\n",
  );
  return { dir, names, ids, errors, grepFiles, paths };
}

function steps(dir: string): Step[] {
  return [
    { tool: "Glob", input: { pattern: "src/**/*.ts" } },
    { tool: "Grep", input: { pattern: "makeParser", output_mode: "content", "-n": true } },
    { tool: "Read", input: { file_path: `${dir}/src/service.ts` } },
    { tool: "Read", input: { file_path: `${dir}/src/service.ts`, offset: 120, limit: 40 } },
    { tool: "Read", input: { file_path: `${dir}/data/orders.json` } },
    {
      tool: "Bash",
      input: { command: "node --test test/ 2>&1 | tail -n 400", description: "Run the tests" },
    },
    { tool: "Bash", input: { command: "cat logs/server.log", description: "Show the log" } },
    { tool: "Read", input: { file_path: `${dir}/src/service.ts` } },
  ];
}

async function session(
  claude: string,
  dir: string,
  env: Record<string, string>,
): Promise<{ results: string[]; contexts: string[]; resent: number }> {
  await using api = startScriptedStandIn(steps(dir));
  const r = await runClaude(claude, api, dir, env, ["--allowedTools", "Read,Grep,Glob,Bash"]);
  strictEqual(r.result?.is_error, false, r.err);
  const results = api.results();
  strictEqual(results.length, 8, JSON.stringify(results.map((x) => x?.slice(0, 80))));
  return { results, contexts: api.contexts(), resent: api.resentChars() };
}

Deno.test({
  name: "Claude Code's own tool results arrive compressed through rtok's PostToolUse, facts whole",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const claude = await claudeBinary();
    using tmp = tempDir();
    const PATH = await installRtok(`${tmp.path}/root`);
    const p = project(`${tmp.path}/project`);
    const base = { PATH, DENO_DIR: await denoDir(), RTOK_HOME: `${tmp.path}/rtok` };
    Deno.mkdirSync(`${tmp.path}/plain`);
    Deno.mkdirSync(`${tmp.path}/hooked`);
    const plain = await session(claude, p.dir, { ...base, HOME: `${tmp.path}/plain` });
    // rtok init starts a server for this RTOK_HOME: it goes with the test.
    using _server = { [Symbol.dispose]: () => stopServer(base.RTOK_HOME) };
    const init = await run("rtok", ["init"], {
      env: { ...base, HOME: `${tmp.path}/hooked` },
      cwd: p.dir,
    });
    strictEqual(init.code, 0, init.err);
    const hooked = await session(claude, p.dir, { ...base, HOME: `${tmp.path}/hooked` });
    if (Deno.env.get("RTOK_E2E_DUMP")) {
      Deno.writeTextFileSync(
        Deno.env.get("RTOK_E2E_DUMP")!,
        JSON.stringify({ plain, hooked }, null, 1),
      );
    }
    const seen = (i: number) => hooked.results[i] + "\n" + hooked.contexts.join("\n");
    const file = Deno.readTextFileSync(`${p.dir}/src/service.ts`).split("\n");

    await t.step("Glob: every path it listed, whole", () => {
      const listed = plain.results[0].split("\n").filter((l) => l.endsWith(".ts"));
      ok(listed.length >= 50, `${listed.length} paths listed`);
      for (const path of listed) {
        const dir = path.slice(0, path.lastIndexOf("/") + 1);
        const name = path.slice(dir.length);
        ok(
          hooked.results[0].split("\n").some((l) => l.includes(dir) && l.includes(name)),
          path,
        );
      }
    });
    await t.step("Grep: every file with hits named whole", () => {
      for (const f of p.grepFiles) ok(hooked.results[1].includes(f), f);
      ok(hooked.results[1].length < plain.results[1].length);
    });
    await t.step("whole Read: true line numbers, and every class and function", () => {
      const shown = hooked.results[2].split("\n");
      ok(shown.length <= 31 && shown.length < file.length, `${shown.length} lines shown`);
      for (const line of shown) {
        const m = /^(\d+)\t(.*)$/s.exec(line);
        ok(m, `numbered: ${JSON.stringify(line)}`);
        strictEqual(m[2], file[Number(m[1]) - 1], `line ${m[1]} is that line of the file`);
      }
      for (const name of p.names) ok(seen(2).includes(name), name);
    });
    await t.step("ranged Read and second whole Read: byte for byte the plain run's", () => {
      strictEqual(hooked.results[3], plain.results[3]);
      strictEqual(hooked.results[7], plain.results[7]);
    });
    await t.step("JSON Read: every record id", () => {
      for (const id of p.ids) ok(seen(4).includes(id), id);
    });
    await t.step("piped test run: the failing tests and the counts", () => {
      for (const name of ["adds case 7", "adds case 23"]) {
        ok(hooked.results[5].includes(name), name);
      }
      ok(/\bfail\w*\D{0,3}2\b|\b2 fail/i.test(hooked.results[5]), hooked.results[5].slice(-400));
      ok(hooked.results[5].length < plain.results[5].length);
    });
    await t.step("cat of a long log: every ERROR line", () => {
      for (const line of p.errors) ok(hooked.results[6].includes(line), line);
    });
    await t.step("the session re-sends at most half the tool-result chars", () => {
      ok(
        hooked.resent <= plain.resent / 2,
        `${hooked.resent} chars re-sent with rtok, ${plain.resent} without`,
      );
    });
    await t.step("each replacement is a ledger row of the hook", () => {
      const rows = ledger(base.RTOK_HOME).filter((row) => row.command !== "");
      const families = new Set(rows.map((row) => row.family));
      for (const f of ["Glob", "Grep", "Read", "cat"]) {
        ok(families.has(f), `${f} in ${[...families]}`);
      }
    });
  },
});
