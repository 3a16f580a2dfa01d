/**
 * What a tree-sitter syntax tree holds, per language: which nodes are symbols (with their kind,
 * name and true line range), which nodes are walked through to find more, and which are left
 * alone (expressions, local statements, parameters, types). The tree-sitter runtime is described
 * here by the few members rtok reads, so nothing in this module loads it.
 *
 * @module
 */

import type { OutlineSymbol } from "./symbol.ts";

/** A position in the parsed text: 0-based row and column. */
export interface TsPoint {
  /** 0-based row. */
  readonly row: number;
  /** 0-based column. */
  readonly column: number;
}

/** The members of a tree-sitter syntax node that the outline reads. */
export interface TsNode {
  /** The grammar's name for the node (`class_declaration`) or the token (`get`). */
  readonly type: string;
  /** The source text the node spans. */
  readonly text: string;
  /** True for named nodes, false for anonymous tokens. */
  readonly isNamed: boolean;
  /** Where the node starts. */
  readonly startPosition: TsPoint;
  /** Where the node ends (exclusive). */
  readonly endPosition: TsPoint;
  /** The named children, in order. */
  readonly namedChildren: readonly (TsNode | null)[];
  /** Every child, anonymous tokens included. */
  readonly children: readonly (TsNode | null)[];
  /** The named sibling before this one. */
  readonly previousNamedSibling: TsNode | null;
  /** The child in the grammar field `name`. */
  childForFieldName(name: string): TsNode | null;
}

/** The languages that have a grammar: the names {@linkcode languageOf} returns. */
export type GrammarLanguage =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "rust"
  | "java";

/** What encloses a node, for the rules: module level, a type's body, or a function's body. */
type Scope = "top" | "type" | "function";

interface Found {
  readonly kind: string;
  readonly name: string;
  /** 0-based first row, decorators and attributes included. */
  readonly startRow: number;
  /** The node whose last line ends the symbol. */
  readonly last: TsNode;
  /** Nodes whose children are walked for nested symbols. */
  readonly bodies: readonly (TsNode | null)[];
  /** The scope those children are in. */
  readonly inner: Scope;
  readonly owner?: string;
}

interface Rules {
  /** The symbols `node` declares, or null when it declares none. */
  symbols(node: TsNode, scope: Scope, wrapStart: number | null): Found[] | null;
  /** Nodes walked through with the same scope. */
  readonly containers: ReadonlySet<string>;
  /** Containers whose direct children start where the container starts (`export`, decorators). */
  readonly wrappers: ReadonlySet<string>;
}

const _FN_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/** 1-based last line of `node`: a node that ends at column 0 ends on the line before. */
export function endLine(node: TsNode): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/**
 * The first row of `node` counting the decorators or attributes that stand before it as
 * siblings (a TypeScript method's decorators, a Rust item's `#[…]`), comments between them
 * skipped.
 */
function _leadingStart(node: TsNode, marks: ReadonlySet<string>, comments: ReadonlySet<string>) {
  let start = node.startPosition.row;
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (marks.has(s.type)) start = s.startPosition.row;
    else if (!comments.has(s.type)) break;
  }
  return start;
}

function _start(node: TsNode, wrapStart: number | null): number {
  const row = node.startPosition.row;
  return wrapStart === null ? row : Math.min(wrapStart, row);
}

function _field(node: TsNode, name: string): TsNode | null {
  return node.childForFieldName(name);
}

function _nameText(node: TsNode, field = "name"): string | null {
  const n = _field(node, field);
  return n ? n.text : null;
}

// ---------------------------------------------------------------------------------------------
// TypeScript, TSX, JavaScript

const _TS_DECORATOR = new Set(["decorator"]);
const _TS_COMMENT = new Set(["comment"]);

function _tsMethodKind(node: TsNode, name: string): string {
  if (name === "constructor" && node.type === "method_definition") return "constructor";
  for (const c of node.children) {
    if (!c || c.isNamed) break;
    if (c.type === "get") return "getter";
    if (c.type === "set") return "setter";
  }
  return "method";
}

