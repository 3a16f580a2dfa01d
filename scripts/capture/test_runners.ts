/**
 * Captures the golden fixtures of the `pytest`, `cargo test`, `go test`, `rspec` and `phpunit`
 * filters from the real runners. It generates deterministic projects of a realistic size in a
 * fixed directory under /tmp (so the paths the runners print are the same on every capture):
 * per runner a passing project or directory (files of generated passing tests, a skipped one)
 * and a failing one (an equality mismatch, a structure diff, an exception raised a few frames
 * deep, an error in setup, a skipped and an expected-to-fail test; per runner its own kinds
 * too: a `should_panic` test, an ignored test and a failing doc test for cargo, subtests, a
 * failing example, a panic and a package that does not build for go, pending examples for
 * rspec, risky and incomplete tests for phpunit). The failing projects keep a realistic share
 * of passing tests (a few failures among some 60 to 900 tests, 28 go packages), since what a
 * filter cuts from a failing run is mostly the passing part. Each runs as typed plain and with
 * the runner's common flags (`pytest -q`/`-v`, `cargo test -q`/`-v`, `go test -v`,
 * `rspec --format documentation`, `phpunit --testdox`).
 *
 * The runners are the ones on this machine (pytest for the `python3` on the PATH; cargo, go,
 * rspec and phpunit from the PATH: `apt-get install -y golang-go ruby-rspec phpunit`). The facts
 * come from each runner's own machine report, run separately on the same project: pytest's and
 * phpunit's JUnit XML, libtest's JSON events (`-Z unstable-options --format json`, enabled with
 * `RUSTC_BOOTSTRAP=1`), `go test -json`, rspec's JSON formatter; never from rtok's output.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env scripts/capture/test_runners.ts`
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandFilter } from "../../src/core/filter.ts";
import { splitArgv } from "../../src/core/command.ts";
import { cargoTestFilter } from "../../filters/cargo_tests.ts";
import { goTestFilter } from "../../filters/go_tests.ts";
import { phpunitFilter } from "../../filters/phpunit.ts";
import { pytestFilter } from "../../filters/pytest.ts";
import { rspecFilter } from "../../filters/rspec.ts";

const FIXTURES = fileURLToPath(new URL("../../tests/fixtures/", import.meta.url));
/** Every generated project lives here, rebuilt on each capture. */
const ROOT = "/tmp/rtok-capture-test-runners";

// ---------------------------------------------------------------------------------------------
// Running the tools

/** What a run printed. */
interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

// A clean environment: no colour, no backtraces, a fixed width, offline cargo, uncached go.
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    TERM: "dumb",
    COLUMNS: "80",
    NO_COLOR: "1",
    RUST_BACKTRACE: "0",
    CARGO_NET_OFFLINE: "true",
    CARGO_TERM_COLOR: "never",
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONHASHSEED: "0",
    GOPATH: join(ROOT, "gopath"),
    GOCACHE: join(ROOT, "gocache"),
    GOFLAGS: "-count=1",
    GOTOOLCHAIN: "local",
    GOPROXY: "off",
  };
  for (const name of ["PYENV_ROOT", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return env;
}

async function run(
  cmd: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    clearEnv: true,
    env: { ...baseEnv(), ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { stdout: decode(out.stdout), stderr: decode(out.stderr), code: out.code };
}

async function writeFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
}

/** `a`, `b` as `tag="a" …` attributes of an XML start tag. */
function xmlAttrs(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[m[1]] = unescapeXml(m[2]);
  return attrs;
}

function unescapeXml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** One `<testcase>` of a JUnit report: its attributes and its failure, error or skip. */
interface JunitCase {
  readonly attrs: Record<string, string>;
  readonly outcome: "failure" | "error" | "skipped" | "pass";
  readonly outcomeAttrs: Record<string, string>;
  readonly text: string;
}

function junitCases(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const m of xml.matchAll(re)) {
    const body = m[3] ?? "";
    const child = /<(failure|error|skipped)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    cases.push({
      attrs: xmlAttrs(m[1]),
      outcome: child ? child[1] as JunitCase["outcome"] : "pass",
      outcomeAttrs: child ? xmlAttrs(child[2]) : {},
      text: child ? unescapeXml(child[3] ?? "") : "",
    });
  }
  return cases;
}

const nonEmpty = (text: string): string[] =>
  text.split("\n").map((line) => line.trimEnd()).filter((line) => line.trim() !== "");

// ---------------------------------------------------------------------------------------------
// The cases

/** One fixture: the command as typed, where it runs, and how its facts are derived. */
interface Case {
  readonly name: string;
  readonly filter: CommandFilter;
  readonly typed: readonly string[];
  readonly cwd: string;
  readonly factsSource: string;
  facts(ran: readonly string[]): Promise<string[]>;
}

async function capture(test: Case): Promise<void> {
  const { prefix, args } = splitArgv(test.typed);
  const shapedArgs = test.filter.shape?.(args) ?? null;
  const ran = shapedArgs ? [...prefix, ...shapedArgs] : [...test.typed];
  const typedRun = await run(test.typed, test.cwd);
  const shapedRun = shapedArgs ? await run(ran, test.cwd) : typedRun;
  const facts = await test.facts(ran);
  if (facts.length === 0) throw new Error(`${test.name}: no facts`);
  const dir = join(FIXTURES, test.name);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "raw.out"), typedRun.stdout);
  await Deno.writeTextFile(join(dir, "shaped.out"), shapedRun.stdout);
  const meta = {
    filter: test.filter.name,
    kind: "test",
    typed: test.typed,
    ran,
    exitCode: shapedRun.code,
    facts,
    factsSource: test.factsSource,
  };
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  console.log(
    `${test.name}: exit ${shapedRun.code}, ${typedRun.stdout.length} chars, ${facts.length} facts`,
  );
}

// ---------------------------------------------------------------------------------------------
// pytest

