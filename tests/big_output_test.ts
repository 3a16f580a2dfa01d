import { ok, strictEqual } from "node:assert/strict";
import { CLI, ledger, RTOK_PERMS, run, tempDir } from "./_helpers.ts";

const MIB = 1024 * 1024;

// Runs argv under python3, hashing its stdout as it streams; returns the peak resident set
// of the largest process it waited for (rtok, not the tool it ran).
const MEASURE = `
import hashlib, json, resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
h, n = hashlib.sha256(), 0
while True:
    chunk = p.stdout.read(1 << 20)
    if not chunk:
        break
    h.update(chunk)
    n += len(chunk)
code = p.wait()
print(json.dumps({"code": code, "sha": h.hexdigest(), "bytes": n,
                  "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
`;

async function measure(argv: string[], env: Record<string, string> = {}) {
  const r = await run("python3", ["-c", MEASURE, ...argv], { env });
  strictEqual(r.err, "");
  return JSON.parse(r.out) as { code: number; sha: string; bytes: number; peak_kib: number };
}

Deno.test("a 100 MiB output passes through rtok under 200 MiB of memory, nothing lost", async (t) => {
  using tmp = tempDir();
  const file = `${tmp.path}/big.txt`;
  const line = "x".repeat(90) + " some log text that goes on\n";
  const block = new TextEncoder().encode(line.repeat(Math.floor(MIB / line.length)));
  const f = await Deno.open(file, { write: true, create: true });
  for (let written = 0; written < 100 * MIB; written += block.length) await f.write(block);
  f.close();
  const home = `${tmp.path}/home`;
  const rtok = [Deno.execPath(), "run", ...RTOK_PERMS, CLI];

  for (
    const [name, argv, rawArgv] of [
      ["filtered tool (grep, past the filter's cap)", ["grep", "log", file], [
        "grep",
        "-n",
        "log",
        file,
      ]],
      ["passthrough tool (cat)", ["cat", file], ["cat", file]],
    ] as const
  ) {
    await t.step(name, async () => {
      const raw = await measure([...rawArgv]);
      ok(raw.bytes >= 100 * MIB, `${raw.bytes} bytes`);
      const got = await measure([...rtok, ...argv], { RTOK_HOME: home });
      strictEqual(got.code, 0);
      strictEqual(got.bytes, raw.bytes);
      strictEqual(got.sha, raw.sha);
      ok(got.peak_kib < 200 * 1024, `peak ${Math.round(got.peak_kib / 1024)} MiB`);
      console.log(
        `    ${name}: peak ${Math.round(got.peak_kib / 1024)} MiB for ${
          Math.round(got.bytes / MIB)
        } MiB`,
      );
    });
  }
  const rows = ledger(home);
  strictEqual(rows[0].passthrough, "output over 10 MiB");
  ok(rows.every((r) => r.raw_chars >= 100 * MIB));
});
