/**
 * A project and a script of tool calls over the cases `rtok replay` found hiding what agents
 * used next: a long README full of the word error, a build log whose one actionable line sits in
 * the middle, a git diff with a long hunk whose changed line is edited next, a pytest run naming
 * the test files read next, Grep hits with context and no line numbers, a Glob of 150 files, and
 * an outlined module edited, then read again.
 *
 * @module
 */

import type { Step } from "./_claude.ts";
import { serviceModule } from "./_scripted_project.ts";

/** Builds the project in `dir` (a git repository with one uncommitted change); its steps. */
export function realisticSession(dir: string): Step[] {
  Deno.mkdirSync(`${dir}/src/lib`, { recursive: true });
  const sh = (args: string[]) => {
    const o = new Deno.Command("git", { args, cwd: dir, stdout: "null", stderr: "piped" })
      .outputSync();
    if (!o.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(o.stderr)}`);
  };
  // 1. A long README full of the word error.
  const md: string[] = ["# Shop", "", "Shop keeps a ledger.", ""];
  for (const s of ["Install", "Configuration", "Errors", "Troubleshooting", "Deploy"]) {
    md.push(`## ${s}`, "");
    for (let i = 0; i < 70; i++) {
      md.push(`An error ${i} in ${s.toLowerCase()} is reported as ERROR when the ledger is off.`);
    }
    md.push("");
  }
  Deno.writeTextFileSync(`${dir}/README.md`, md.join("\n") + "\n");
  // 2. A build log with its one actionable line in the middle.
  const build: string[] = [];
  for (let i = 0; i < 150; i++) {
    build.push(
      `#${8 + (i % 3)} ${(i * 0.21).toFixed(3)} downloading layer sha256:${
        (i * 7919).toString(16).padStart(12, "0")
      }`,
    );
  }
  build.push(
    "#12 [builder 6/9] RUN npx prisma generate",
    "#12 14.92 Prisma failed to detect the libssl/openssl version to use, and may not work as expected.",
    "#12 14.93 Please manually install OpenSSL and try installing Prisma again.",
  );
  for (let i = 0; i < 150; i++) {
    build.push(`#13 ${(20 + i * 0.2).toFixed(3)} copying file app/chunk_${i}.js`);
  }
  build.push("#14 DONE 48.3s");
  Deno.writeTextFileSync(`${dir}/build.sh`, `cat <<'EOF_LOG'\n${build.join("\n")}\nEOF_LOG\n`);
  Deno.writeTextFileSync(`${dir}/Dockerfile`, "FROM node:20\nCOPY . .\nRUN npx prisma generate\n");
  // 3. A git repo with a 140-line hunk of which 110 lines change.
  const orig = Array.from({ length: 300 }, (_, i) => `export const rate_${i} = ${i / 100};`);
  Deno.writeTextFileSync(`${dir}/src/rates.ts`, orig.join("\n") + "\n");
  // 4. A pytest run printed by a script.
  const py = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0",
    "rootdir: /work/shop",
    "collected 88 items",
    "",
    "tests/unit/test_ledger.py ........................                        [ 27%]",
    "tests/unit/test_pricing.py ...................F....                       [ 55%]",
    "tests/integration/test_orders.py .......................                  [ 81%]",
    "tests/integration/test_refunds.py ................                        [100%]",
    "",
    "=================================== FAILURES ===================================",
    "___________________________ test_discount_rounding _____________________________",
    "",
    "    def test_discount_rounding():",
    ">       assert discount(59.47) == 59.48",
    "E       assert 59.47 == 59.48",
    "",
    "tests/unit/test_pricing.py:41: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/unit/test_pricing.py::test_discount_rounding - assert 59.47 == 59.48",
    "========================= 1 failed, 87 passed in 1.42s =========================",
  ];
  Deno.writeTextFileSync(
    `${dir}/run_tests.sh`,
    `cat <<'EOF_PY'\n${py.join("\n")}\nEOF_PY\nexit 0\n`,
  );
  // 5. Grep hits with context; 6. 150 files for a truncated Glob.
  for (let f = 0; f < 150; f++) {
    const lines = [`export const id_${f} = ${f};`];
    if (f % 5 === 0) {
      for (let g = 0; g < 3; g++) {
        lines.push(
          `const before${g} = ${g};`,
          `throw new LedgerError_${f}_${g}(total);`,
          `const after${g} = ${g};`,
          "",
          "",
          "",
        );
      }
    }
    Deno.writeTextFileSync(`${dir}/src/lib/mod_${f}.ts`, lines.join("\n") + "\n");
  }
  // 7. The long module.
  Deno.writeTextFileSync(`${dir}/src/service.ts`, serviceModule().text);
  sh(["init", "-q"]);
  sh(["add", "."]);
  sh(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]);
  const changed = orig.map((l, i) =>
    i >= 20 && i < 130 ? `export const rate_${i} = ${i / 50}; // doubled` : l
  );
  Deno.writeTextFileSync(`${dir}/src/rates.ts`, changed.join("\n") + "\n");
  const steps: Step[] = [
    { tool: "Read", input: { file_path: `${dir}/README.md` } },
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/README.md`,
        old_string: "## Troubleshooting",
        new_string: "## Troubleshooting the ledger",
      },
    },
    { tool: "Bash", input: { command: "sh build.sh", description: "build" } },
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/Dockerfile`,
        old_string: "FROM node:20",
        new_string:
          "FROM node:20\n# OpenSSL for Prisma\nRUN apt-get update && apt-get install -y openssl",
      },
    },
    { tool: "Bash", input: { command: "git diff", description: "diff" } },
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/src/rates.ts`,
        old_string: "export const rate_80 = 1.6; // doubled",
        new_string: "export const rate_80 = 0.8;",
      },
    },
    { tool: "Bash", input: { command: "sh run_tests.sh", description: "tests" } },
    { tool: "Read", input: { file_path: `${dir}/tests/integration/test_refunds.py` } },
    {
      tool: "Grep",
      input: { pattern: "LedgerError", output_mode: "content", "-C": 1, "-n": false },
    },
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/src/lib/mod_35.ts`,
        old_string: "throw new LedgerError_35_1(total);",
        new_string: "throw new LedgerError_35_1(total, 1);",
      },
    },
    { tool: "Glob", input: { pattern: "src/**/*.ts" } },
    { tool: "Read", input: { file_path: `${dir}/src/service.ts` } },
    {
      tool: "Edit",
      input: {
        file_path: `${dir}/src/service.ts`,
        old_string: "  settleBatch4x3(total: number): number {",
        new_string: "  settleBatch4x3(total: number, fee = 0): number {",
      },
    },
    { tool: "Read", input: { file_path: `${dir}/src/service.ts` } },
  ];

  return steps;
}