const PY_PRICING = `"""Prices, discounts and taxes."""
import warnings
from decimal import ROUND_HALF_UP, Decimal

TAX_RATES = {"standard": Decimal("0.20"), "reduced": Decimal("0.05"), "zero": Decimal("0")}


def round_money(value):
    return Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def apply_discount(price, percent):
    if not 0 <= percent <= 100:
        raise ValueError(f"discount out of range: {percent}")
    return round_money(Decimal(price) * (100 - Decimal(percent)) / 100)


def with_tax(price, rate="standard"):
    return round_money(Decimal(price) * (1 + TAX_RATES[rate]))


def order_total(items, discount=0):
    subtotal = sum((Decimal(price) * qty for price, qty in items), Decimal(0))
    return apply_discount(subtotal, discount)


def legacy_total(items):
    warnings.warn("legacy_total() is deprecated, use order_total()", DeprecationWarning, stacklevel=2)
    return order_total(items)


def line_items(items):
    return {name: round_money(Decimal(price) * qty) for name, price, qty in items}
`;

const PY_INVENTORY = `"""Stock levels."""


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self, stock=None):
        self._stock = dict(stock or {})

    def count(self, sku):
        return self._stock.get(sku, 0)

    def add(self, sku, qty):
        self._stock[sku] = self.count(sku) + qty

    def remove(self, sku, qty):
        have = self._stock[sku]
        if have < qty:
            raise OutOfStock(f"{sku}: have {have}, need {qty}")
        self._stock[sku] = have - qty

    def reserve(self, order):
        for sku, qty in order.items():
            self.remove(sku, qty)
`;

const PY_TEXT = `"""Text helpers."""
import re


def slugify(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def truncate(text, width):
    return text if len(text) <= width else text[: width - 1] + "…"
`;

function pyUnitFiles(): Record<string, string> {
  const rounding = Array.from({ length: 12 }, (_, i) => {
    const cents = 100 + 37 * i;
    return `    ("${(cents / 100).toFixed(2)}1", "${(cents / 100).toFixed(2)}"),`;
  });
  const discounts = Array.from(
    { length: 10 },
    (_, i) =>
      `    ("${20 * (i + 1)}.00", ${5 * i}, "${
        ((20 * (i + 1) * (100 - 5 * i)) / 100).toFixed(2)
      }"),`,
  );
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
  const slugs = words.map((word, i) =>
    `def test_slugify_${word}():\n    assert slugify("${word.toUpperCase()} Item ${i}") == "${word}-item-${i}"\n`
  );
  const truncations = words.map((word, i) =>
    `def test_truncate_${word}():\n    assert truncate("${word}" * 3, ${5 + i % 3}) == "${
      (word.repeat(3)).slice(0, 4 + i % 3)
    }…"\n`
  );
  const stock = Array.from(
    { length: 10 },
    (_, i) =>
      `def test_add_then_count_${i}():\n    inventory = Inventory({"sku-${i}": ${i}})\n    inventory.add("sku-${i}", ${
        i + 1
      })\n    assert inventory.count("sku-${i}") == ${2 * i + 1}\n`,
  );
  return {
    "tests/unit/test_pricing.py": `import pytest
from decimal import Decimal

from shop.pricing import apply_discount, round_money, with_tax


@pytest.mark.parametrize("value, expected", [
${rounding.join("\n")}
])
def test_round_money(value, expected):
    assert round_money(value) == Decimal(expected)


@pytest.mark.parametrize("price, percent, expected", [
${discounts.join("\n")}
])
def test_apply_discount(price, percent, expected):
    assert apply_discount(price, percent) == Decimal(expected)


@pytest.mark.parametrize("rate, expected", [("standard", "12.00"), ("reduced", "10.50"), ("zero", "10.00")])
def test_with_tax(rate, expected):
    assert with_tax("10.00", rate) == Decimal(expected)


def test_discount_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        apply_discount("10.00", 120)


@pytest.mark.skip(reason="needs the currency tables")
def test_foreign_currency():
    pass
`,
    "tests/unit/test_text.py": `from shop.text import slugify, truncate


${slugs.join("\n\n")}

${truncations.join("\n\n")}`,
    "tests/unit/test_inventory.py": `from shop.inventory import Inventory


${stock.join("\n\n")}`,
  };
}

const PY_ORDERS = `from decimal import Decimal

import pytest

from shop.inventory import Inventory, OutOfStock
from shop.pricing import legacy_total, line_items, order_total


@pytest.fixture
def inventory():
    return Inventory({"apple": 10, "pear": 4, "plum": 0})


@pytest.fixture
def payment_gateway():
    raise ConnectionError("payment gateway unreachable: sandbox.example.test:443")


class TestOrderTotals:
    def test_total_without_discount(self):
        assert order_total([("1.50", 2), ("2.25", 4)]) == Decimal("12.00")

    def test_total_with_discount(self):
        items = [("19.99", 3), ("5.00", 2)]
        total = order_total(items, discount=15)
        # 15 % off 69.97
        assert total == Decimal("59.48")

    def test_line_items(self):
        items = [("apple", "0.40", 6), ("pear", "0.55", 3), ("plum", "0.30", 10)]
        assert line_items(items) == {
            "apple": Decimal("2.40"),
            "pear": Decimal("1.65"),
            "plum": Decimal("3.30"),
        }

    def test_legacy_total(self):
        assert legacy_total([("2.00", 2)]) == Decimal("4.00")


class TestReservations:
    def test_reserve_in_stock(self, inventory):
        inventory.reserve({"apple": 2, "pear": 1})
        assert inventory.count("apple") == 8

    def test_reserve_unknown_sku(self, inventory):
        order = {"apple": 2, "kiwi": 1}
        inventory.reserve(order)
        assert inventory.count("kiwi") == 0

    def test_reserve_more_than_stock(self, inventory):
        with pytest.raises(OutOfStock):
            inventory.reserve({"pear": 5})


def test_checkout(payment_gateway, inventory):
    assert payment_gateway.charge(inventory, Decimal("10.00"))


def test_receipt_lines():
    lines = [f"{name:<8}{qty:>3}" for name, qty in [("apple", 2), ("pear", 1)]]
    for line in lines:
        print(line)
    assert lines == ["apple   2", "pear    1"]


@pytest.mark.xfail(reason="negative totals are not decided yet")
def test_negative_total():
    assert order_total([("-1.00", 1)]) > 0


@pytest.mark.skip(reason="refunds are not implemented")
def test_refund():
    pass
`;

