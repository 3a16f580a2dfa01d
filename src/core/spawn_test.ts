import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { concatBytes, readCapped, runCaptured, startProcess } from "./spawn.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc(chunk));
      c.close();
    },
  });
}

Deno.test("startProcess() reads a failed start as the shell's exit codes", {
  permissions: { run: true, read: true, env: ["PATH"] },
}, () => {
  const missing = startProcess("/nonexistent/tool", [], {
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
  strictEqual(missing.ok, false);
  if (!missing.ok) {
    strictEqual(missing.code, 127);
    strictEqual(missing.message, "/nonexistent/tool: command not found");
  }
  const dir = startProcess("/tmp", [], { stdin: "null", stdout: "null", stderr: "null" });
  strictEqual(dir.ok, false);
  if (!dir.ok) strictEqual(dir.code, 126);
});

Deno.test("readCapped() holds up to the cap, then spills everything in order", async (t) => {
  await t.step("under the cap: all held", async () => {
    const r = await readCapped(streamOf(["ab", "cd"]), { cap: 4 });
    deepStrictEqual([dec(r.held), r.bytes, r.spilled, r.dropped], ["abcd", 4, false, 0]);
  });
  await t.step("past the cap with a spill: held bytes first, then the rest", async () => {
    const out: string[] = [];
    const spill = (b: Uint8Array) => Promise.resolve(void out.push(dec(b)));
    const r = await readCapped(streamOf(["ab", "cd", "ef"]), { cap: 3, spill });
    deepStrictEqual(out, ["ab", "cd", "ef"]);
    deepStrictEqual([r.held.length, r.bytes, r.spilled], [0, 6, true]);
  });
  await t.step("past the cap without a spill: the rest is counted", async () => {
    const r = await readCapped(streamOf(["ab", "cd", "ef"]), { cap: 3 });
    deepStrictEqual([dec(r.held), r.bytes, r.dropped], ["ab", 6, 4]);
  });
  await t.step("a negative cap with a spill streams from the first byte", async () => {
    const out: string[] = [];
    const spill = (b: Uint8Array) => Promise.resolve(void out.push(dec(b)));
    const r = await readCapped(streamOf(["x"]), { cap: -1, spill });
    deepStrictEqual([out, r.spilled], [["x"], true]);
  });
});

Deno.test("concatBytes() joins chunks in order", () => {
  deepStrictEqual(dec(concatBytes([enc("a"), enc("bc"), enc("")])), "abc");
});

Deno.test("runCaptured() passes input, keeps both streams and the exit code", {
  permissions: { run: true, read: true, env: ["PATH"] },
}, async () => {
  const r = await runCaptured(["/bin/sh", "-c", "cat; echo err >&2; exit 3"], {
    input: enc("fed in\n"),
    timeoutMs: 10_000,
    holdBytes: 1024,
  });
  deepStrictEqual(
    [r.started, r.code, dec(r.stdout), dec(r.stderr), r.timedOut],
    [true, 3, "fed in\n", "err\n", false],
  );
});

function _alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

async function _gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && _alive(pid); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !_alive(pid);
}

Deno.test("runCaptured() kills the whole process group at the time limit", {
  permissions: { run: true, read: true, env: ["PATH"] },
}, async () => {
  // The shell's background child would outlive a kill of the shell alone.
  const r = await runCaptured(["/bin/sh", "-c", "sleep 60 & echo $!; sleep 60"], {
    timeoutMs: 300,
    killAfterMs: 0,
    holdBytes: 1024,
  });
  strictEqual(r.timedOut, true);
  const pid = Number(dec(r.stdout).trim());
  ok(pid > 0, dec(r.stdout));
  ok(await _gone(pid), `the background child ${pid} was killed with its group`);
});

Deno.test("runCaptured() stops reading pipes a leftover process holds, after readAfterExitMs", {
  permissions: { run: true, read: true, env: ["PATH"] },
}, async () => {
  // The leftover sleep holds stdout open: without the limit, the read would wait for it.
  const r = await runCaptured(["/bin/sh", "-c", "sleep 60 & echo $!"], {
    timeoutMs: 30_000,
    holdBytes: 1024,
    readAfterExitMs: 200,
  });
  const pid = Number(dec(r.stdout).trim());
  strictEqual(r.code, 0);
  strictEqual(r.timedOut, false);
  ok(_alive(pid), "returned while the leftover process still ran");
  Deno.kill(pid, "SIGKILL");
});

Deno.test("runCaptured() gives 127 and a message naming a command that is not there", {
  permissions: { run: true, read: true, env: ["PATH"] },
}, async () => {
  // Started through setsid, the failure is setsid's to report; either way it reads the same.
  const r = await runCaptured(["/nonexistent/tool"], { timeoutMs: 5000, holdBytes: 1024 });
  strictEqual(r.code, 127);
  ok(dec(r.stderr).includes("/nonexistent/tool"), dec(r.stderr));
});
