/**
 * One symbol of an outline, the type every outline reader returns: apart from `outline.ts` so
 * the readers it imports need not import it back.
 *
 * @module
 */

/** One symbol of an outline. */
export interface OutlineSymbol {
  /**
   * What it is: `class`, `interface`, `type`, `enum`, `function`, `method`, `constructor`,
   * `getter`, `setter`, `namespace`, `module`, `struct`, `trait`, `impl`, `union`, `record`,
   * `annotation`, `macro` (and, from the indentation outline, the declaring word: `object`…).
   */
  readonly kind: string;
  /**
   * The name exactly as the source spells it (`parse`, `#secret`, `[Symbol.iterator]`,
   * `"quoted"`, `NS.Inner`); `default` for an anonymous default export; an anonymous function
   * or class bound to a `const` is named by the binding; a Rust impl is `Trait for Type` or
   * `Type`.
   */
  readonly name: string;
  /** 1-based first line, the first decorator, attribute or `export` line included. */
  readonly start: number;
  /** 1-based last line. */
  readonly end: number;
  /** How many symbols enclose it. */
  readonly depth: number;
  /**
   * The type a method is declared on when no enclosing symbol says so: a Go method's receiver
   * type (`Parser` for `func (p *Parser) Parse()`).
   */
  readonly owner?: string;
}