function pytestFiles(): Record<string, string> {
  return {
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "shop/__init__.py": "",
    "shop/pricing.py": PY_PRICING,
    "shop/inventory.py": PY_INVENTORY,
    "shop/text.py": PY_TEXT,
    "tests/__init__.py": "",
    "tests/unit/__init__.py": "",
    "tests/integration/__init__.py": "",
    ...pyUnitFiles(),
    "tests/integration/test_orders.py": PY_ORDERS,
  };
}

/** `tests.integration.test_orders.TestX` + file `tests/integration/test_orders.py` → node id. */
function pytestNodeId(c: JunitCase): string {
  const file = c.attrs.file ?? "";
  const module = file.replace(/\.py$/, "").replaceAll("/", ".");
  const cls = c.attrs.classname.startsWith(`${module}.`)
    ? c.attrs.classname.slice(module.length + 1)
    : "";
  return [file, ...(cls ? cls.split(".") : []), c.attrs.name].join("::");
}

/**
 * Facts of a pytest run, from its JUnit report (xunit1, which names each test's file): the
 * counts, and for each failure and error its node id, its first `E` line and its last
 * traceback location.
 */
function pytestCase(name: string, typed: string[], cwd: string): Case {
  return {
    name,
    filter: pytestFilter,
    typed,
    cwd,
    factsSource: `${typed.join(" ")} -o junit_family=xunit1 --junitxml=report.xml`,
    async facts() {
      const report = join(ROOT, "pytest-report.xml");
      await run([...typed, "-o", "junit_family=xunit1", `--junitxml=${report}`], cwd);
      const xml = await Deno.readTextFile(report);
      const cases = junitCases(xml);
      const count = (outcome: string, type?: string) =>
        cases.filter((c) =>
          c.outcome === outcome && (type === undefined || c.outcomeAttrs.type === type)
        ).length;
      const facts: string[] = [];
      const failed = count("failure");
      const errors = count("error");
      if (failed) facts.push(`${failed} failed`);
      facts.push(`${count("pass")} passed`);
      if (count("skipped", "pytest.skip")) facts.push(`${count("skipped", "pytest.skip")} skipped`);
      if (count("skipped", "pytest.xfail")) {
        facts.push(`${count("skipped", "pytest.xfail")} xfailed`);
      }
      if (errors) facts.push(`${errors} error${errors === 1 ? "" : "s"}`);
      for (const c of cases) {
        if (c.outcome !== "failure" && c.outcome !== "error") continue;
        facts.push(pytestNodeId(c));
        const lines = nonEmpty(c.text);
        const e = lines.find((line) => line.startsWith("E "));
        if (e) facts.push(e.replace(/^E\s+/, ""));
        const location = lines.findLast((line) => /^\S+:\d+: \w+/.test(line));
        if (location) facts.push(location);
      }
      return facts;
    },
  };
}

function pytestCollectCase(cwd: string): Case {
  return {
    name: "pytest_collect_error",
    filter: pytestFilter,
    typed: ["pytest"],
    cwd,
    factsSource: "pytest --junitxml=report.xml (the collection error's testcase)",
    async facts() {
      const report = join(ROOT, "pytest-collect.xml");
      await run(["pytest", `--junitxml=${report}`], cwd);
      const cases = junitCases(await Deno.readTextFile(report));
      const facts: string[] = [];
      for (const c of cases.filter((c) => c.outcome === "error")) {
        const lines = nonEmpty(c.text);
        facts.push(
          ...lines.filter((line) => line.startsWith("E ")).map((line) => line.replace(/^E\s+/, "")),
        );
        const location = lines.findLast((line) => /^\S+:\d+: in /.test(line));
        if (location) facts.push(location);
      }
      facts.push(`${cases.filter((c) => c.outcome === "error").length} error`);
      return facts;
    },
  };
}

async function pytestCases(): Promise<Case[]> {
  const dir = join(ROOT, "pytest");
  await writeFiles(dir, pytestFiles());
  const broken = join(ROOT, "pytest-broken");
  await writeFiles(broken, {
    "shop/__init__.py": "",
    "shop/pricing.py": PY_PRICING,
    "tests/__init__.py": "",
    "tests/test_legacy.py":
      "from shop.legacy_prices import PRICE_LIST\n\n\ndef test_price_list():\n    assert PRICE_LIST\n",
    "tests/test_pricing.py":
      "from shop.pricing import round_money\n\n\ndef test_round():\n    assert round_money('1.005') == round_money('1.01')\n",
  });
  return [
    pytestCase("pytest_pass", ["pytest", "tests/unit"], dir),
    pytestCase("pytest_q_pass", ["pytest", "-q", "tests/unit"], dir),
    pytestCase("pytest_fail", ["pytest"], dir),
    pytestCase("pytest_q_fail", ["pytest", "-q"], dir),
    pytestCase("pytest_v_fail", ["pytest", "-v"], dir),
    pytestCollectCase(broken),
  ];
}

// ---------------------------------------------------------------------------------------------
// cargo test

