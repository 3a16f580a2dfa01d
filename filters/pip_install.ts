/**
 * `pip install` (also `pip3 install`, `python -m pip install`): what was installed
 * (`Successfully installed a-1.0 b-2.0`), what was uninstalled to make room, what was already
 * there (named and counted on one line), wheels that failed to build with the build's own output,
 * every `ERROR:` and `WARNING:` (repeated retries folded into one line with a count), and pip's
 * conflict report. Cut and named: the per-package `Collecting`/`Processing`/`Downloading` lines
 * and their progress bars (the installed list names them), the build steps that went well
 * (`Building wheel …: finished with status 'done'`, `Created wheel …`, `Stored in directory …`),
 * `Looking in indexes/links`, the frames of pip's own code in a build's traceback, pip's upgrade
 * notice, the root-user warning and pip's generic advice. pip prints its progress on stdout and
 * its warnings and errors on stderr: the filter reads either.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { clip, Cuts, screenLines } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

/** Longest `Requirement already satisfied` list shown whole; the rest are counted. */
export const PIP_SATISFIED_SHOWN: number = 30;

const FETCH =
  /^(?:Collecting|Processing|Downloading|Obtaining|Using cached|Looking in (?:indexes|links):) /;
const FETCH_DETAIL =
  /^\s+(?:Downloading|Using cached|File was already downloaded|Saved) |^\s+[━╸╺\s-]*━[━╸╺\s-]*\s+[\d.]+\/[\d.]+ [kMG]?B|^\s+\|[█▌ ]*\|/;
// `  Preparing metadata (pyproject.toml) ... done` (tty) or `…: started` / `…: finished with
// status 'done'` (piped); a step that ended otherwise stays.
const STEP_OK =
  /^\s+(?:Installing build dependencies|Getting requirements to build (?:wheel|editable)|Installing backend dependencies|Preparing (?:editable )?metadata \([\w.]+\)|Building (?:editable|wheel) for \S+ \([\w.]+\))(?:: started| \.\.\. done|: finished with status 'done')$/;
const BUILT =
  /^\s+(?:Created wheel for \S+: |Stored in directory: |Running setup\.py (?:install|develop|clean) for \S+(?: \.\.\. done)?$)/;
const BUILDING = /^Building wheels for collected packages: /;
const SATISFIED =
  /^Requirement already satisfied: (\S+?)(?:[<>=!~;[].*?)? in \S+(?: \(from .*?\))? \(([^()]+)\)$/;
const INSTALLING = /^Installing collected packages: /;
const INSTALLED = /^Successfully installed /;
const UNINSTALL =
  /^\s+(?:Attempting uninstall: \S+|Found existing installation: .+|Uninstalling \S+:)$/;
const UNINSTALLED = /^\s+Successfully uninstalled (\S+)$/;
const RETRY =
  /^WARNING: Retrying \(Retry\(total=\d+.*?\)\) after connection broken by '(.*)': (\S+)$/;
const NOTICE = /^\[notice\] /;
const ROOT_WARNING = /^WARNING: Running pip as the 'root' user can result in broken permissions/;
const UPGRADE_WARNING =
  /^WARNING: You are using pip version .*; however, version .* is available\.$/;
const UPGRADE_HINT = /^You should consider upgrading via the '.*' command\.$/;
const FIX_ADVICE = /^To fix this you could try to:$/;
const ADVICE_ITEM = /^\d\. (?:loosen the range|remove package versions)/;
const SUBPROCESS_NOTE =
  /^\s*note: This (?:error originates from a subprocess|is an issue with the package mentioned above), .*$/;
const SEE_ABOVE = /^\s*(?:╰─> See above for output\.|hint: See above for details\.)$/;
const LOOKING =
  /^INFO: pip is looking at multiple versions of .* to determine which version is compatible with other requirements\. This could take a while\.$/;
// A Python traceback frame inside pip itself, in a build's captured output.
const PIP_FRAME =
  /^(\s+)File ".*\/(?:site-packages\/pip|pip\/_vendor|pip\/_internal)\/[^"]*", line \d+, in /;

/** Why these `pip install` arguments ask for a machine format, or `null`. */
export function pipInstallPassthrough(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    if (arg === "--report" || arg.startsWith("--report=")) {
      const target = arg === "--report" ? args[i + 1] : arg.slice("--report=".length);
      if (target === "-") return "the caller asked for the JSON report on stdout (--report -)";
    }
  }
  return null;
}

