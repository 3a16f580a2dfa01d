/**
 * What one source file defines and uses, read from its tree-sitter syntax tree: every
 * definition the outline knows (classes, interfaces, types, enums, functions, methods, Go
 * structs, Rust traits and impls, Java records…), plus module-level constants and variables,
 * each with its true 1-based line range; and every identifier use with its line, a
 * definition's own name left out.
 *
 * @module
 */

import { languageOf, type Outline, symbolScopes, withTree } from "../../content/outline/outline.ts";
import {
  endLine,
  type GrammarLanguage,
  treeSymbols,
  type TsNode,
} from "../../content/outline/tree_rules.ts";

/** One definition in a file. */
export interface Definition {
  /** The name exactly as the source spells it. */
  readonly name: string;
  /**
   * What it is: the outline's kinds (`class`, `function`, `method`, `interface`, `type`,
   * `enum`, `struct`, `trait`, `impl`, …) and, at module level, `const`, `variable`, `static`.
   */
  readonly kind: string;
  /** 1-based first line (a decorator, attribute or `export` included). */
  readonly start: number;
  /** 1-based last line. */
  readonly end: number;
  /** What the name is qualified through (`Parser`, `Geometry.Vector`), or `""`. */
  readonly scope: string;
}

/** What a file defines and uses. */
export interface FileSymbols {
  /** The grammar's language. */
  readonly language: GrammarLanguage;
  /** The definitions, in source order. */
  readonly definitions: readonly Definition[];
  /** Each name used in the file, with the 1-based lines it is used on, ascending, once each. */
  readonly references: ReadonlyMap<string, readonly number[]>;
}

/** A file read, or why it could not be. */
export type Extraction =
  | { readonly ok: true; readonly symbols: FileSymbols }
  | { readonly ok: false; readonly problem: string };

// The members of the runtime's nodes and cursors read here, beyond the outline's.
interface _Node extends TsNode {
  readonly hasError: boolean;
  walk(): _Cursor;
}
interface _Cursor {
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: { readonly row: number; readonly column: number };
  readonly currentFieldName: string | null;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

// Leaf nodes that name something.
const _NAMES = new Set([
  "identifier",
  "type_identifier",
  "property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "private_property_identifier",
  "field_identifier",
  "package_identifier",
]);

// Nodes whose `name` field is the name they declare: that name node is not a use.
const _DECLARES = new Set([
  // TypeScript, JavaScript
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "function_signature",
  "method_definition",
  "method_signature",
  "abstract_method_signature",
  "public_field_definition",
  "field_definition",
  "variable_declarator",
  "internal_module",
  "module",
  // Python
  "function_definition",
  "class_definition",
  // Go
  "method_declaration",
  "type_spec",
  "type_alias",
  "method_elem",
  "method_spec",
  "const_spec",
  "var_spec",
  // Rust
  "function_item",
  "function_signature_item",
  "struct_item",
  "enum_item",
  "union_item",
  "type_item",
  "trait_item",
  "mod_item",
  "macro_definition",
  "const_item",
  "static_item",
  // Java
  "record_declaration",
  "annotation_type_declaration",
  "constructor_declaration",
  "compact_constructor_declaration",
]);

const _FN_OR_CLASS = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
  "class",
]);

// A module-level name binding that is not a function or class (those are the outline's).
interface _Binding {
  readonly definition: Definition;
  /** The name node's `row:column`, left out of the references. */
  readonly at: string;
}

function _binding(name: TsNode, kind: string, from: TsNode, to: TsNode): _Binding {
  return {
    definition: {
      name: name.text,
      kind,
      start: from.startPosition.row + 1,
      end: endLine(to),
      scope: "",
    },
    at: `${name.startPosition.row}:${name.startPosition.column}`,
  };
}

function _children(node: TsNode): TsNode[] {
  return node.namedChildren.filter((c): c is TsNode => c !== null);
}

// TypeScript and JavaScript: `const`/`let`/`var` at module level (or exported) whose value is
// not a function or class.
function _tsBindings(root: TsNode): _Binding[] {
  const out: _Binding[] = [];
  for (const top of _children(root)) {
    const decl = top.type === "export_statement"
      ? _children(top).find((c) =>
        c.type === "lexical_declaration" || c.type === "variable_declaration"
      )
      : top;
    if (!decl || (decl.type !== "lexical_declaration" && decl.type !== "variable_declaration")) {
      continue;
    }
    const kind = decl.children[0]?.type === "const" ? "const" : "variable";
    const declarators = _children(decl).filter((c) => c.type === "variable_declarator");
    for (const d of declarators) {
      const name = d.childForFieldName("name");
      const value = d.childForFieldName("value");
      if (!name || name.type !== "identifier" || (value && _FN_OR_CLASS.has(value.type))) continue;
      const alone = declarators.length === 1;
      out.push(_binding(name, kind, alone ? top : d, alone ? top : d));
    }
  }
  return out;
}