function cargoFiles(failing: boolean): Record<string, string> {
  const cents = Array.from(
    { length: 60 },
    (_, i) =>
      `    #[test]\n    fn cents_of_${i}() {\n        assert_eq!(cents(${i}), ${i * 100});\n    }`,
  );
  const parses = Array.from(
    { length: 30 },
    (_, i) =>
      `    #[test]\n    fn parses_${i}_units() {\n        assert_eq!(parse_amount("${i}.${
        String(i * 7 % 100).padStart(2, "0")
      }"), Ok(${i * 100 + (i * 7 % 100)}));\n    }`,
  );
  const api = Array.from(
    { length: 8 },
    (_, i) =>
      `#[test]\nfn format_round_trip_${i}() {\n    let cents = ${
        1000 * i + 5
      };\n    assert_eq!(parse_amount(&format_amount(cents)), Ok(cents));\n}`,
  );
  const money = `//! Amounts of money in cents.

/// Cents in \`units\` whole units.
///
/// \`\`\`
/// assert_eq!(ledger::money::cents(3), 300);
/// \`\`\`
pub fn cents(units: i64) -> i64 {
    units * 100
}

/// Splits \`total\` into \`parts\` nearly equal shares, the larger ones first.
///
/// \`\`\`
/// assert_eq!(ledger::money::split(100, 3), ${failing ? "vec![33, 33, 34]" : "vec![34, 33, 33]"});
/// \`\`\`
pub fn split(total: i64, parts: i64) -> Vec<i64> {
    let base = total / parts;
    let extra = total % parts;
    (0..parts).map(|i| base + i64::from(i < extra)).collect()
}

/// \`pct\` percent of \`amount\`, rounded toward zero.
pub fn percent(amount: i64, pct: i64) -> i64 {
    amount * pct / 100
}

#[cfg(test)]
mod tests {
    use super::*;

${cents.join("\n\n")}

    #[test]
    fn split_evenly() {
        assert_eq!(split(90, 3), vec![30, 30, 30]);
    }

    #[test]
    fn split_rounding() {
        assert_eq!(split(100, 3), ${failing ? "vec![33, 33, 34]" : "vec![34, 33, 33]"});
    }

    #[test]
    fn percent_of_negative() {
        let got = percent(-50, 10);
        assert!(got == ${failing ? "-4" : "-5"}, "percent(-50, 10) gave {got}");
    }

    #[test]
    #[ignore = "slow: walks every split of 10000"]
    fn split_exhaustive() {
        for parts in 1..10_000 {
            assert_eq!(split(10_000, parts).iter().sum::<i64>(), 10_000);
        }
    }
}
`;
  const parse = `//! Parsing amounts written as \`12.34\`.

/// Why an amount did not parse.
#[derive(Debug, PartialEq)]
pub enum ParseError {
    Empty,
    InvalidDigit(char),
}

/// The amount in cents: \`"12.34"\` is 1234.
pub fn parse_amount(text: &str) -> Result<i64, ParseError> {
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut cents = 0i64;
    let mut decimals: Option<u32> = None;
    for c in text.chars() {
        match c {
            '.' if decimals.is_none() => decimals = Some(0),
            '0'..='9' => {
                cents = cents * 10 + i64::from(c as u8 - b'0');
                decimals = decimals.map(|d| d + 1);
            }
            _ => return Err(ParseError::InvalidDigit(c)),
        }
    }
    Ok(cents * 10i64.pow(2 - decimals.unwrap_or(0).min(2)))
}

/// \`1234\` as \`"12.34"\`.
pub fn format_amount(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

${parses.join("\n\n")}

    #[test]
    fn parses_thousands() {
        let amount = parse_amount("${failing ? "1,000.00" : "1000.00"}").unwrap();
        assert_eq!(amount, 100_000);
    }

    #[test]
    #[should_panic(expected = "empty amount")]
    fn rejects_empty() {
        ${failing ? 'let _ = parse_amount("");' : 'parse_amount("").expect("empty amount");'}
    }

    #[test]
    #[ignore]
    fn parses_huge() {
        assert!(parse_amount("92233720368547758.07").is_ok());
    }
}
`;
  return {
    "Cargo.toml":
      '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    "src/lib.rs": "//! A tiny ledger.\n\npub mod money;\npub mod parse;\n",
    "src/money.rs": money,
    "src/parse.rs": parse,
    "tests/api.rs": `use ledger::money::split;
use ledger::parse::{format_amount, parse_amount};

${api.join("\n\n")}

#[test]
fn split_keeps_the_total() {
    assert_eq!(split(1001, 4).iter().sum::<i64>(), 1001);
}

#[test]
fn formats_small_amounts() {
    assert_eq!(format_amount(7), "${failing ? "0.7" : "0.07"}");
}
`,
  };
}

/** One event of libtest's JSON format. */
interface LibtestEvent {
  readonly type: string;
  readonly event: string;
  readonly name?: string;
  readonly stdout?: string;
  readonly message?: string;
  readonly passed?: number;
  readonly failed?: number;
  readonly ignored?: number;
  readonly filtered_out?: number;
}

/**
 * Facts of a cargo test run, from libtest's JSON events on the same crate and arguments: the
 * totals, and per failed test its name, its panic location and message lines.
 */
function cargoCase(name: string, typed: string[], cwd: string): Case {
  const cargoArgs = typed.slice(2).filter((arg) => !/^-(q|v+)$/.test(arg));
  const jsonCmd = [
    "cargo",
    "test",
    ...cargoArgs,
    "--",
    "-Z",
    "unstable-options",
    "--format",
    "json",
  ];
  return {
    name,
    filter: cargoTestFilter,
    typed,
    cwd,
    factsSource: `RUSTC_BOOTSTRAP=1 ${jsonCmd.join(" ")}`,
    async facts() {
      const json = await run(jsonCmd, cwd, {
        RUSTC_BOOTSTRAP: "1",
        CARGO_TARGET_DIR: join(cwd, "target-json"),
      });
      const events: LibtestEvent[] = json.stdout.split("\n").filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      const suites = events.filter((e) =>
        e.type === "suite" && (e.event === "ok" || e.event === "failed")
      );
      const sum = (key: "passed" | "failed" | "ignored") =>
        suites.reduce((total, e) => total + (e[key] ?? 0), 0);
      const facts = [`${sum("passed")} passed`];
      if (sum("failed")) facts.push(`FAILED, ${sum("failed")} failed`);
      if (sum("ignored")) facts.push(`${sum("ignored")} ignored`);
      facts.push(`in ${suites.length} suite${suites.length === 1 ? "" : "s"}`);
      // Tests run in parallel: in name order, the facts are the same on every capture.
      const failed = events.filter((e) => e.type === "test" && e.event === "failed")
        .sort((a, b) => (a.name ?? "").localeCompare(b.name ?? ""));
      for (const e of failed) {
        facts.push(e.name ?? "");
        // A `should_panic` test that did not panic has a message and no output.
        if (e.message) facts.push(e.message);
        const lines = nonEmpty(e.stdout ?? "");
        const at = lines.findIndex((line) => / panicked at /.test(line));
        if (at < 0) {
          if (lines.length) facts.push(lines[0]);
          continue;
        }
        facts.push(`panicked at ${lines[at].split(" panicked at ")[1]}`);
        for (const line of lines.slice(at + 1, at + 4)) {
          if (!line.startsWith("note: ")) facts.push(line.trim());
        }
      }
      return facts;
    },
  };
}