function _tsDeclarators(node: TsNode, wrapStart: number | null): Found[] | null {
  const hits: Found[] = [];
  const declarators = node.namedChildren.filter((c): c is TsNode =>
    c !== null && c.type === "variable_declarator"
  );
  for (const d of declarators) {
    const value = _field(d, "value");
    const name = _nameText(d);
    if (!value || name === null) continue;
    const isClass = value.type === "class";
    if (!isClass && !_FN_VALUES.has(value.type)) continue;
    const alone = declarators.length === 1;
    hits.push({
      kind: isClass ? "class" : "function",
      name,
      startRow: alone || d === declarators[0] ? _start(node, wrapStart) : d.startPosition.row,
      last: alone ? node : d,
      bodies: [_field(value, "body")],
      inner: isClass ? "type" : "function",
    });
  }
  return hits.length ? hits : null;
}

function _tsSymbols(node: TsNode, scope: Scope, wrapStart: number | null): Found[] | null {
  const one = (
    kind: string,
    name: string | null,
    inner: Scope,
    bodies: readonly (TsNode | null)[],
    startRow = _start(node, wrapStart),
  ): Found[] | null => name === null ? null : [{ kind, name, startRow, last: node, bodies, inner }];
  switch (node.type) {
    case "class_declaration":
    case "abstract_class_declaration":
      return one("class", _nameText(node), "type", [_field(node, "body")]);
    case "interface_declaration":
      return one("interface", _nameText(node), "type", [_field(node, "body")]);
    case "type_alias_declaration":
      return one("type", _nameText(node), "type", []);
    case "enum_declaration":
      return one("enum", _nameText(node), "type", []);
    case "function_declaration":
    case "generator_function_declaration":
      return one("function", _nameText(node), "function", [_field(node, "body")]);
    case "function_signature":
      return one("function", _nameText(node), "function", []);
    case "internal_module":
      return one("namespace", _nameText(node), "top", [_field(node, "body")]);
    case "module":
      return one("module", _nameText(node), "top", [_field(node, "body")]);
    case "ambient_declaration": {
      // `declare global { … }`; any other `declare …` is walked through as a wrapper.
      const first = node.children[1];
      if (first?.type !== "global") return null;
      const body = node.namedChildren.find((c) => c?.type === "statement_block") ?? null;
      return one("module", "global", "top", [body]);
    }
    case "method_definition":
    case "method_signature":
    case "abstract_method_signature": {
      // Only in a class or interface body: elsewhere it is an object literal's, or the error
      // recovery's reading of broken code.
      const name = scope === "type" ? _nameText(node) : null;
      if (name === null) return null;
      const start = _leadingStart(node, _TS_DECORATOR, _TS_COMMENT);
      const body = node.type === "method_definition" ? [_field(node, "body")] : [];
      return one(_tsMethodKind(node, name), name, "function", body, start);
    }
    case "public_field_definition":
    case "field_definition": {
      // A field holding a function is a method; one holding a class expression, a class.
      const value = scope === "type" ? _field(node, "value") : null;
      const isClass = value?.type === "class";
      if (!value || !isClass && !_FN_VALUES.has(value.type)) return null;
      const name = _nameText(node) ?? _nameText(node, "property");
      const start = _leadingStart(node, _TS_DECORATOR, _TS_COMMENT);
      const [kind, inner]: [string, Scope] = isClass ? ["class", "type"] : ["method", "function"];
      return one(kind, name, inner, [_field(value, "body")], start);
    }
    case "lexical_declaration":
    case "variable_declaration":
      return scope === "top" ? _tsDeclarators(node, wrapStart) : null;
    case "export_statement": {
      // `export default <expression>`: a class or function named by its own name or `default`.
      const value = _field(node, "value");
      if (!value) return null;
      const isClass = value.type === "class";
      if (!isClass && !_FN_VALUES.has(value.type)) return null;
      const name = _nameText(value) ?? "default";
      const kind = isClass ? "class" : "function";
      return one(kind, name, isClass ? "type" : "function", [_field(value, "body")]);
    }
  }
  return null;
}

const _TS_RULES: Rules = {
  symbols: _tsSymbols,
  containers: new Set([
    "program",
    "export_statement",
    "ambient_declaration",
    "expression_statement",
    "statement_block",
    "class_body",
    "interface_body",
    "object_type",
    "if_statement",
    "else_clause",
    "try_statement",
    "catch_clause",
    "finally_clause",
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "switch_body",
    "switch_case",
    "switch_default",
    "labeled_statement",
    "ERROR",
  ]),
  wrappers: new Set(["export_statement", "ambient_declaration"]),
};

