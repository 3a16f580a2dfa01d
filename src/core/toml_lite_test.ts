import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { parseTomlLite, type TomlTable } from "./toml_lite.ts";

Deno.test("parseTomlLite() reads an empty document, blank lines and comments as an empty table", async (t) => {
  const cases: [string, string][] = [
    ["empty", ""],
    ["blank lines", "\n\n  \n\t\n"],
    ["whole-line comments", "# a comment\n   # indented\n#\n"],
    ["comment with tabs and quotes", "#\ta 'b' \"c\" [d] = e\n"],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(text), {}));
  }
});

Deno.test("parseTomlLite() reads table headers as nested plain objects", async (t) => {
  const cases: [string, string, TomlTable][] = [
    ["one table", "[archive]\nmax_total_mb = 64\n", { archive: { max_total_mb: 64 } }],
    [
      "dotted header",
      "[plugins.cmd]\nenabled = false\n",
      { plugins: { cmd: { enabled: false } } },
    ],
    ["three levels", "[a.b.c]\nx = 1\n", { a: { b: { c: { x: 1 } } } }],
    ["spaces inside the brackets", "[ archive ]\nx = 1\n", { archive: { x: 1 } }],
    ["spaces around the dots", "[ plugins . cmd ]\nx = 1\n", { plugins: { cmd: { x: 1 } } }],
    ["tabs inside the brackets", "[\tplugins\t.\tcmd\t]\nx = 1\n", { plugins: { cmd: { x: 1 } } }],
    ["indented header", "  [archive]\nx = 1\n", { archive: { x: 1 } }],
    ["comment after a header", "[archive] # retention\nx = 1\n", { archive: { x: 1 } }],
    ["comment right after a header", "[archive]#c\nx = 1\n", { archive: { x: 1 } }],
    ["empty table", "[archive]\n", { archive: {} }],
    [
      "sibling sub-tables",
      "[plugins.cmd]\nenabled = false\n[plugins.archive]\nenabled = true\n",
      { plugins: { cmd: { enabled: false }, archive: { enabled: true } } },
    ],
    [
      "parent defined after an implicit child",
      "[plugins.cmd]\nenabled = true\n[plugins]\nx = 1\n",
      { plugins: { cmd: { enabled: true }, x: 1 } },
    ],
    [
      "child after its parent",
      "[plugins]\nx = 1\n[plugins.cmd]\nenabled = true\n",
      { plugins: { x: 1, cmd: { enabled: true } } },
    ],
    ["keys before any header", "x = 1\n[a]\ny = 2\n", { x: 1, a: { y: 2 } }],
    ["header names of digits, _ and -", "[1-a_B]\nx = 1\n", { "1-a_B": { x: 1 } }],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(text), expected));
  }
});

Deno.test("parseTomlLite() reads bare keys with or without spaces around =", async (t) => {
  const cases: [string, string, TomlTable][] = [
    ["spaces", "a = 1", { a: 1 }],
    ["no spaces", "a=1", { a: 1 }],
    ["tabs", "\ta\t=\t1\t", { a: 1 }],
    ["digits, _ and -", "max_total-mb2 = 1", { "max_total-mb2": 1 }],
    ["all digits", "1234 = 1", { "1234": 1 }],
    ["several keys", "a = 1\nb = 2\n", { a: 1, b: 2 }],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(text), expected));
  }
});

