import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { discover, discoverText, parseSince, rtokClassifier } from "./discover.ts";
import { FAMILY_TABLE } from "../../filters/families.ts";

Deno.test("parseSince reads days, hours, weeks and dates; refuses the rest", async (t) => {
  const now = new Date("2026-12-04T12:00:00Z");
  const cases: [string, string][] = [
    ["7d", "2026-11-27T12:00:00.000Z"],
    ["24h", "2026-12-03T12:00:00.000Z"],
    ["2w", "2026-11-20T12:00:00.000Z"],
    ["2026-12-01", "2026-12-01T00:00:00.000Z"],
    ["2026-12-01T08:30:00Z", "2026-12-01T08:30:00.000Z"],
  ];
  for (const [text, iso] of cases) {
    await t.step(text, () => strictEqual(parseSince(text, now).toISOString(), iso));
  }
  for (const bad of ["", "7", "7 days", "yesterday", "2026-13-45"]) {
    await t.step(`refuses "${bad}"`, () => throws(() => parseSince(bad, now), TypeError));
  }
});

Deno.test("rtokClassifier names each command's family through rtok's rewrite rules", async (t) => {
  const c = rtokClassifier();
  const cases: { line: string; family: string; filter: string | null; rtok: boolean }[] = [
    { line: "git log", family: "git log", filter: "git log", rtok: false },
    { line: "cd src && git log -5", family: "git log", filter: "git log", rtok: false },
    { line: "git log | head -3", family: "git log", filter: null, rtok: false },
    { line: "FOO=1 npm test", family: "npm test", filter: "npm test", rtok: false },
    { line: "rtok git log", family: "git log", filter: null, rtok: true },
    { line: "python3 build.py", family: "python3", filter: null, rtok: false },
    { line: "echo $(date)", family: "echo", filter: null, rtok: false },
    { line: "sudo ls", family: "sudo", filter: null, rtok: false },
  ];
  for (const k of cases) {
    await t.step(k.line, () => {
      deepStrictEqual(c.command(k.line), {
        family: k.family,
        filterFamily: k.filter,
        runsRtok: k.rtok,
      });
    });
  }
  await t.step("rtok's hooks, by command and by URL", () => {
    strictEqual(c.isRtokHook("rtok hook claude"), true);
    strictEqual(c.isRtokHook("/opt/bin/rtok hook claude"), true);
    strictEqual(c.isRtokHook("http://127.0.0.1:4711/hook/claude"), true);
    strictEqual(c.isRtokHook("other-tool hook claude"), false);
    strictEqual(c.isRtokHook("https://example.com/hook/claude"), false);
  });
  await t.step("savings are the family table's", () => {
    strictEqual(c.saving("git log"), FAMILY_TABLE["git log"].saving);
    strictEqual(c.saving("no such family"), null);
  });
});

Deno.test("discover reads projects, skips what it cannot read, prints no content", async (t) => {
  const root = Deno.makeTempDirSync({ prefix: "rtok-discover-" });
  try {
    const secret = "SECRET-OUTPUT-LINE";
    const line = (o: unknown) => JSON.stringify(o) + "\n";
    const session = (cwd: string, id: string, at: string) =>
      line({
        type: "assistant",
        cwd,
        sessionId: id,
        timestamp: at,
        message: {
          content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "git log" } }],
        },
      }) +
      line({
        type: "user",
        cwd,
        timestamp: at,
        message: { content: [{ type: "tool_result", tool_use_id: "t1", content: secret }] },
      }) + "not json\n";
    Deno.mkdirSync(`${root}/-a`);
    Deno.mkdirSync(`${root}/-b`);
    Deno.writeTextFileSync(`${root}/-a/s1.jsonl`, session("/a", "s1", "2026-12-01T00:00:00Z"));
    Deno.writeTextFileSync(`${root}/-a/s2.jsonl`, session("/a/sub", "s2", "2026-12-03T00:00:00Z"));
    Deno.writeTextFileSync(`${root}/-b/s3.jsonl`, session("/b", "s3", "2026-12-03T00:00:00Z"));
    Deno.writeTextFileSync(`${root}/-b/notes.jsonl`, line({ v: 1 }));
    const cases: {
      name: string;
      roots: string[];
      since: string | null;
      project: string | null;
      sessions: number;
      projects: string[];
    }[] = [
      {
        name: "everything",
        roots: [root],
        since: null,
        project: null,
        sessions: 3,
        projects: ["/a", "/a/sub", "/b"],
      },
      {
        name: "--project and below",
        roots: [root],
        since: null,
        project: "/a",
        sessions: 2,
        projects: ["/a", "/a/sub"],
      },
      {
        name: "--since",
        roots: [root],
        since: "2026-12-02",
        project: null,
        sessions: 2,
        projects: ["/a/sub", "/b"],
      },
      {
        name: "one file",
        roots: [`${root}/-b/s3.jsonl`],
        since: null,
        project: null,
        sessions: 1,
        projects: ["/b"],
      },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        const r = await discover(c.roots, {
          since: c.since ? new Date(c.since) : null,
          project: c.project,
        });
        strictEqual(r.totals.sessions, c.sessions);
        deepStrictEqual(r.projects.map((p) => p.project).sort(), c.projects);
        strictEqual(r.totals.wouldFilter.calls, c.sessions);
        strictEqual(r.totals.notThrough.chars, c.sessions * secret.length);
        ok(!discoverText(r).includes(secret));
        ok(!JSON.stringify(r).includes(secret));
      });
    }
    await t.step("bad lines, unknown files and missing paths counted", async () => {
      const r = await discover([root, `${root}/gone`, `${root}/-a/gone.jsonl`], {
        since: null,
        project: null,
      });
      deepStrictEqual(r.skipped, {
        badLines: 3,
        unknownLines: 1,
        unknownTranscripts: 1,
        missingPaths: 2,
        unreadable: 0,
      });
      ok(discoverText(r).includes("Skipped: 3 lines not JSON, 1 line of an unknown shape"));
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("discover() counts a session once with its subagents' files, and what a replay would cut", async () => {
  const data = new URL("../replay/testdata/", import.meta.url).pathname;
  // A stand-in hook that halves every Read of over 500 chars.
  const halve = (event: Record<string, unknown>) => {
    if (event.tool_name !== "Read") return Promise.resolve({});
    if ((event.tool_response as { file: { content: string } }).file.content.length < 500) {
      return Promise.resolve({});
    }
    const r = event.tool_response as { file: { content: string } };
    const content = r.file.content.slice(0, r.file.content.length / 2);
    return Promise.resolve({ output: { ...r, file: { ...r.file, content } }, family: "Read" });
  };
  const r = await discover([data], { since: null, project: null }, rtokClassifier(), halve);
  strictEqual(r.totals.sessions, 3);
  strictEqual(r.files, 5);
  const withAgents = r.projects[0].sessions.filter((s) => s.files.length === 2);
  deepStrictEqual(withAgents.map((s) => s.session).sort(), [
    "22222222-2222-4222-8222-222222222222",
    "33333333-3333-4333-8333-333333333333",
  ]);
  // Both long Reads are missed, each by about half its chars, from the replay; no Bash call is.
  deepStrictEqual(r.totals.commands.map((c) => [c.command, c.family, c.calls]), [
    ["Read /home/dev/shop/src/ledger.ts", "Read", 2],
  ]);
  const read = r.totals.commands[0];
  ok(read.missedChars > read.chars * 0.4 && read.missedChars < read.chars * 0.6);
});
