import { strictEqual, throws } from "node:assert/strict";
import { wholeNumber } from "./_flags.ts";

Deno.test("wholeNumber() reads digits within range and names the flag otherwise", async (t) => {
  strictEqual(wholeNumber("--limit", "20", 1), 20);
  strictEqual(wholeNumber("--port", "0", 0, 65535), 0);
  for (
    const [text, min, max, message] of [
      ["0", 1, undefined, '--x "0": expected a whole number ≥ 1'],
      ["-1", 0, undefined, '--x "-1": expected a whole number ≥ 0'],
      ["1e3", 0, undefined, '--x "1e3": expected a whole number ≥ 0'],
      [" 5", 0, undefined, '--x " 5": expected a whole number ≥ 0'],
      ["70000", 0, 65535, '--x "70000": expected a whole number from 0 to 65535'],
    ] as const
  ) {
    await t.step(JSON.stringify(text), () => {
      throws(() => wholeNumber("--x", text, min, max), { name: "TypeError", message });
    });
  }
});