async function cargoCases(): Promise<Case[]> {
  const pass = join(ROOT, "cargo", "pass");
  const fail = join(ROOT, "cargo", "fail");
  await writeFiles(pass, cargoFiles(false));
  await writeFiles(fail, cargoFiles(true));
  // Build first, so that every captured run finds its test binaries ready.
  for (const dir of [pass, fail]) await run(["cargo", "test", "--no-run", "-q"], dir);
  return [
    cargoCase("cargo_test_pass", ["cargo", "test"], pass),
    cargoCase("cargo_test_q_pass", ["cargo", "test", "-q"], pass),
    cargoCase("cargo_test_fail", ["cargo", "test", "--no-fail-fast"], fail),
    cargoCase("cargo_test_q_fail", ["cargo", "test", "-q"], fail),
    cargoCase("cargo_test_v_fail", ["cargo", "test", "-v"], fail),
  ];
}

// ---------------------------------------------------------------------------------------------
// go test

const GO_PACKAGES = [
  "money",
  "units",
  "slug",
  "clock",
  "config",
  "queue",
  "retry",
  "ids",
  "geo",
  "mathx",
  "cache",
  "parse",
  "auth",
  "billing",
  "cart",
  "catalog",
  "checkout",
  "coupons",
  "email",
  "events",
  "feeds",
  "i18n",
  "invoice",
  "ledger",
  "orders",
  "search",
  "shipping",
  "tax",
];

// A passing package: a function and a few table tests, one with subtests, one skipped.
function goPackage(name: string, index: number): Record<string, string> {
  const cases = Array.from({ length: 3 + (index % 3) }, (_, i) => `{${i}, ${i}, ${2 * i}}`);
  const tests = Array.from(
    { length: 2 + (index % 2) },
    (_, i) =>
      `func TestDouble${i}(t *testing.T) {\n\tif got := Double(${i + index}); got != ${
        2 * (i + index)
      } {\n\t\tt.Errorf("Double(${i + index}) = %d, want ${2 * (i + index)}", got)\n\t}\n}`,
  );
  return {
    [`pkg/${name}/${name}.go`]:
      `// Package ${name} is part of the generated shop module.\npackage ${name}\n\n// Double returns twice n.\nfunc Double(n int) int { return 2 * n }\n\n// Add returns a + b.\nfunc Add(a, b int) int { return a + b }\n`,
    [`pkg/${name}/${name}_test.go`]: `package ${name}

import "testing"

${tests.join("\n\n")}

func TestAdd(t *testing.T) {
\tfor _, c := range []struct{ a, b, want int }{${cases.join(", ")}} {
\t\tt.Run("", func(t *testing.T) {
\t\t\tif got := Add(c.a, c.b); got != c.want {
\t\t\t\tt.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
\t\t\t}
\t\t})
\t}
}
${index % 4 === 0 ? `\nfunc TestNetwork(t *testing.T) {\n\tt.Skip("needs the network")\n}\n` : ""}`,
  };
}

function goFiles(failing: boolean): Record<string, string> {
  const files: Record<string, string> = {
    "go.mod": "module example.com/shop\n\ngo 1.19\n",
    "cmd/shop/main.go":
      'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/shop/pkg/money"\n)\n\nfunc main() { fmt.Println(money.Double(2)) }\n',
    "internal/version/version.go":
      'package version\n\n// Version is the release.\nconst Version = "1.4.0"\n',
  };
  GO_PACKAGES.forEach((name, i) => Object.assign(files, goPackage(name, i)));
  if (!failing) return files;
  files["pkg/money/round.go"] =
    'package money\n\n// Round rounds cents to the nearest multiple of 5.\nfunc Round(cents int) int { return cents / 5 * 5 }\n\n// Convert converts cents to a currency at a fixed rate.\nfunc Convert(cents int, currency string) int {\n\trates := map[string]int{"EUR": 100, "GBP": 85, "JPY": 15000}\n\treturn cents * rates[currency] / 100\n}\n';
  files["pkg/money/round_test.go"] = `package money

import "testing"

func TestRound(t *testing.T) {
\tif got := Round(13); got != 15 {
\t\tt.Errorf("Round(13) = %d, want 15", got)
\t}
}

func TestConvert(t *testing.T) {
\tfor _, c := range []struct {
\t\tcurrency string
\t\twant     int
\t}{{"EUR", 1000}, {"GBP", 860}, {"USD", 1100}} {
\t\tt.Run(c.currency, func(t *testing.T) {
\t\t\tif got := Convert(1000, c.currency); got != c.want {
\t\t\t\tt.Errorf("Convert(1000, %q) = %d, want %d", c.currency, got, c.want)
\t\t\t}
\t\t})
\t}
}
`;
  files["pkg/parse/date.go"] =
    'package parse\n\nimport "time"\n\n// Date parses a day written as 2006-01-02.\nfunc Date(s string) (time.Time, error) { return time.Parse("2006-01-02", s) }\n';
  files["pkg/parse/date_test.go"] = `package parse

import (
\t"fmt"
\t"testing"
)

func TestDate(t *testing.T) {
\tif _, err := Date("2024-02-30"); err != nil {
\t\tt.Fatalf("Date(%q): %v", "2024-02-30", err)
\t}
}

func ExampleDate() {
\td, _ := Date("2024-03-01")
\tfmt.Println(d.Weekday())
\t// Output: Saturday
}
`;
  files["pkg/cache/evict_test.go"] = `package cache

import "testing"

type lru struct{ entries map[string]int }

func (c *lru) put(key string, v int) { c.entries[key] = v }

func TestEvict(t *testing.T) {
\tvar c lru
\tc.put("a", 1)
}
`;
  files["pkg/report/report.go"] =
    "package report\n\n// Rows renders rows.\nfunc Rows(rows []string) string { return formatRow(rows) }\n";
  files["pkg/report/report_test.go"] =
    'package report\n\nimport "testing"\n\nfunc TestRows(t *testing.T) {\n\tif Rows(nil) != "" {\n\t\tt.Fatal("not empty")\n\t}\n}\n';
  return files;
}