// ---------------------------------------------------------------------------------------------
// Python

function _pySymbols(node: TsNode, scope: Scope, wrapStart: number | null): Found[] | null {
  const kind = node.type === "class_definition"
    ? "class"
    : node.type === "function_definition"
    ? scope === "type" ? "method" : "function"
    : null;
  if (kind === null) return null;
  const name = _nameText(node);
  if (name === null) return null;
  return [{
    kind,
    name,
    startRow: _start(node, wrapStart),
    last: node,
    bodies: [_field(node, "body")],
    inner: kind === "class" ? "type" : "function",
  }];
}

const _PY_RULES: Rules = {
  symbols: _pySymbols,
  containers: new Set([
    "module",
    "block",
    "decorated_definition",
    "if_statement",
    "elif_clause",
    "else_clause",
    "try_statement",
    "except_clause",
    "except_group_clause",
    "finally_clause",
    "with_statement",
    "for_statement",
    "while_statement",
    "ERROR",
  ]),
  wrappers: new Set(["decorated_definition"]),
};

// ---------------------------------------------------------------------------------------------
// Go

/** `Parser` for `func (p *Parser) …` and for `func (l *List[T]) …`. */
function _goReceiver(node: TsNode): string | undefined {
  const params = _field(node, "receiver");
  const param = params?.namedChildren.find((c) => c?.type === "parameter_declaration");
  const type = param ? _field(param, "type") : null;
  if (!type) return undefined;
  const base = type.text.replace(/^[\s*]+/, "").replace(/\[[\s\S]*$/, "").trim();
  return base || undefined;
}

function _goSymbols(node: TsNode, scope: Scope, _wrap: number | null): Found[] | null {
  switch (node.type) {
    case "function_declaration":
    case "method_declaration": {
      const name = _nameText(node);
      if (name === null) return null;
      const method = node.type === "method_declaration";
      return [{
        kind: method ? "method" : "function",
        name,
        startRow: node.startPosition.row,
        last: node,
        bodies: [_field(node, "body")],
        inner: "function",
        owner: method ? _goReceiver(node) : undefined,
      }];
    }
    case "method_elem":
    case "method_spec": {
      const name = scope === "type" ? _nameText(node) : null;
      if (name === null) return null;
      return [{
        kind: "method",
        name,
        startRow: node.startPosition.row,
        last: node,
        bodies: [],
        inner: "function",
      }];
    }
    case "type_declaration": {
      const specs = node.namedChildren.filter((c): c is TsNode =>
        c !== null && (c.type === "type_spec" || c.type === "type_alias")
      );
      const hits: Found[] = [];
      for (const spec of specs) {
        const name = _nameText(spec);
        const type = _field(spec, "type");
        if (name === null) continue;
        const kind = spec.type === "type_spec" && type?.type === "struct_type"
          ? "struct"
          : spec.type === "type_spec" && type?.type === "interface_type"
          ? "interface"
          : "type";
        const alone = specs.length === 1;
        hits.push({
          kind,
          name,
          startRow: (alone ? node : spec).startPosition.row,
          last: alone ? node : spec,
          bodies: kind === "interface" ? [type] : [],
          inner: "type",
        });
      }
      return hits.length ? hits : null;
    }
  }
  return null;
}

const _GO_RULES: Rules = {
  symbols: _goSymbols,
  containers: new Set([
    "source_file",
    "block",
    "statement_list",
    "if_statement",
    "for_statement",
    "ERROR",
  ]),
  wrappers: new Set(),
};

// ---------------------------------------------------------------------------------------------
// Rust

const _RS_ATTRIBUTE = new Set(["attribute_item"]);
const _RS_COMMENT = new Set(["line_comment", "block_comment"]);

const _RS_ITEMS: Readonly<Record<string, string>> = {
  struct_item: "struct",
  enum_item: "enum",
  union_item: "union",
  type_item: "type",
  trait_item: "trait",
  mod_item: "module",
  macro_definition: "macro",
};

function _rsSymbols(node: TsNode, scope: Scope, _wrap: number | null): Found[] | null {
  let kind: string | undefined;
  let name: string | null = null;
  let bodies: readonly (TsNode | null)[] = [];
  let inner: Scope = "type";
  if (node.type === "function_item" || node.type === "function_signature_item") {
    kind = scope === "type" ? "method" : "function";
    name = _nameText(node);
    bodies = [_field(node, "body")];
    inner = "function";
  } else if (node.type === "impl_item") {
    kind = "impl";
    const trait = _field(node, "trait");
    const type = _field(node, "type");
    if (type) name = (trait ? `${trait.text} for ${type.text}` : type.text).replace(/\s+/g, " ");
    bodies = [_field(node, "body")];
  } else {
    kind = _RS_ITEMS[node.type];
    // An associated type (`type Item = Token;` in an impl) is a member, not a symbol.
    if (kind === undefined || kind === "type" && scope === "type") return null;
    name = _nameText(node);
    if (kind === "trait") bodies = [_field(node, "body")];
    if (kind === "module") [bodies, inner] = [[_field(node, "body")], "top"];
  }
  if (name === null) return null;
  const startRow = _leadingStart(node, _RS_ATTRIBUTE, _RS_COMMENT);
  return [{ kind, name, startRow, last: node, bodies, inner }];
}

const _RS_RULES: Rules = {
  symbols: _rsSymbols,
  containers: new Set(["source_file", "declaration_list", "block", "foreign_mod_item", "ERROR"]),
  wrappers: new Set(),
};

// ---------------------------------------------------------------------------------------------
// Java

const _JAVA_TYPES: Readonly<Record<string, string>> = {
  class_declaration: "class",
  interface_declaration: "interface",
  enum_declaration: "enum",
  record_declaration: "record",
  annotation_type_declaration: "annotation",
};

function _javaSymbols(node: TsNode, _scope: Scope, _wrap: number | null): Found[] | null {
  const type = _JAVA_TYPES[node.type];
  const kind = type ??
    (node.type === "method_declaration"
      ? "method"
      : node.type === "constructor_declaration" || node.type === "compact_constructor_declaration"
      ? "constructor"
      : undefined);
  if (kind === undefined) return null;
  const name = _nameText(node);
  if (name === null) return null;
  return [{
    kind,
    name,
    startRow: node.startPosition.row,
    last: node,
    bodies: [_field(node, "body")],
    inner: type ? "type" : "function",
  }];
}

const _JAVA_RULES: Rules = {
  symbols: _javaSymbols,
  containers: new Set([
    "program",
    "class_body",
    "interface_body",
    "enum_body",
    "enum_body_declarations",
    "block",
    "constructor_body",
    "ERROR",
  ]),
  wrappers: new Set(),
};

const _RULES: Readonly<Record<GrammarLanguage, Rules>> = {
  typescript: _TS_RULES,
  tsx: _TS_RULES,
  javascript: _TS_RULES,
  python: _PY_RULES,
  go: _GO_RULES,
  rust: _RS_RULES,
  java: _JAVA_RULES,
};

/**
 * The symbols of the tree under `root`, in source order, with 1-based line ranges and their
 * nesting depth (the number of symbols that enclose each).
 */
export function treeSymbols(root: TsNode, language: GrammarLanguage): OutlineSymbol[] {
  const rules = _RULES[language];
  const out: OutlineSymbol[] = [];
  const walk = (node: TsNode, scope: Scope, depth: number) => {
    const wrapStart = rules.wrappers.has(node.type) ? node.startPosition.row : null;
    for (const child of node.namedChildren) {
      if (!child) continue;
      const found = rules.symbols(child, scope, wrapStart);
      if (found) {
        for (const f of found) {
          const symbol: OutlineSymbol = {
            kind: f.kind,
            // A name written across lines (a computed key, a long impl type) stays one line.
            name: f.name.includes("\n") ? f.name.replace(/\s+/g, " ") : f.name,
            start: f.startRow + 1,
            end: endLine(f.last),
            depth,
            ...(f.owner ? { owner: f.owner } : {}),
          };
          out.push(symbol);
          for (const body of f.bodies) if (body) walk(body, f.inner, depth + 1);
        }
      } else if (rules.containers.has(child.type)) {
        walk(child, scope, depth);
      }
    }
  };
  walk(root, "top", 0);
  return out;
}
