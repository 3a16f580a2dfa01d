import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { RSPEC_DETAILS_SHOWN, rspecFilter, rspecPassthrough } from "./rspec.ts";

function run(raw: string, exitCode = 1) {
  return rspecFilter.filter(raw, { args: [], shaped: false, exitCode });
}

const PENDING = `Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Cart at checkout rounds half up
     # rounding rules are not decided
     Failure/Error: expect(total).to eq(0.76)

       expected: 0.76
            got: 0.75

       (compared using ==)
     # ./spec/checkout/cart_spec.rb:26:in \`block (2 levels) in <top (required)>'

  2) Cart applies coupons
     # Temporarily skipped with xit
     # ./spec/pricing_spec.rb:80
`;

const FAILURES = `Failures:

  1) Cart at checkout applies the discount
     Failure/Error: expect(cart.total(discount: 15)).to eq(3.45)

       expected: 3.45
            got: 3.44

       (compared using ==)
     # ./spec/checkout/cart_spec.rb:8:in \`block (2 levels) in <top (required)>'

  2) Cart at checkout summarizes the lines
     Failure/Error: expect(cart.summary).to eq("apple" => 6, "plum" => 0)

       expected: {"apple"=>6, "plum"=>0}
            got: {"apple"=>6}

       (compared using ==)

       Diff:
       @@ -1,3 +1,2 @@
        "apple" => 6,
       -"plum" => 0,
     # ./spec/checkout/cart_spec.rb:12:in \`block (2 levels) in <top (required)>'

  3) Cart at checkout rejects unknown products
     Failure/Error: @prices.fetch(sku)

     KeyError:
       key not found: "kiwi"
     # ./lib/cart.rb:32:in \`fetch'
     # ./lib/cart.rb:32:in \`price_of'
     # ./lib/cart.rb:11:in \`add'
     # ./lib/cart.rb:5:in \`tap'
     # ./spec/checkout/cart_spec.rb:16:in \`block (2 levels) in <top (required)>'

Finished in 0.01971 seconds (files took 0.07814 seconds to load)
30 examples, 3 failures, 2 pending

Failed examples:

rspec ./spec/checkout/cart_spec.rb:7 # Cart at checkout applies the discount
rspec ./spec/checkout/cart_spec.rb:11 # Cart at checkout summarizes the lines
rspec ./spec/checkout/cart_spec.rb:15 # Cart at checkout rejects unknown products
`;

const WANT = [
  "rspec ./spec/checkout/cart_spec.rb:7 # Cart at checkout applies the discount",
  "  Failure/Error: expect(cart.total(discount: 15)).to eq(3.45)",
  "    expected: 3.45",
  "         got: 3.44",
  "  # ./spec/checkout/cart_spec.rb:8",
  "rspec ./spec/checkout/cart_spec.rb:11 # Cart at checkout summarizes the lines",
  '  Failure/Error: expect(cart.summary).to eq("apple" => 6, "plum" => 0)',
  '    expected: {"apple"=>6, "plum"=>0}',
  '         got: {"apple"=>6}',
  "    Diff:",
  "    @@ -1,3 +1,2 @@",
  '     "apple" => 6,',
  '    -"plum" => 0,',
  "  # ./spec/checkout/cart_spec.rb:12",
  "rspec ./spec/checkout/cart_spec.rb:15 # Cart at checkout rejects unknown products",
  "  Failure/Error: @prices.fetch(sku)",
  "  KeyError:",
  '    key not found: "kiwi"',
  "  # ./lib/cart.rb:32:in `fetch'",
  "  # ./lib/cart.rb:32:in `price_of'",
  "  # ./spec/checkout/cart_spec.rb:16",
  "rspec: 30 examples, 3 failures, 2 pending in 0.01971 seconds",
  "",
];

Deno.test("rspecFilter turns a passing run into its summary line", () => {
  const raw = `Run options: include {:locations=>{"./spec/calc_spec.rb"=>[6]}}
.........*..

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Cart applies coupons
     # Temporarily skipped with xit
     # ./spec/pricing_spec.rb:80

Finished in 0.00426 seconds (files took 0.08167 seconds to load)
12 examples, 0 failures, 1 pending

`;
  const out = run(raw, 0);
  strictEqual(out.text, "rspec: 12 examples, 0 failures, 1 pending in 0.00426 seconds\n");
  deepStrictEqual(out.cut, ["2 progress lines", "3 pending detail lines"]);
});

Deno.test("rspecFilter keeps each failure under its rerun line, with its message and backtrace ends", () => {
  const out = run(`FFF.*....*\n\n${PENDING}\n${FAILURES}`);
  deepStrictEqual(out.text.split("\n"), WANT);
  deepStrictEqual(out.cut, [
    "1 progress line",
    "10 pending detail lines",
    "2 comparison notes",
    "2 backtrace lines",
  ]);
});

