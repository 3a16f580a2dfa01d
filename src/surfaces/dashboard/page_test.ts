import { match, ok, strictEqual } from "node:assert/strict";

// The page is served as text, so no test run type-checks it by importing it: deno check does,
// here. In a program of its own: the DOM's types it asks for clash with Deno's in some server
// modules, so dev.json leaves it out of `deno check .`; deno.json's import map reaches the
// package's modules its types come from.
const PAGE = new URL("./page.js", import.meta.url);
const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;

async function _check(path: string): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--config", CONFIG, path],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: r.code, out: text.decode(r.stdout) + text.decode(r.stderr) };
}

Deno.test("page.js asks to be checked, with the DOM's types", async () => {
  const head = (await Deno.readTextFile(PAGE)).split("\n", 2);
  // Without @ts-check, deno check passes a script it never looked at.
  strictEqual(head[0], "// @ts-check");
  strictEqual(head[1], `/// <reference lib="dom" />`);
});

Deno.test("page.js type-checks against DashboardData, and fails on a wrong field", async (t) => {
  await t.step("as it is", async () => {
    const { code, out } = await _check(PAGE.pathname);
    strictEqual(code, 0, out);
  });
  await t.step("with a field GainJson does not have", async () => {
    const page = await Deno.readTextFile(PAGE);
    const wrong = page.replace("g.rawTokens, null,", "g.rawTokenz, null,");
    ok(wrong !== page, "the field to break is in the page");
    // The copy lives elsewhere: its relative type imports point back at the page's folder.
    const copy = wrong.replaceAll(
      /import\("(\.{1,2}\/[^"]+)"\)/g,
      (_, spec: string) => `import("${new URL(spec, PAGE).href}")`,
    );
    const dir = await Deno.makeTempDir({ prefix: "rtok-page-" });
    try {
      await Deno.writeTextFile(`${dir}/page.js`, copy);
      const { code, out } = await _check(`${dir}/page.js`);
      strictEqual(code, 1, out);
      match(out, /TS2551 \[ERROR\]: Property 'rawTokenz' does not exist on type 'GainJson'/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
