import { deepStrictEqual, ok } from "node:assert/strict";
import { installHooks } from "../../claude/hooks_config.ts";
import { HOSTS } from "../hosts.ts";
import { claudeDoctor } from "./doctor.ts";

function _home(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "rtok-claude-doctor-" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

const _doctor = (version: string | null) =>
  claudeDoctor({ version: () => Promise.resolve(version) });

Deno.test("claudeDoctor reports each settings file, the rivals and the version, installed or not", async () => {
  using home = _home();
  const project = `${home.path}/project`;
  Deno.mkdirSync(`${project}/.claude`, { recursive: true });
  const opts = { rtok: "rtok", env: { HOME: home.path }, cwd: project };
  const none = await _doctor(null).check({ ...opts, host: HOSTS.claude });
  deepStrictEqual(none.map((c) => [c.label, c.status]), [
    ["user settings", "ok"],
    ["project settings", "ok"],
    ["local settings", "ok"],
    ["rivals", "ok"],
    ["claude version", "warn"],
  ]);
  ok(none[0].detail.endsWith(": absent"), none[0].detail);
  Deno.mkdirSync(`${home.path}/.claude`);
  const settings = installHooks({}, "rtok hook claude").settings;
  Deno.writeTextFileSync(`${home.path}/.claude/settings.json`, JSON.stringify(settings));
  const installed = await _doctor(HOSTS.claude.verifiedVersion).check({
    ...opts,
    host: HOSTS.claude,
  });
  deepStrictEqual(installed.map((c) => [c.label, c.status]).slice(0, 1), [["user settings", "ok"]]);
  ok(installed[0].detail.includes("rtok hooks on PreToolUse"), installed[0].detail);
  deepStrictEqual(installed.at(-1)?.status, "ok");
  const newer = await _doctor("9.9.9").check({ ...opts, host: HOSTS.claude });
  ok(newer.at(-1)?.detail.includes(HOSTS.claude.verifiedVersion), newer.at(-1)?.detail);
});

Deno.test("claudeDoctor says FAIL for a settings file it cannot parse", async () => {
  using home = _home();
  Deno.mkdirSync(`${home.path}/.claude`);
  Deno.writeTextFileSync(`${home.path}/.claude/settings.json`, "{ nope");
  const checks = await _doctor(null).check({
    host: HOSTS.claude,
    rtok: "rtok",
    env: { HOME: home.path },
    cwd: home.path,
  });
  deepStrictEqual(checks[0].label, "user settings");
  deepStrictEqual(checks[0].status, "FAIL");
});