Deno.test("rspecFilter reads the documentation format as the progress one", () => {
  const raw = `
Cart at checkout
  applies the discount (FAILED - 1)
  summarizes the lines (FAILED - 2)
  rejects unknown products (FAILED - 3)
  keeps the line order
  rounds half up (PENDING: rounding rules are not decided)

${PENDING}
${FAILURES}`;
  deepStrictEqual(run(raw).text.split("\n"), WANT);
});

Deno.test("rspecFilter keeps an error outside examples and aggregated failures", async (t) => {
  await t.step("a spec file that does not load", () => {
    const raw = `
An error occurred while loading ./spec/broken_spec.rb.
Failure/Error: require "nosuch"

LoadError:
  cannot load such file -- nosuch
# ./spec/broken_spec.rb:1:in \`<top (required)>'


Finished in 0.0001 seconds (files took 0.16169 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples

`;
    deepStrictEqual(run(raw).text.split("\n"), [
      "An error occurred while loading ./spec/broken_spec.rb.",
      '  Failure/Error: require "nosuch"',
      "  LoadError:",
      "    cannot load such file -- nosuch",
      "  # ./spec/broken_spec.rb:1:in `<top (required)>'",
      "rspec: 0 examples, 0 failures, 1 error occurred outside of examples in 0.0001 seconds",
      "",
    ]);
  });
  await t.step(":aggregate_failures", () => {
    const raw = `
Randomized with seed 4242

F

Failures:

  1) Deep aggregates
     Got 2 failures:

     1.1) Failure/Error: expect(1).to eq(2)

            expected: 2
                 got: 1

            (compared using ==)
          # ./spec/deep_spec.rb:10:in \`block (2 levels) in <top (required)>'

     1.2) Failure/Error: expect(3).to eq(4)

            expected: 4
                 got: 3

            (compared using ==)
          # ./spec/deep_spec.rb:11:in \`block (2 levels) in <top (required)>'

Finished in 0.01471 seconds (files took 0.07301 seconds to load)
1 example, 1 failure

Failed examples:

rspec ./spec/deep_spec.rb:9 # Deep aggregates

Randomized with seed 4242

`;
    deepStrictEqual(run(raw).text.split("\n"), [
      "rspec ./spec/deep_spec.rb:9 # Deep aggregates",
      "  Got 2 failures:",
      "  1.1) Failure/Error: expect(1).to eq(2)",
      "         expected: 2",
      "              got: 1",
      "       # ./spec/deep_spec.rb:10",
      "  1.2) Failure/Error: expect(3).to eq(4)",
      "         expected: 4",
      "              got: 3",
      "       # ./spec/deep_spec.rb:11",
      "Randomized with seed 4242",
      "rspec: 1 example, 1 failure in 0.01471 seconds",
      "",
    ]);
  });
});

Deno.test("rspecFilter names every failure past the detail cap by its rerun line", () => {
  const n = RSPEC_DETAILS_SHOWN + 2;
  const entries = Array.from(
    { length: n },
    (_, i) => `  ${i + 1}) T ex${i}\n     Failure/Error: boom\n       oops ${i}\n`,
  );
  const reruns = Array.from({ length: n }, (_, i) => `rspec ./spec/t_spec.rb:${i + 1} # T ex${i}`);
  const raw =
    `Failures:\n\n${entries.join("\n")}\nFinished in 1 second (files took 1 second to load)\n` +
    `${n} examples, ${n} failures\n\nFailed examples:\n\n${reruns.join("\n")}\n`;
  const out = run(raw);
  for (const line of reruns) ok(out.text.includes(line), line);
  ok(out.text.includes(`oops ${RSPEC_DETAILS_SHOWN - 1}`));
  ok(!out.text.includes(`oops ${RSPEC_DETAILS_SHOWN}\n`));
  ok(out.cut.includes("2 failure details"));
});

Deno.test("rspecPassthrough defers to machine formats, help and version", async (t) => {
  const passing = [
    ["--format", "json"],
    ["-f", "j"],
    ["-fj"],
    ["--format=html"],
    ["-f", "failures"],
    ["--help"],
    ["-v"],
    ["--init"],
  ];
  for (const args of passing) await t.step(args.join(" "), () => ok(rspecPassthrough(args)));
  const filtered = [[], ["spec/a_spec.rb:12"], ["--format", "documentation"], ["-fd"], ["-f", "p"]];
  for (const args of filtered) {
    await t.step(`filters ${args.join(" ") || "(no args)"}`, () => {
      strictEqual(rspecPassthrough(args), null);
    });
  }
  strictEqual(rspecFilter.shape, undefined);
});

Deno.test("rspecFilter says a failing run failed and strips colour", () => {
  strictEqual(
    run("Coverage report generated\n", 1).text.split("\n").at(-2),
    "rspec: failed with exit code 1",
  );
  const raw = `FFF.*....*\n\n${PENDING}\n${FAILURES}`;
  deepStrictEqual(run(raw.replace("expected: 3.45", "\x1b[31mexpected: 3.45\x1b[0m")), run(raw));
  deepStrictEqual(run("", 0), { text: "", cut: [] });
});
