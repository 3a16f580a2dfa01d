import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { escapeHtml, pageHtml } from "./html.ts";

Deno.test("escapeHtml() writes every markup character as a reference", async (t) => {
  const cases: [string, string][] = [
    ["plain /src/main.ts", "plain /src/main.ts"],
    ["<script>alert(1)</script>", "&#60;script&#62;alert(1)&#60;/script&#62;"],
    [`a "quoted" & 'single'`, "a &#34;quoted&#34; &#38; &#39;single&#39;"],
    ["&#60; already", "&#38;#60; already"],
  ];
  for (const [input, want] of cases) {
    await t.step(input, () => strictEqual(escapeHtml(input), want));
  }
});

Deno.test("pageHtml() writes the ledger path and the project as text, never as markup", () => {
  const html = pageHtml(`/home/a<b>"x"/rtok.db`, `/w/<i>p</i> & q`);
  ok(html.includes("/home/a&#60;b&#62;&#34;x&#34;/rtok.db"), html);
  ok(html.includes("project /w/&#60;i&#62;p&#60;/i&#62; &#38; q"), html);
  ok(!html.includes("<b>") && !html.includes("<i>"), "no user markup in the page");
  // Only rtok's own script and styles: nothing from another origin.
  deepStrictEqual(
    [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]),
    ["data:,", "/dashboard.css", "/dashboard.js"],
  );
});