// Python: `NAME = …` and `NAME: T = …` at module level.
function _pyBindings(root: TsNode): _Binding[] {
  const out: _Binding[] = [];
  for (const top of _children(root)) {
    if (top.type !== "expression_statement") continue;
    const a = _children(top)[0];
    const left = a?.type === "assignment" ? a.childForFieldName("left") : null;
    if (left?.type === "identifier") out.push(_binding(left, "variable", top, top));
  }
  return out;
}

// Go: `const` and `var` at package level, one definition per name.
function _goBindings(root: TsNode): _Binding[] {
  const out: _Binding[] = [];
  for (const top of _children(root)) {
    const kind = top.type === "const_declaration"
      ? "const"
      : top.type === "var_declaration"
      ? "variable"
      : null;
    if (!kind) continue;
    const specs = _children(top).flatMap((c) => c.type === "var_spec_list" ? _children(c) : [c])
      .filter((c) => c.type === "const_spec" || c.type === "var_spec");
    for (const spec of specs) {
      const alone = specs.length === 1;
      for (const name of _children(spec)) {
        if (name.type !== "identifier") continue;
        if (spec.childForFieldName("type") === name) continue;
        out.push(_binding(name, kind, alone ? top : spec, alone ? top : spec));
      }
    }
  }
  return out;
}

// Rust: `const` and `static` items at module level (and in `mod` blocks).
function _rsBindings(root: TsNode): _Binding[] {
  const out: _Binding[] = [];
  const visit = (list: TsNode) => {
    for (const item of _children(list)) {
      if (item.type === "mod_item") {
        const body = item.childForFieldName("body");
        if (body) visit(body);
        continue;
      }
      const kind = item.type === "const_item"
        ? "const"
        : item.type === "static_item"
        ? "static"
        : null;
      const name = kind ? item.childForFieldName("name") : null;
      if (kind && name) out.push(_binding(name, kind, item, item));
    }
  };
  visit(root);
  return out;
}

function _bindings(root: TsNode, language: GrammarLanguage): _Binding[] {
  switch (language) {
    case "typescript":
    case "tsx":
    case "javascript":
      return _tsBindings(root);
    case "python":
      return _pyBindings(root);
    case "go":
      return _goBindings(root);
    case "rust":
      return _rsBindings(root);
    case "java":
      return [];
  }
}

// Every identifier use: one cursor walk over the whole tree.
function _references(
  root: _Node,
  text: string,
  skip: ReadonlySet<string>,
): Map<string, number[]> {
  const refs = new Map<string, number[]>();
  const cursor = root.walk();
  const parents: string[] = [];
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (cursor.nodeIsNamed && _NAMES.has(type)) {
        const p = cursor.startPosition;
        const parent = parents[parents.length - 1];
        const declared = parent === "package_clause" ||
          cursor.currentFieldName === "name" && _DECLARES.has(parent);
        if (!declared && !skip.has(`${p.row}:${p.column}`)) {
          const name = text.slice(cursor.startIndex, cursor.endIndex);
          const line = p.row + 1;
          const lines = refs.get(name);
          if (!lines) refs.set(name, [line]);
          else if (lines[lines.length - 1] !== line) lines.push(line);
        }
      }
      if (cursor.gotoFirstChild()) {
        parents.push(type);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return refs;
        parents.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** True when `text` holds a NUL character: not source text. */
function _binary(text: string): boolean {
  return text.includes("\0");
}

/**
 * The symbols of `text`, the file at `path` (its language by extension), or why there are
 * none: the file is not text, its grammar did not load, the parser threw or gave no tree, or
 * the tree has syntax errors and no definition at all. A file whose grammar rtok lacks is
 * a problem too; the index lists only files {@linkcode languageOf} knows.
 */
export async function extractSymbols(path: string, text: string): Promise<Extraction> {
  const language = languageOf(path) as GrammarLanguage | null;
  if (language === null) return { ok: false, problem: "no grammar for this kind of file" };
  if (_binary(text)) return { ok: false, problem: "not text (it holds NUL bytes)" };
  let result: Extraction | null;
  try {
    result = await withTree(language, text, (rootNode): Extraction => {
      const root = rootNode as _Node;
      const symbols = treeSymbols(root, language);
      const outline: Outline = { language, parser: "tree-sitter", symbols, lines: 0 };
      const scopes = symbolScopes(outline);
      const bindings = _bindings(root, language);
      const definitions: Definition[] = [
        ...symbols.map((s, i) => ({
          name: s.name,
          kind: s.kind,
          start: s.start,
          end: s.end,
          scope: scopes[i],
        })),
        ...bindings.map((b) => b.definition),
      ].sort((a, b) => a.start - b.start || b.end - a.end);
      if (root.hasError && definitions.length === 0) {
        return { ok: false, problem: `the ${language} parse has syntax errors and no definition` };
      }
      const skip = new Set(bindings.map((b) => b.at));
      return {
        ok: true,
        symbols: { language, definitions, references: _references(root, text, skip) },
      };
    });
  } catch (e) {
    return { ok: false, problem: e instanceof Error ? e.message : String(e) };
  }
  return result ?? { ok: false, problem: `the ${language} parser gave no tree` };
}
