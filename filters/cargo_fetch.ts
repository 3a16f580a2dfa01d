/**
 * `cargo fetch`: the lock changes (`Locking 18 packages …`, `Adding thiserror v1.0.64
 * (available: v2.0.3)`, `Updating`/`Removing` a locked package), the crates downloaded on one line
 * per source, sorted by name (cargo's order follows its parallel downloads), and every warning and
 * error with the lines that carry it on. Cut and named: the download timing. The
 * `Updating … index`, `Downloading crates ...` and `Blocking waiting for file lock` progress
 * lines go silently. cargo prints all of this on stderr.
 *
 * @module
 */

import type { CommandFilter, Filtered, FilterInput } from "../src/core/filter.ts";
import { Cuts, screenLines } from "./_pm.ts";
import { type FamilyDeclarations, NOT_READ_ONLY } from "../src/core/family.ts";

// Cargo's status lines: a verb right-aligned in 12 columns, then what it did.
const STATUS =
  /^ {0,11}(Updating|Locking|Adding|Removing|Upgrading|Downgrading|Downloading|Downloaded|Blocking|Unpacking|Vendoring) (.*)$/;
const INDEX_UPDATE = /^`[^`]+` index$|^crates\.io index$|^git repository `/;
const DOWNLOADED_CRATE = /^(\S+ v\d\S*)(?: \((.+)\))?$/;
const DOWNLOADED_TOTAL = /^(\d+ crates? \([^)]*\))(?: in \d+(?:\.\d+)?m?s)?$/;

/** Filters what `cargo fetch` printed; see the module doc. */
export function filterCargoFetch(raw: string, _input?: FilterInput): Filtered {
  const lines = screenLines(raw);
  const cuts = new Cuts();
  const out: string[] = [];
  const bySource = new Map<string, string[]>();
  let downloadsAt = -1;
  let total = "";
  for (const line of lines) {
    if (line.trim() === "") continue;
    const status = STATUS.exec(line);
    if (status) {
      const [, verb, rest] = status;
      if (verb === "Updating" && INDEX_UPDATE.test(rest)) continue;
      if (verb === "Downloading" && rest === "crates ...") continue;
      if (verb === "Blocking" && /^waiting for file lock/.test(rest)) continue;
      if (verb === "Downloaded") {
        const crate = DOWNLOADED_CRATE.exec(rest);
        const sum = DOWNLOADED_TOTAL.exec(rest);
        if (crate) {
          if (downloadsAt < 0) downloadsAt = out.length;
          const source = crate[2] ?? "";
          const list = bySource.get(source) ?? [];
          list.push(crate[1]);
          bySource.set(source, list);
          continue;
        }
        if (sum) {
          if (sum[0] !== sum[1]) cuts.add("timing");
          total = sum[1];
          if (downloadsAt < 0) downloadsAt = out.length;
          continue;
        }
      }
      out.push(`${verb} ${rest}`);
      continue;
    }
    out.push(line);
  }
  if (downloadsAt >= 0) {
    const groups = [...bySource].map(([source, crates]) =>
      `Downloaded ${crates.length}${source ? ` from ${source}` : ""}: ${crates.sort().join(", ")}`
    );
    if (total) groups.unshift(`Downloaded ${total}`);
    out.splice(downloadsAt, 0, ...groups);
  }
  return { text: out.length ? out.join("\n") + "\n" : "", cut: cuts.list() };
}

/** The `cargo fetch` filter. */
export const cargoFetchFilter: CommandFilter = {
  name: "cargo fetch",
  textClass: "log",
  filterStderr: true,
  filter: filterCargoFetch,
};

/**
 * The families this module serves. Package managers write dependencies, lockfiles, caches and environments, and run install scripts; script runners run the project's code: never rewritten as read-only.
 */
export const FAMILIES: FamilyDeclarations = {
  "cargo fetch": { filter: cargoFetchFilter, rewrite: NOT_READ_ONLY, saving: 62 },
};
