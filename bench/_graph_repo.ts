/**
 * A generated repository for the `graph` plugin's bench and budget: 2,000 files of
 * TypeScript, Python and Go, about 40 lines each, each file using a name the next one defines.
 * Deterministic: the same files every run.
 *
 * @module
 */

/** The TypeScript, Python or Go text of generated file `i` (all three by `i % 3`). */
export function generatedFile(i: number, edit = 0): { path: string; text: string } {
  const dir = `pkg${Math.floor(i / 100)}`;
  const next = (i + 1) % 2000;
  if (i % 3 === 0) {
    const lines = [
      `import { helper${next} } from "../pkg${Math.floor(next / 100)}/m${next}.ts";`,
      "",
      `export const LIMIT_${i} = ${i + edit};`,
      "",
      `export interface Model${i} {`,
      "  id: string;",
      "  load(id: string): Promise<number>;",
      "}",
      "",
      `export class Service${i} implements Model${i} {`,
      `  id = "s${i}";`,
      "",
      "  async load(id: string): Promise<number> {",
      `    return id.length + LIMIT_${i} + helper${next}(${i});`,
      "  }",
      "",
      "  size(): number {",
      "    return this.id.length;",
      "  }",
      "}",
      "",
      `export function helper${i}(x: number): number {`,
      "  const values = [x, x * 2].map((v) => v + 1);",
      "  return values.reduce((a, c) => a + c, 0);",
      "}",
      "",
      `export type Alias${i} = Model${i} | null;`,
    ];
    return { path: `${dir}/m${i}.ts`, text: lines.join("\n") + "\n" };
  }
  if (i % 3 === 1) {
    const lines = [
      "import os",
      "",
      `MAX_${i} = ${i + edit}`,
      "",
      "",
      `class Worker${i}:`,
      "    def __init__(self, root):",
      "        self.root = root",
      "",
      "    def run(self):",
      `        return [e for e in os.listdir(self.root)][:MAX_${i}]`,
      "",
      "",
      `def helper${i}(x):`,
      `    return Worker${i}(x).run()`,
    ];
    return { path: `${dir}/w${i}.py`, text: lines.join("\n") + "\n" };
  }
  const lines = [
    `package pkg${Math.floor(i / 100)}`,
    "",
    `const Max${i} = ${i + edit}`,
    "",
    `type Store${i} struct {`,
    "\tname string",
    "\trows []string",
    "}",
    "",
    `func NewStore${i}(name string) *Store${i} {`,
    `\treturn &Store${i}{name: name}`,
    "}",
    "",
    `func (s *Store${i}) Put(row string) int {`,
    "\ts.rows = append(s.rows, row)",
    `\treturn len(s.rows) + Max${i}`,
    "}",
  ];
  return { path: `${dir}/s${i}.go`, text: lines.join("\n") + "\n" };
}

/** Writes the generated repository of `files` files into `root` (a git repository). */
export function generateRepo(root: string, files = 2000): void {
  for (let i = 0; i < files; i++) {
    const f = generatedFile(i);
    Deno.mkdirSync(`${root}/${f.path.slice(0, f.path.lastIndexOf("/"))}`, { recursive: true });
    Deno.writeTextFileSync(`${root}/${f.path}`, f.text);
  }
  Deno.writeTextFileSync(`${root}/.gitignore`, "/.rtok-home/\n");
  const git = (...args: string[]) => {
    const out = new Deno.Command("git", { args: ["-C", root, ...args], stdout: "null" })
      .outputSync();
    if (!out.success) throw new Error(`git ${args.join(" ")} failed`);
  };
  git("init", "-q");
  git("add", "-A");
}
