/**
 * Reading a tool's arguments the way the tool does (getopt rules), so filters can tell a flag
 * from a flag's value and defer to what the caller chose. The scanner lives with the tool
 * grammars in core, where the guard and the rewrite read it too.
 *
 * @module
 */

export {
  lastFlag,
  type OptionSpec,
  type ScannedArgs,
  type ScannedOption,
  scanOptions,
} from "../src/core/grammar/options.ts";