/** One `go test -json` event. */
interface GoEvent {
  readonly Action: string;
  readonly Package?: string;
  readonly Test?: string;
  readonly Output?: string;
}

/**
 * Facts of a go test run, from `go test -json` on the same module: every failed test's
 * `--- FAIL` name and `file_test.go:N: message` lines, every failed package, panics and their
 * test frame, the package counts, and with `-v` the test counts.
 */
function goCase(name: string, typed: string[], cwd: string): Case {
  const verbose = typed.includes("-v");
  const jsonCmd = ["go", "test", "-json", ...typed.slice(2).filter((arg) => arg !== "-v")];
  return {
    name,
    filter: goTestFilter,
    typed,
    cwd,
    factsSource: jsonCmd.join(" "),
    async facts() {
      const stdout = (await run(jsonCmd, cwd)).stdout.split("\n");
      const events: GoEvent[] = stdout.filter((line) => line.startsWith("{")).map((line) =>
        JSON.parse(line)
      );
      // Go 1.19 reports a package that does not build as a plain line, outside the JSON.
      const unbuilt = stdout.filter((line) => /^FAIL\t\S+ \[build failed\]$/.test(line));
      const facts: string[] = [];
      const failedTests = events.filter((e) => e.Action === "fail" && e.Test);
      for (const e of failedTests) {
        facts.push(`--- FAIL: ${e.Test}`);
        const output = events.filter((o) =>
          o.Action === "output" && o.Test === e.Test && o.Package === e.Package
        ).map((o) => o.Output ?? "");
        for (const line of output) {
          if (/^\s+\w+_test\.go:\d+: /.test(line)) facts.push(line.trim());
        }
      }
      for (const e of events.filter((e) => e.Action === "output")) {
        const line = (e.Output ?? "").trimEnd();
        if (line.startsWith("panic: ")) facts.push(line);
        const frame = /\/(\w+_test\.go:\d+) \+0x/.exec(line);
        if (frame) facts.push(frame[1]);
      }
      const packages = events.filter((e) => !e.Test && ["pass", "fail", "skip"].includes(e.Action));
      for (const e of packages.filter((e) => e.Action === "fail")) facts.push(`FAIL ${e.Package}`);
      facts.push(...unbuilt.map((line) => line.replace("\t", " ")));
      const ok = packages.filter((e) => e.Action === "pass").length;
      const none = packages.filter((e) => e.Action === "skip").length;
      const failedPackages = packages.filter((e) => e.Action === "fail").length + unbuilt.length;
      const pkgParts = [
        failedPackages ? `${failedPackages} failed` : "",
        ok ? `${ok} ok` : "",
        none ? `${none} no test files` : "",
      ].filter((part) => part !== "");
      facts.push(`packages: ${pkgParts.join(", ")}`);
      if (failedTests.length) facts.push(`${failedTests.length} failed`);
      if (verbose) {
        const passed = events.filter((e) => e.Action === "pass" && e.Test).length;
        const skipped = events.filter((e) => e.Action === "skip" && e.Test).length;
        facts.push(`${passed} passed`);
        if (skipped) facts.push(`${skipped} skipped`);
      }
      return [...new Set(facts)];
    },
  };
}

async function goCases(): Promise<Case[]> {
  const pass = join(ROOT, "go", "pass");
  const fail = join(ROOT, "go", "fail");
  await writeFiles(pass, goFiles(false));
  await writeFiles(fail, goFiles(true));
  return [
    goCase("go_test_pass", ["go", "test", "./..."], pass),
    goCase("go_test_v_pass", ["go", "test", "-v", "./..."], pass),
    goCase("go_test_fail", ["go", "test", "./..."], fail),
    goCase("go_test_v_fail", ["go", "test", "-v", "./..."], fail),
  ];
}

// ---------------------------------------------------------------------------------------------
// rspec

const RB_CART = `# A shopping cart.
class Cart
  Line = Struct.new(:sku, :price, :qty)

  def initialize(catalog)
    @catalog = catalog
    @lines = []
  end

  def add(sku, qty = 1)
    @lines << Line.new(sku, @catalog.price_of(sku), qty)
    self
  end

  def total(discount: 0)
    subtotal = @lines.sum { |line| line.price * line.qty }
    (subtotal * (100 - discount) / 100.0).round(2)
  end

  def summary
    @lines.to_h { |line| [line.sku, line.qty] }
  end
end

# Prices by SKU.
class Catalog
  def initialize(prices)
    @prices = prices
  end

  def price_of(sku)
    @prices.fetch(sku)
  end
end
`;

function rspecFiles(): Record<string, string> {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"];
  const formatting = Array.from(
    { length: 150 },
    (_, i) =>
      `  it "formats ${
        words[i % words.length]
      } price ${i}" do\n    expect(format("%.2f", ${i}.5)).to eq("${i}.50")\n  end`,
  );
  const pricing = Array.from(
    { length: 150 },
    (_, i) =>
      `  it "totals ${i + 1} apples" do\n    cart = Cart.new(catalog).add("apple", ${
        i + 1
      })\n    expect(cart.total).to eq(${((i + 1) * 0.4).toFixed(2)})\n  end`,
  );
  return {
    "lib/cart.rb": RB_CART,
    "spec/spec_helper.rb": 'require_relative "../lib/cart"\n',
    "spec/formatting_spec.rb": `require "spec_helper"

RSpec.describe "Price formatting" do
${formatting.join("\n\n")}
end
`,
    "spec/pricing_spec.rb": `require "spec_helper"

RSpec.describe Cart do
  let(:catalog) { Catalog.new("apple" => 0.4, "pear" => 0.55) }

${pricing.join("\n\n")}

  it "is empty at first" do
    expect(Cart.new(catalog).total).to eq(0)
  end

  xit "applies coupons" do
    expect(Cart.new(catalog).total).to eq(-1)
  end
end
`,
    "spec/checkout/cart_spec.rb": `require "spec_helper"

RSpec.describe Cart, "at checkout" do
  let(:catalog) { Catalog.new("apple" => 0.4, "pear" => 0.55, "plum" => 0.3) }
  subject(:cart) { Cart.new(catalog).add("apple", 6).add("pear", 3) }

  it "applies the discount" do
    expect(cart.total(discount: 15)).to eq(3.45)
  end

  it "summarizes the lines" do
    expect(cart.summary).to eq("apple" => 6, "pear" => 3, "plum" => 0)
  end

  it "rejects unknown products" do
    cart.add("kiwi")
    expect(cart.summary).to include("kiwi")
  end

  it "keeps the line order" do
    expect(cart.summary.keys).to eq(%w[apple pear])
  end

  it "rounds half up" do
    pending("rounding rules are not decided")
    expect(Cart.new(catalog).add("plum", 5).total(discount: 50)).to eq(0.76)
  end
end
`,
  };
}

