import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { DEFAULT_CONFIG, loadConfig } from "./config.ts";
import { parseConfig } from "./config_parse.ts";

Deno.test("parseConfig() overlays the keys it is given on the defaults", async () => {
  const config = await parseConfig(
    "[archive]\nmax_total_mb = 64\n\n[plugins.archive]\nenabled = false\n",
    "c.toml",
  );
  strictEqual(config.archive.maxTotalMb, 64);
  strictEqual(config.archive.maxAgeDays, DEFAULT_CONFIG.archive.maxAgeDays);
  strictEqual(config.cmd.filterTimeoutMs, 2000);
  strictEqual(
    (await parseConfig("[cmd]\nfilter_timeout_ms = 250\n", "c.toml")).cmd.filterTimeoutMs,
    250,
  );
  deepStrictEqual(config.plugins, { archive: { enabled: false } });
});

Deno.test("parseConfig() names the file, line, key and what was expected", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "wrong type",
      '[ledger]\nretention_days = 90\n\n[archive]\nmax_total_mb = "big"\n',
      /^Cannot read config "c.toml": line 5: \[archive\] max_total_mb: expected a number ≥ 0, got "big"$/,
    ],
    [
      "unknown key",
      "[archive]\nmax_size = 3\n",
      /^Cannot read config "c.toml": line 2: \[archive\] max_size: unknown key; expected one of max_age_days, max_total_mb$/,
    ],
    [
      "unknown table",
      "[archve]\nmax_total_mb = 3\n",
      /^Cannot read config "c.toml": line 1: \[archve\]: unknown table; expected one of archive, ledger, cmd, plugins$/,
    ],
    [
      "bad TOML",
      "[archive]\nmax_total_mb = \n",
      /^Cannot read config "c.toml": line 2: /,
    ],
    [
      "plugin enabled not a boolean",
      '[plugins.cmd]\nenabled = "yes"\n',
      /^Cannot read config "c.toml": line 2: \[plugins\] cmd.enabled: expected true or false, got "yes"$/,
    ],
    [
      "below the minimum",
      "[ledger]\nretention_days = 0\n",
      /^Cannot read config "c.toml": line 2: \[ledger\] retention_days: expected a number ≥ 1, got 0$/,
    ],
    [
      "a filter time limit of zero",
      "[cmd]\nfilter_timeout_ms = 0\n",
      /^Cannot read config "c.toml": line 2: \[cmd\] filter_timeout_ms: expected a number ≥ 1, got 0$/,
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, async () => {
      await rejects(parseConfig(text, "c.toml"), { message });
    });
  }
});

Deno.test({
  name: "loadConfig() gives the defaults when the file does not exist",
  permissions: { read: true },
  async fn() {
    deepStrictEqual(await loadConfig("/nonexistent/rtok-home"), DEFAULT_CONFIG);
  },
});
