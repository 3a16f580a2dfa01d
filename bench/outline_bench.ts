/**
 * `deno bench`: the outline of a generated 2,000-line TypeScript file, warm (the grammar loaded
 * before the first timed call), and the cold first call per language, each in a fresh Deno
 * process, against the same process outlining a Ruby file (no grammar, no runtime) as the
 * baseline: the difference is the runtime's import and start plus the grammar's load.
 *
 * @module
 */

import { outlineOf } from "../src/content/outline/outline.ts";

/**
 * A TypeScript file of exactly `blocks` × 50 lines: per block an interface, a decorated class
 * with a constructor, methods and a getter, a function with a nested one, an arrow-function
 * `const` and a type alias.
 */
export function typeScriptFile(blocks = 40): string {
  const out: string[] = [];
  for (let b = 0; b < blocks; b++) {
    out.push(
      `/** Model ${b}. */`,
      `export interface Model${b}<T> {`,
      `  id: string;`,
      `  load(id: string): Promise<T>;`,
      `}`,
      ``,
      `@Injectable()`,
      `export class Service${b}<T> implements Model${b}<T> {`,
      `  id = "s${b}";`,
      `  private readonly cache = new Map<string, T>();`,
      ``,
      `  constructor(private readonly repo: Map<string, T>) {}`,
      ``,
      `  @Log()`,
      `  async load(id: string): Promise<T> {`,
      `    const hit = this.cache.get(id) ?? this.repo.get(id);`,
      `    if (!hit) throw new Error(\`missing \${id}\`);`,
      `    this.cache.set(id, hit);`,
      `    return hit;`,
      `  }`,
      ``,
      `  get size(): number {`,
      `    return this.repo.size + this.cache.size;`,
      `  }`,
      ``,
      `  each(fn: (v: T, k: string) => void): void {`,
      `    for (const [k, v] of this.repo.entries()) {`,
      `      fn(v, k);`,
      `    }`,
      `  }`,
      `}`,
      ``,
      `export function helper${b}(x: number, y = ${b}): number {`,
      `  function inner(z: number): number {`,
      `    return z * y;`,
      `  }`,
      `  const values = [x, y].map((v) => inner(v));`,
      `  return values.reduce((a, c) => a + c, 0);`,
      `}`,
      ``,
      `export const arrow${b} = async (n: number): Promise<number> => {`,
      `  const r = await Promise.resolve(n + ${b});`,
      `  return r * 2;`,
      `};`,
      ``,
      `type Alias${b} = Model${b}<string> | null;`,
      `export const table${b}: Record<string, Alias${b}> = {};`,
      `// ${"-".repeat(60)}`,
      `// end of block ${b}`,
      ``,
    );
  }
  return out.join("\n") + "\n";
}

const TEXT = typeScriptFile();
let ready: Promise<unknown> | undefined;

Deno.bench({
  name: `outlineOf, ${TEXT.split("\n").length - 1}-line TypeScript, warm`,
  group: "outline warm",
  async fn(b) {
    await (ready ??= outlineOf("big.ts", TEXT));
    b.start();
    await outlineOf("big.ts", TEXT);
    b.end();
  },
});

// One small file per language; the child process times nothing itself: the bench times it.
const SAMPLES: readonly [string, string][] = [
  ["cold.rb", "class A\n  def f\n  end\nend\n"],
  ["cold.ts", "export class A {\n  f(): void {}\n}\n"],
  ["cold.tsx", "export const A = () => <div />;\n"],
  ["cold.js", "export function f() {}\n"],
  ["cold.py", "class A:\n    def f(self):\n        pass\n"],
  ["cold.go", "package a\n\nfunc F() {}\n"],
  ["cold.rs", "fn f() {}\n"],
  ["cold.java", "class A { void f() {} }\n"],
];
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const OUTLINE = new URL("../src/content/outline/outline.ts", import.meta.url).href;

function coldRun(path: string, text: string): void {
  const code = `const { outlineOf } = await import(${JSON.stringify(OUTLINE)});\n` +
    `const o = await outlineOf(${JSON.stringify(path)}, ${JSON.stringify(text)});\n` +
    `if (o.symbols.length === 0) Deno.exit(3);`;
  const out = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", CONFIG, code],
    stdout: "null",
    stderr: "null",
  }).outputSync();
  if (out.code !== 0) throw new Error(`the cold outline of ${path} exited ${out.code}`);
}

for (const [path, text] of SAMPLES) {
  Deno.bench({
    name: `first outlineOf in a fresh process, ${path}`,
    group: "outline cold",
    baseline: path.endsWith(".rb"),
    n: 10,
    warmup: 1,
    fn: () => coldRun(path, text),
  });
}