Deno.test("parseTomlLite() reads integers, floats and booleans", async (t) => {
  const cases: [string, string, number | boolean][] = [
    ["zero", "0", 0],
    ["positive", "42", 42],
    ["plus sign", "+17", 17],
    ["minus sign", "-17", -17],
    ["minus zero is zero", "-0", 0],
    ["underscores", "1_000_000", 1000000],
    ["largest safe integer", "9007199254740991", Number.MAX_SAFE_INTEGER],
    ["smallest safe integer", "-9007199254740991", -Number.MAX_SAFE_INTEGER],
    ["float", "1.5", 1.5],
    ["negative float", "-0.25", -0.25],
    ["plus-signed float", "+3.14", 3.14],
    ["float zero", "0.0", 0],
    ["float minus zero", "-0.0", -0],
    ["float with underscores", "1_000.000_5", 1000.0005],
    ["exponent", "1e3", 1000],
    ["capital exponent with sign", "5E+22", 5e22],
    ["negative exponent", "6.626e-34", 6.626e-34],
    ["exponent with leading zeros", "1e06", 1e6],
    ["fraction with leading zeros", "3.0014", 3.0014],
    ["true", "true", true],
    ["false", "false", false],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(`v = ${text}`), { v: expected }));
  }
});

Deno.test("parseTomlLite() reads basic and literal strings", async (t) => {
  const cases: [string, string, string][] = [
    ["basic", '"hello"', "hello"],
    ["empty basic", '""', ""],
    ["escaped quote and backslash", String.raw`"a\"b\\c"`, 'a"b\\c'],
    ["newline, tab and return escapes", String.raw`"a\nb\tc\rd"`, "a\nb\tc\rd"],
    ["backspace and form feed escapes", String.raw`"\b\f"`, "\b\f"],
    ["\\u escape", String.raw`"caf\u00e9 \u00E9"`, "café é"],
    ["\\U escape", String.raw`"\U0001F600"`, "\u{1F600}"],
    ["# inside a basic string", '"a # not a comment"', "a # not a comment"],
    ["single quote inside a basic string", `"it's"`, "it's"],
    ["literal tab inside a basic string", '"a\tb"', "a\tb"],
    ["non-ASCII", '"日本"', "日本"],
    ["literal", String.raw`'C:\Users\n'`, String.raw`C:\Users\n`],
    ["empty literal", "''", ""],
    ["double quote and # inside a literal", `'say "hi" # now'`, 'say "hi" # now'],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(`v = ${text}`), { v: expected }));
  }
});

Deno.test("parseTomlLite() ignores comments after a value", async (t) => {
  const cases: [string, string, string | number | boolean][] = [
    ["after a number", "v = 1 # one", 1],
    ["right after a number", "v = 1#one", 1],
    ["after a boolean", "v = true\t# yes", true],
    ["after a basic string", 'v = "a" # "b"', "a"],
    ["after a literal string", "v = 'a'#b", "a"],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => deepStrictEqual(parseTomlLite(text), { v: expected }));
  }
});

Deno.test("parseTomlLite() reads CRLF line endings like LF", () => {
  deepStrictEqual(
    parseTomlLite("# c\r\n[plugins.cmd]\r\nenabled = false # no\r\nname = 'x'\r\n"),
    { plugins: { cmd: { enabled: false, name: "x" } } },
  );
});

Deno.test("parseTomlLite() returns plain objects, with __proto__ as an ordinary key", () => {
  const doc = parseTomlLite("[__proto__]\nx = 1\n[a]\n__proto__ = 2\n");
  strictEqual(Object.getPrototypeOf(doc), Object.prototype);
  deepStrictEqual(Object.keys(doc), ["__proto__", "a"]);
  deepStrictEqual(Object.getOwnPropertyDescriptor(doc, "__proto__")?.value, { x: 1 });
  strictEqual(Object.getPrototypeOf(doc.a), Object.prototype);
  strictEqual(Object.getOwnPropertyDescriptor(doc.a, "__proto__")?.value, 2);
  strictEqual(({} as Record<string, unknown>).x, undefined);
});