/** Filters what `pip install` printed, on either stream; see the module doc. */
export function filterPipInstall(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  const satisfied: string[] = [];
  let satisfiedAt = -1;
  let satisfiedLine = -1;
  const replaced: string[] = [];
  let replacedAt = -1;
  let replacedLine = -1;
  const installed = lines.some((line) => INSTALLED.test(line));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    if (FETCH.test(line) || FETCH_DETAIL.test(line)) {
      cuts.add("fetch lines");
      continue;
    }
    if (STEP_OK.test(line) || BUILT.test(line) || BUILDING.test(line)) {
      cuts.add("build steps");
      continue;
    }
    if (/^Successfully built /.test(line)) {
      cuts.add("build steps");
      continue;
    }
    if (INSTALLING.test(line)) {
      // The installed line names them again, unless the install stopped part way.
      if (installed) continue;
      out.push(line);
      continue;
    }
    const sat = SATISFIED.exec(line);
    if (sat) {
      if (satisfiedAt < 0) [satisfiedAt, satisfiedLine] = [out.length, i];
      satisfied.push(`${sat[1]} ${sat[2]}`);
      continue;
    }
    if (UNINSTALL.test(line)) continue;
    const gone = UNINSTALLED.exec(line);
    if (gone) {
      if (replacedAt < 0) [replacedAt, replacedLine] = [out.length, i];
      replaced.push(gone[1]);
      continue;
    }
    if (NOTICE.test(line) || UPGRADE_WARNING.test(line) || UPGRADE_HINT.test(line)) {
      cuts.add("pip upgrade notice");
      continue;
    }
    if (ROOT_WARNING.test(line)) {
      cuts.add("root-user warning");
      continue;
    }
    if (LOOKING.test(line)) {
      cuts.add("resolver notes");
      continue;
    }
    if (
      FIX_ADVICE.test(line) || ADVICE_ITEM.test(line) || SUBPROCESS_NOTE.test(line) ||
      SEE_ABOVE.test(line)
    ) {
      cuts.add("pip advice");
      continue;
    }
    const retry = RETRY.exec(line);
    if (retry) {
      let count = 1;
      while (RETRY.exec(lines[i + 1] ?? "")?.[2] === retry[2]) {
        count++;
        i++;
      }
      // `NewConnectionError('<…HTTPSConnection object at 0x7f…>: Failed to establish…')`.
      const reason = retry[1].replace(/'?<[\w.]+ object at 0x[0-9a-f]+>: /, "'");
      out.push(
        `WARNING: ${count} ${count === 1 ? "retry" : "retries"} after connection broken by '${
          clip(reason, 160)
        }': ${retry[2]}`,
      );
      continue;
    }
    const frame = PIP_FRAME.exec(line);
    if (frame) {
      // The frame's code line and caret line sit deeper than the `File` line.
      while (
        i + 1 < lines.length && lines[i + 1].startsWith(frame[1] + " ") &&
        !/^\s+File "/.test(lines[i + 1])
      ) i++;
      cuts.add("pip frames");
      continue;
    }
    out.push(line);
  }
  // [where in the output, which input line, text]: later ones first, so indexes stay right.
  const inserts: [number, number, string][] = [];
  if (satisfied.length) {
    const shown = satisfied.slice(0, PIP_SATISFIED_SHOWN);
    const more = satisfied.length - shown.length;
    if (more > 0) cuts.add("already-satisfied names");
    inserts.push([
      satisfiedAt,
      satisfiedLine,
      `Requirement already satisfied (${satisfied.length}): ${shown.join(", ")}${
        more > 0 ? `, +${more} more` : ""
      }`,
    ]);
  }
  if (replaced.length) {
    inserts.push([replacedAt, replacedLine, `Successfully uninstalled ${replaced.join(" ")}`]);
  }
  inserts.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  for (const [at, , text] of inserts) out.splice(at, 0, text);
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

function pipInstallFamily(name: string): CommandFilter {
  return {
    name,
    textClass: "log",
    filterStderr: true,
    passthrough: pipInstallPassthrough,
    filter: filterPipInstall,
  };
}

/** The `pip install` filter (also `python -m pip install`). */
export const pipInstallFilter: CommandFilter = pipInstallFamily("pip install");
/** The `pip3 install` filter. */
export const pip3InstallFilter: CommandFilter = pipInstallFamily("pip3 install");

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "pip install": { filter: pipInstallFilter, rewrite: NOT_READ_ONLY, saving: 78 },
  "pip3 install": { filter: pip3InstallFilter, rewrite: NOT_READ_ONLY, saving: 74 },
};