/** One example of rspec's JSON report. */
interface RspecExample {
  readonly full_description: string;
  readonly status: string;
  readonly file_path: string;
  readonly line_number: number;
  readonly exception?: { readonly message: string };
}

/**
 * Facts of an rspec run, from its JSON formatter run on the same files: the summary counts
 * and per failed example its rerun line (location and description) and first message line.
 */
function rspecCase(name: string, typed: string[], cwd: string): Case {
  const report = join(ROOT, `${name}.json`);
  return {
    name,
    filter: rspecFilter,
    typed,
    cwd,
    factsSource: `${typed.join(" ")} --format json --out report.json`,
    async facts() {
      await run([...typed, "--format", "json", "--out", report], cwd);
      const json = JSON.parse(await Deno.readTextFile(report));
      const s = json.summary;
      const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
      const facts = [
        `${n(s.example_count, "example")}, ${n(s.failure_count, "failure")}${
          s.pending_count ? `, ${s.pending_count} pending` : ""
        }`,
      ];
      for (const e of json.examples as RspecExample[]) {
        if (e.status !== "failed") continue;
        facts.push(`rspec ${e.file_path}:${e.line_number} # ${e.full_description}`);
        const first = nonEmpty(e.exception?.message ?? "")[0];
        if (first) facts.push(first.trim());
      }
      return facts;
    },
  };
}

async function rspecCases(): Promise<Case[]> {
  const dir = join(ROOT, "rspec");
  await writeFiles(dir, rspecFiles());
  const passing = ["spec/formatting_spec.rb", "spec/pricing_spec.rb"];
  return [
    rspecCase("rspec_pass", ["rspec", ...passing], dir),
    rspecCase("rspec_doc_pass", ["rspec", "--format", "documentation", ...passing], dir),
    rspecCase("rspec_fail", ["rspec"], dir),
    rspecCase("rspec_doc_fail", ["rspec", "--format", "documentation"], dir),
  ];
}

// ---------------------------------------------------------------------------------------------
// phpunit

const PHP_SHOP = `<?php

final class OutOfStock extends RuntimeException {}

final class Inventory
{
    /** @param array<string, int> $stock */
    public function __construct(private array $stock) {}

    public function count(string $sku): int { return $this->stock[$sku] ?? 0; }

    /** @param array<string, int> $order */
    public function reserve(array $order): void
    {
        foreach ($order as $sku => $qty) {
            $this->remove($sku, $qty);
        }
    }

    private function remove(string $sku, int $qty): void
    {
        if (!array_key_exists($sku, $this->stock)) {
            throw new OutOfRangeException("unknown SKU: $sku");
        }
        if ($this->stock[$sku] < $qty) {
            throw new OutOfStock("$sku: have {$this->stock[$sku]}, need $qty");
        }
        $this->stock[$sku] -= $qty;
    }
}

final class Pricing
{
    public static function total(array $items, int $discount = 0): float
    {
        $subtotal = 0.0;
        foreach ($items as [$price, $qty]) {
            $subtotal += $price * $qty;
        }
        return round($subtotal * (100 - $discount) / 100, 2);
    }

    /** @return array<string, float> */
    public static function lines(array $items): array
    {
        $lines = [];
        foreach ($items as [$name, $price, $qty]) {
            $lines[$name] = round($price * $qty, 2);
        }
        return $lines;
    }
}
`;