Deno.test("parseTomlLite() throws a SyntaxError naming the line and what was wrong", async (t) => {
  const cases: [string, string, RegExp][] = [
    // Values rtok's config does not support.
    ["array", "v = [1, 2]", /^line 1: arrays are not supported in rtok's config$/],
    ["inline table", "v = { a = 1 }", /^line 1: inline tables are not supported in rtok's config$/],
    [
      "multi-line basic string",
      'v = """\na\n"""',
      /^line 1: multi-line strings are not supported in rtok's config$/,
    ],
    [
      "multi-line literal string",
      "v = '''a'''",
      /^line 1: multi-line strings are not supported in rtok's config$/,
    ],
    ["date", "v = 1979-05-27", /^line 1: dates and times are not supported in rtok's config$/],
    ["time", "v = 07:32:00", /^line 1: dates and times are not supported in rtok's config$/],
    [
      "date-time",
      "v = 1979-05-27T07:32:00Z",
      /^line 1: dates and times are not supported in rtok's config$/,
    ],
    [
      "date-time with a space",
      "v = 1979-05-27 07:32:00",
      /^line 1: dates and times are not supported in rtok's config$/,
    ],
    ["inf", "v = inf", /^line 1: inf and nan are not supported in rtok's config$/],
    ["signed nan", "v = -nan", /^line 1: inf and nan are not supported in rtok's config$/],
    [
      "hexadecimal",
      "v = 0xff",
      /^line 1: hexadecimal, octal and binary integers are not supported in rtok's config$/,
    ],
    [
      "octal",
      "v = 0o17",
      /^line 1: hexadecimal, octal and binary integers are not supported in rtok's config$/,
    ],
    [
      "binary",
      "v = 0b101",
      /^line 1: hexadecimal, octal and binary integers are not supported in rtok's config$/,
    ],
    [
      "array of tables",
      "[[plugins]]",
      /^line 1: arrays of tables \(\[\[…\]\]\) are not supported in rtok's config$/,
    ],
    [
      "quoted key",
      '"a" = 1',
      /^line 1: quoted keys are not supported in rtok's config; use a bare key/,
    ],
    [
      "literal quoted key",
      "'a' = 1",
      /^line 1: quoted keys are not supported in rtok's config; use a bare key/,
    ],
    ["quoted key in a header", '["a"]', /^line 1: quoted keys are not supported/],
    [
      "dotted key",
      "a.b = 1",
      /^line 1: dotted keys are not supported in rtok's config; put "a" under a \[table\] header$/,
    ],
    // Values that are not TOML.
    ["missing value", "v =", /^line 1: missing value for the key "v"$/],
    ["missing value before a comment", "v = # none", /^line 1: missing value for the key "v"$/],
    [
      "bare word",
      "v = yes",
      /^line 1: invalid value "yes"; expected a number, true, false or a quoted string$/,
    ],
    ["capitalised boolean", "v = True", /^line 1: invalid value "True"/],
    ["leading zero", "v = 01", /^line 1: invalid value "01"/],
    ["double underscore", "v = 1__000", /^line 1: invalid value "1__000"/],
    ["leading underscore", "v = _1", /^line 1: invalid value "_1"/],
    ["trailing underscore", "v = 1_", /^line 1: invalid value "1_"/],
    ["underscore beside the point", "v = 1_.5", /^line 1: invalid value "1_.5"/],
    ["sign twice", "v = +-1", /^line 1: invalid value "\+-1"/],
    ["no digit after the point", "v = 1.", /^line 1: invalid value "1."/],
    ["no digit before the point", "v = .5", /^line 1: invalid value ".5"/],
    ["point before an exponent", "v = 1.e5", /^line 1: invalid value "1.e5"/],
    ["empty exponent", "v = 1e", /^line 1: invalid value "1e"/],
    ["leading zero in a float", "v = 03.14", /^line 1: invalid value "03.14"/],
    ["trailing comma", "v = 1,", /^line 1: invalid value "1,"/],
    [
      "integer beyond 2^53 - 1",
      "v = 9007199254740992",
      /^line 1: the integer 9007199254740992 is too large to read exactly \(more than 2\^53 - 1\)$/,
    ],
    ["float out of range", "v = 1e400", /^line 1: the float 1e400 is out of range$/],
    ["something after a value", "v = 1 2", /^line 1: unexpected "2" after the value$/],
    ["something after a string", 'v = "a" "b"', /^line 1: unexpected "\\"b\\"" after the value$/],
    // Strings.
    [
      "unterminated basic string",
      'v = "abc',
      /^line 1: unterminated string; expected a closing "$/,
    ],
    [
      "unterminated literal string",
      "v = 'abc",
      /^line 1: unterminated string; expected a closing '$/,
    ],
    ["backslash at the end", 'v = "abc\\', /^line 1: invalid escape "\\\\" in a string$/],
    ["unknown escape", String.raw`v = "a\qb"`, /^line 1: invalid escape "\\\\q" in a string$/],
    [
      "short \\u escape",
      String.raw`v = "\u12"`,
      /^line 1: invalid escape "\\\\u12\\""; expected 4 hex digits$/,
    ],
    [
      "non-hex \\U escape",
      String.raw`v = "\U0001F60G"`,
      /^line 1: invalid escape "\\\\U0001F60G"; expected 8 hex digits$/,
    ],
    [
      "surrogate \\u escape",
      String.raw`v = "\uD800"`,
      /^line 1: invalid escape "\\\\uD800"; not a Unicode scalar value$/,
    ],
    [
      "\\U escape beyond U+10FFFF",
      String.raw`v = "\U00110000"`,
      /^line 1: invalid escape "\\\\U00110000"; not a Unicode scalar value$/,
    ],
    [
      "control character in a string",
      'v = "a\x01b"',
      /^line 1: control character U\+0001 is not allowed$/,
    ],
    [
      "control character in a comment",
      "# a\x7f",
      /^line 1: control character U\+007F is not allowed$/,
    ],
    [
      "lone carriage return",
      "v = 1\rw = 2",
      /^line 1: a carriage return must be followed by a newline$/,
    ],
    // Keys and headers.
    ["key without =", "v 1", /^line 1: expected "=" after the key "v"$/],
    ["no key", "= 1", /^line 1: expected a key, got "= 1"$/],
    ["key of other characters", "ké = 1", /^line 1: expected "=" after the key "k"$/],
    ["empty header", "[]", /^line 1: expected a table name, got "\]"$/],
    [
      "unclosed header",
      "[archive",
      /^line 1: expected "\." or "\]" in the table header \[archive…$/,
    ],
    ["empty header part", "[a..b]", /^line 1: expected a table name, got "\.b\]"$/],
    [
      "space inside a header name",
      "[a b]",
      /^line 1: expected "\." or "\]" in the table header \[a…$/,
    ],
    [
      "something after a header",
      "[archive] x = 1",
      /^line 1: unexpected "x = 1" after the table header \[archive\]$/,
    ],
    // Redefinitions.
    ["duplicate key", "[a]\nx = 1\nx = 2", /^line 3: the key "x" is defined twice in \[a\]$/],
    [
      "duplicate top-level key",
      "x = 1\nx = 1",
      /^line 2: the key "x" is defined twice in the top level$/,
    ],
    ["table defined twice", "[a]\n[b]\n[a]", /^line 3: table \[a\] is defined twice$/],
    ["dotted table defined twice", "[a.b]\n[a.b]", /^line 2: table \[a.b\] is defined twice$/],
    ["implicit table defined twice", "[a.b]\n[a]\n[a]", /^line 3: table \[a\] is defined twice$/],
    ["key over a table", "[a.b]\n[a]\nb = 1", /^line 3: the key "b" is defined twice in \[a\]$/],
    ["table over a value", "a = 1\n[a]", /^line 2: \[a\] is already a value, not a table$/],
    [
      "sub-table over a value",
      "[a]\nb = 1\n[a.b.c]",
      /^line 3: \[a.b\] is already a value, not a table$/,
    ],
    // Line numbers.
    ["error after comments and blank lines", "# c\n\n[a]\nx = 1\n\ny = nope\n", /^line 6: /],
    ["error after CRLF lines", "[a]\r\nx = 1\r\ny = [\r\n", /^line 3: arrays are not supported/],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      throws(() => parseTomlLite(text), { name: "SyntaxError", message });
    });
  }
});
