import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { splitToolOutput, type ToolOutputParts } from "./gemini_output.ts";

const OPEN = "<untrusted_context>\n";
const CLOSE = "\n</untrusted_context>";

Deno.test("splitToolOutput() separates Gemini CLI's wrapping from the tool's output", async (t) => {
  const cases: { name: string; text: string; want: ToolOutputParts | null }[] = [
    {
      name: "a shell result as Gemini CLI 0.61.0 sends it",
      text: `${OPEN}Output: 1\n2\n3\nProcess Group PGID: 24485${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "1\n2\n3",
        tail: `\nProcess Group PGID: 24485${CLOSE}`,
        failed: false,
      },
    },
    {
      name: "background PIDs before the process group",
      text: `${OPEN}Output: x\nBackground PIDs: 12, 13\nProcess Group PGID: 9${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "x",
        tail: `\nBackground PIDs: 12, 13\nProcess Group PGID: 9${CLOSE}`,
        failed: false,
      },
    },
    {
      name: "an exit code is a failure",
      text: `${OPEN}Output: 1\n2\nExit Code: 3\nProcess Group PGID: 24501${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "1\n2",
        tail: `\nExit Code: 3\nProcess Group PGID: 24501${CLOSE}`,
        failed: true,
      },
    },
    {
      name: "a signal is a failure",
      text: `${OPEN}Output: partial\nSignal: SIGTERM\nProcess Group PGID: 5${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "partial",
        tail: `\nSignal: SIGTERM\nProcess Group PGID: 5${CLOSE}`,
        failed: true,
      },
    },
    {
      name: "a process error is a failure",
      text: `${OPEN}Output: (empty)\nError: spawn bash ENOENT${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "(empty)\nError: spawn bash ENOENT",
        tail: CLOSE,
        failed: true,
      },
    },
    {
      name: "without the wrapping (an older layout)",
      text: "Output: a\nb\nProcess Group PGID: 7",
      want: { head: "Output: ", body: "a\nb", tail: "\nProcess Group PGID: 7", failed: false },
    },
    {
      name: "a wrapped result of another tool (a web fetch, an MCP tool)",
      text: `${OPEN}<html>page</html>${CLOSE}`,
      want: { head: OPEN, body: "<html>page</html>", tail: CLOSE, failed: false },
    },
    {
      name: "status words inside the output are output",
      text: `${OPEN}Output: Exit Code: 0 is fine\nProcess Group PGID: 3\nmore${CLOSE}`,
      want: {
        head: `${OPEN}Output: `,
        body: "Exit Code: 0 is fine\nProcess Group PGID: 3\nmore",
        tail: CLOSE,
        failed: false,
      },
    },
    {
      name: "status lines out of Gemini CLI's order are output",
      text: "Output: x\nProcess Group PGID: 3\nExit Code: 1",
      want: {
        head: "Output: ",
        body: "x\nProcess Group PGID: 3",
        tail: "\nExit Code: 1",
        failed: true,
      },
    },
    { name: "plain text", text: "1\n2\n3\n", want: null },
    { name: "an opening tag without its close", text: `${OPEN}Output: x`, want: null },
    { name: "empty", text: "", want: null },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = splitToolOutput(c.text);
      deepStrictEqual(got, c.want);
      if (got) strictEqual(got.head + got.body + got.tail, c.text, "the parts make the text");
    });
  }
});
