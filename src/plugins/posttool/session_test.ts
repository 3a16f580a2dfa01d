import { ok, strictEqual } from "node:assert/strict";
import { noteRead, noteTurn, readBefore, sessionsDir, turnOf } from "./session.ts";

const perms = { read: true, write: true } as const;

Deno.test({
  name: "readBefore() knows a whole read of the same file with the same content, per session",
  permissions: perms,
  fn() {
    const home = Deno.makeTempDirSync();
    try {
      strictEqual(readBefore(home, "s1", "/p/a.ts", "d1"), false);
      noteRead(home, "s1", "/p/a.ts", "d1");
      strictEqual(readBefore(home, "s1", "/p/a.ts", "d1"), true);
      strictEqual(readBefore(home, "s1", "/p/a.ts", "d2"), false, "changed since: read afresh");
      strictEqual(readBefore(home, "s1", "/p/b.ts", "d1"), false);
      strictEqual(readBefore(home, "s2", "/p/a.ts", "d1"), false, "another session");
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "turnOf() counts the prompts noted, and a torn line does not hide the rest",
  permissions: perms,
  fn() {
    const home = Deno.makeTempDirSync();
    try {
      strictEqual(turnOf(home, "s"), 0);
      noteTurn(home, "s");
      noteTurn(home, "s");
      Deno.writeTextFileSync(`${sessionsDir(home)}/s.jsonl`, '{"turn":tr\n', { append: true });
      noteTurn(home, "s");
      strictEqual(turnOf(home, "s"), 3);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "a session id that is not a plain name still gets a file inside the sessions directory",
  permissions: perms,
  fn() {
    const home = Deno.makeTempDirSync();
    try {
      noteRead(home, "../../etc/passwd", "/p/a.ts", "d");
      strictEqual(readBefore(home, "../../etc/passwd", "/p/a.ts", "d"), true);
      const names = [...Deno.readDirSync(sessionsDir(home))].map((e) => e.name);
      strictEqual(names.length, 1);
      ok(/^[a-z0-9]+\.jsonl$/.test(names[0]), names[0]);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});
