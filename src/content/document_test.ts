import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { documentSyntax, headingsOf, OUTLINE_HEADINGS, renderHeadings } from "./document.ts";
import { viewFile } from "./file.ts";

// A README of 400 lines: front matter, nested sections, fenced code holding `# not a heading`,
// a setext title, and many lines that say "error".
function readme(): { text: string; want: [number, string, number, number][] } {
  const lines = ["---", "title: Shop", "---", "Shop", "====", ""];
  const want: [number, string, number, number][] = [];
  const section = (level: number, title: string, body: number) => {
    const start = lines.length + 1;
    lines.push(`${"#".repeat(level)} ${title}`, "");
    for (let i = 0; i < body; i++) lines.push(`An error ${i} is reported when the ledger is off.`);
    lines.push("");
    return start;
  };
  const install = section(2, "Install", 40);
  lines.push("```sh", "# not a heading", "npm install", "```", "");
  const usage = section(2, "Usage", 60);
  const flags = section(3, "Flags", 80);
  const errors = section(3, "Errors", 90);
  const faq = section(2, "FAQ", 100);
  const end = lines.length;
  want.push(
    [1, "Shop", 4, end],
    [2, "Install", install, usage - 1],
    [2, "Usage", usage, faq - 1],
    [3, "Flags", flags, errors - 1],
    [3, "Errors", errors, faq - 1],
    [2, "FAQ", faq, end],
  );
  return { text: lines.join("\n") + "\n", want };
}

Deno.test("headingsOf() finds Markdown headings with true section ranges, past fences and front matter", () => {
  const { text, want } = readme();
  const got = headingsOf(text, "markdown").map((h) => [h.level, h.title, h.start, h.end]);
  deepStrictEqual(got, want);
  // Each range starts on its heading's line.
  const lines = text.split("\n");
  for (const [, title, start] of want) ok(lines[start - 1].includes(title), title);
});

Deno.test("headingsOf() reads reStructuredText and AsciiDoc titles", async (t) => {
  await t.step("rst: levels in the order the styles appear, overlines included", () => {
    const text = "=====\nGuide\n=====\n\nIntro\n-----\n\ntext\n\nSetup\n-----\n\nDeep\n~~~~\n";
    deepStrictEqual(headingsOf(text, "rst").map((h) => [h.level, h.title, h.start, h.end]), [
      [1, "Guide", 1, 14],
      [2, "Intro", 5, 9],
      [2, "Setup", 10, 14],
      [3, "Deep", 13, 14],
    ]);
  });
  await t.step("asciidoc: = levels, none inside a listing block", () => {
    const text = "= Manual\n\n== Start\n----\n== not a title\n----\n== End\n";
    deepStrictEqual(headingsOf(text, "asciidoc").map((h) => [h.level, h.title, h.start]), [
      [1, "Manual", 1],
      [2, "Start", 3],
      [2, "End", 7],
    ]);
  });
});

Deno.test("viewFile() shows a long Markdown file as its headings, not as a log", async () => {
  const { text, want } = readme();
  const view = await viewFile("/p/README.md", text);
  ok(view);
  strictEqual(view.kind, "document");
  for (const [level, title, start, end] of want) {
    ok(
      view.body.includes(`${"#".repeat(level)} ${title} L${start}-${end}`),
      `${title} in:\n${view.body}`,
    );
  }
  ok(!/error lines? kept/i.test(view.body), view.body);
  ok(!view.body.includes("not a heading"));
});

Deno.test("renderHeadings() leaves the deepest levels out first past the cap, and counts them", () => {
  const text = Array.from(
    { length: 400 },
    (_, i) => `## [1.${i}.0]\n### Fixed\n- a fix ${i}\n`,
  ).join("");
  const out = renderHeadings(headingsOf(`# Changelog\n${text}`, "markdown")).split("\n");
  ok(out.length <= OUTLINE_HEADINGS + 1, `${out.length} lines`);
  ok(out[0].startsWith("# Changelog L1-"), out[0]);
  ok(!out.some((l) => l.includes("### Fixed")), "the deepest level goes first");
  ok(out.at(-1)!.includes("not listed"), out.at(-1));
});

Deno.test("documentSyntax() knows documents by their extension", () => {
  deepStrictEqual(
    ["a.md", "b.MDX", "c.rst", "d.adoc", "e.txt", "README"].map(documentSyntax),
    ["markdown", "markdown", "rst", "asciidoc", null, null],
  );
});
