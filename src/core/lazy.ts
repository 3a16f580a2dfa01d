/**
 * Lazy module loading that costs nothing until it runs. Deno walks the whole graph of a
 * literal `import("./x.ts")` as soon as the importing module loads, so every rtok process
 * would pay (in parsing and cache lookups) for code only some of them run; a computed
 * specifier is walked only when the import happens.
 *
 * @module
 */

/**
 * Imports the module at `url` (build it with `new URL("./x.ts", import.meta.url)`); the type
 * argument names the module for the type checker: `lazyImport<typeof import("./x.ts")>(…)`.
 */
export function lazyImport<M>(url: URL): Promise<M> {
  return import(url.href);
}