function phpunitFiles(): Record<string, string> {
  const rounding = Array.from({ length: 12 }, (_, i) => {
    const price = (i + 1) * 1.25;
    return `            'case ${i + 1}' => [${price}, ${i + 2}, ${(price * (i + 2)).toFixed(2)}],`;
  });
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
  const formats = words.map((word, i) =>
    `    public function testFormats${word[0].toUpperCase()}${
      word.slice(1)
    }(): void\n    {\n        $this->assertSame('${i + 1}.50', number_format(${
      i + 1
    }.5, 2));\n    }`
  );
  const amounts = Array.from(
    { length: 420 },
    (_, i) => `            [${i}, '${(i / 100).toFixed(2)}'],`,
  );
  const slugs = Array.from(
    { length: 420 },
    (_, i) =>
      `            ['${words[i % 8].toUpperCase()} Item ${i}', '${words[i % 8]}-item-${i}'],`,
  );
  return {
    "phpunit.xml": `<?xml version="1.0" encoding="UTF-8"?>
<phpunit bootstrap="src/Shop.php" colors="false">
  <testsuites>
    <testsuite name="shop">
      <directory>tests</directory>
    </testsuite>
  </testsuites>
</phpunit>
`,
    "src/Shop.php": PHP_SHOP,
    "tests/Unit/PricingTest.php": `<?php

use PHPUnit\\Framework\\TestCase;

final class PricingTest extends TestCase
{
    /** @dataProvider totals */
    public function testTotal(float $price, int $qty, float $expected): void
    {
        $this->assertSame($expected, Pricing::total([[$price, $qty]]));
    }

    public static function totals(): array
    {
        return [
${rounding.join("\n")}
        ];
    }

    public function testEmptyTotal(): void
    {
        $this->assertSame(0.0, Pricing::total([]));
    }

    public function testForeignCurrency(): void
    {
        $this->markTestSkipped('needs the currency tables');
    }
}
`,
    "tests/Unit/FormatTest.php": `<?php

use PHPUnit\\Framework\\TestCase;

final class FormatTest extends TestCase
{
${formats.join("\n\n")}
}
`,
    "tests/Unit/MoneyTest.php": `<?php

use PHPUnit\\Framework\\TestCase;

final class MoneyTest extends TestCase
{
    /** @dataProvider amounts */
    public function testFormatsCents(int $cents, string $expected): void
    {
        $this->assertSame($expected, number_format($cents / 100, 2, '.', ''));
    }

    public static function amounts(): array
    {
        return [
${amounts.join("\n")}
        ];
    }

    /** @dataProvider slugs */
    public function testSlug(string $name, string $expected): void
    {
        $this->assertSame($expected, trim(preg_replace('/[^a-z0-9]+/', '-', strtolower($name)), '-'));
    }

    public static function slugs(): array
    {
        return [
${slugs.join("\n")}
        ];
    }
}
`,
    "tests/Feature/CheckoutTest.php": `<?php

use PHPUnit\\Framework\\TestCase;

final class CheckoutTest extends TestCase
{
    private Inventory $inventory;

    protected function setUp(): void
    {
        $this->inventory = new Inventory(['apple' => 10, 'pear' => 4, 'plum' => 0]);
    }

    public function testTotalWithDiscount(): void
    {
        $items = [[19.99, 3], [5.00, 2]];
        $this->assertSame(59.48, Pricing::total($items, 15));
    }

    public function testLineItems(): void
    {
        $items = [['apple', 0.40, 6], ['pear', 0.55, 3], ['plum', 0.30, 10]];
        $this->assertEquals(['apple' => 2.40, 'pear' => 1.65, 'plum' => 3.30, 'kiwi' => 0.0], Pricing::lines($items));
    }

    public function testReserveUnknownSku(): void
    {
        $this->inventory->reserve(['apple' => 2, 'kiwi' => 1]);
        $this->assertSame(0, $this->inventory->count('kiwi'));
    }

    public function testReserveMoreThanStock(): void
    {
        $this->expectException(OutOfStock::class);
        $this->inventory->reserve(['pear' => 5]);
    }

    public function testPaymentGateway(): void
    {
        throw new RuntimeException('payment gateway unreachable: sandbox.example.test:443');
    }

    public function testReceipt(): void
    {
        $this->markTestIncomplete('receipts are not designed yet');
    }

    public function testAudit(): void
    {
    }

    /** @dataProvider stock */
    public function testStock(string $sku, int $expected): void
    {
        $this->assertSame($expected, $this->inventory->count($sku));
    }

    public static function stock(): array
    {
        return ['apple' => ['apple', 10], 'pear' => ['pear', 4], 'plum' => ['plum', 1]];
    }
}
`,
  };
}

/**
 * Facts of a phpunit run, from its JUnit log on the same arguments: the counts, and per failure
 * and error (risky tests aside, which the log files as errors) its name (unless testdox prints
 * names its own way), its message line and its first location.
 */
function phpunitCase(name: string, typed: string[], cwd: string): Case {
  const testdox = typed.includes("--testdox");
  return {
    name,
    filter: phpunitFilter,
    typed,
    cwd,
    factsSource: `${typed.join(" ")} --log-junit report.xml`,
    async facts() {
      const report = join(ROOT, `${name}.xml`);
      await run([...typed, "--log-junit", report], cwd);
      const xml = await Deno.readTextFile(report);
      const top = xmlAttrs(/<testsuite\b([^>]*)>/.exec(xml)?.[1] ?? "");
      const cases = junitCases(xml);
      const failed = cases.filter((c) =>
        c.outcome === "failure" ||
        (c.outcome === "error" && !/RiskyTest/.test(c.outcomeAttrs.type ?? ""))
      );
      const facts = [`Tests: ${top.tests}`, `Assertions: ${top.assertions}`];
      const failures = failed.filter((c) => c.outcome === "failure").length;
      const errors = failed.length - failures;
      if (errors) facts.push(`Errors: ${errors}`);
      if (failures) facts.push(`Failures: ${failures}`);
      // The log counts skipped and incomplete tests together, so only a clean run is checked.
      if (!failed.length && Number(top.skipped ?? 0) === 0) {
        facts.push(`OK (${top.tests} tests, ${top.assertions} assertions)`);
      }
      for (const c of failed) {
        const lines = nonEmpty(c.text);
        if (!testdox) facts.push(lines[0]);
        facts.push(lines[1]);
        // Locations as a path below the project, which is how the filter writes them.
        const location = lines.find((line) => /\.php:\d+$/.test(line));
        if (location) facts.push(location.replace(`${cwd}/`, ""));
      }
      return facts;
    },
  };
}

async function phpunitCases(): Promise<Case[]> {
  const dir = join(ROOT, "phpunit");
  await writeFiles(dir, phpunitFiles());
  return [
    phpunitCase("phpunit_pass", ["phpunit", "tests/Unit"], dir),
    phpunitCase(
      "phpunit_testdox_pass",
      ["phpunit", "--testdox", "tests/Unit/PricingTest.php"],
      dir,
    ),
    phpunitCase("phpunit_fail", ["phpunit"], dir),
    phpunitCase("phpunit_testdox_fail", ["phpunit", "--testdox"], dir),
  ];
}

// ---------------------------------------------------------------------------------------------

/** The runner families, each skipped with a note when its tool is not installed. */
const FAMILIES: readonly { tool: string; cases: () => Promise<Case[]> }[] = [
  { tool: "pytest", cases: pytestCases },
  { tool: "cargo", cases: cargoCases },
  { tool: "go", cases: goCases },
  { tool: "rspec", cases: rspecCases },
  { tool: "phpunit", cases: phpunitCases },
];

async function installed(tool: string): Promise<boolean> {
  try {
    return (await run([tool, "--version"], "/")).code === 0 ||
      (await run([tool, "version"], "/")).code === 0;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  await Deno.remove(ROOT, { recursive: true }).catch(() => {});
  await Deno.mkdir(ROOT, { recursive: true });
  try {
    for (const family of FAMILIES) {
      if (!await installed(family.tool)) {
        console.warn(`${family.tool}: not installed, its fixtures are left as they are`);
        continue;
      }
      for (const test of await family.cases()) await capture(test);
    }
  } finally {
    // Go's module cache is read-only: make it writable so that it can be removed.
    await run(["chmod", "-R", "u+w", ROOT], "/");
    await Deno.remove(ROOT, { recursive: true });
  }
}
