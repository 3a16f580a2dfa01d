/**
 * The project the scripted Claude Code sessions work in (a long module, a package tree, a JSON
 * data file, a long log, a failing test file), and the tool calls the stand-in asks for in it.
 * Shared by the PostToolUse and replay end-to-end tests.
 *
 * @module
 */

import type { Step } from "./_claude.ts";

/** A long module: classes with methods and free functions, each name unique. */
export function serviceModule(): { text: string; names: string[] } {
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

export interface Project {
  readonly dir: string;
  readonly names: string[];
  readonly ids: string[];
  readonly errors: string[];
  readonly grepFiles: string[];
  readonly paths: string[];
}

export function project(dir: string): Project {
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

export function steps(dir: string): Step[] {
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
    // An edit of a method the first whole Read showed in its outline only.
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/src/service.ts`,
        old_string: "  settleBatch3x2(total: number): number {",
        new_string: "  settleBatch3x2(total: number, fee = 0): number {",
      },
    },
  ];
}
