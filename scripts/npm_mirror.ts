/**
 * A folder holding every npm package deno.lock pins, as the registry serves it: each package's
 * document (only the pinned versions) and each version's tarball, its integrity checked against
 * the lock. The offline install test serves it from a loopback registry, so it can install
 * rtok into an empty Deno cache with no network. Run with the network, once:
 *
 *     deno run -A scripts/npm_mirror.ts <dir>
 *
 * A package already in the folder with the right integrity is not fetched again.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { Buffer } from "node:buffer";

const _LOCK = fileURLToPath(new URL("../deno.lock", import.meta.url));
const _REGISTRY = "https://registry.npmjs.org/";

/** One pinned package version. */
export interface Pinned {
  /** The package's name (`@scope/name`). */
  readonly name: string;
  /** Its version. */
  readonly version: string;
  /** Its tarball's `sha512-…` integrity, from the lock. */
  readonly integrity: string;
}

/** The package versions a lockfile's `npm` section pins. */
export function pinnedPackages(lockText: string): Pinned[] {
  const lock = JSON.parse(lockText) as { npm?: Record<string, { integrity: string }> };
  const out = new Map<string, Pinned>();
  for (const [key, entry] of Object.entries(lock.npm ?? {})) {
    // `name@version`, or `name@version_peer@version…` for a resolution with peers.
    const at = key.indexOf("@", 1);
    const name = key.slice(0, at);
    const version = key.slice(at + 1).split("_")[0];
    out.set(`${name}@${version}`, { name, version, integrity: entry.integrity });
  }
  return [...out.values()];
}

/** The tarball's file name in the mirror and the registry: `<name>/-/<base>-<version>.tgz`. */
export function tarballPath(p: Pick<Pinned, "name" | "version">): string {
  return `${p.name}/-/${p.name.slice(p.name.lastIndexOf("/") + 1)}-${p.version}.tgz`;
}

/** The `sha512-…` integrity of `bytes`. */
export async function integrityOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return `sha512-${Buffer.from(await crypto.subtle.digest("SHA-512", bytes)).toString("base64")}`;
}

async function _fetchOk(url: string, accept?: string): Promise<Response> {
  const r = await fetch(url, accept ? { headers: { accept } } : {});
  if (!r.ok) {
    await r.body?.cancel();
    throw new Error(`GET ${url}: ${r.status}`);
  }
  return r;
}

/** Fills `dir` with every package `lockText` pins; returns how many were fetched. */
export async function mirror(dir: string, lockText: string): Promise<number> {
  const pinned = pinnedPackages(lockText);
  const byName = Map.groupBy(pinned, (p) => p.name);
  let fetched = 0;
  for (const [name, versions] of byName) {
    const docPath = `${dir}/${name}/package.json`;
    const missing: Pinned[] = [];
    for (const p of versions) {
      try {
        const have = await Deno.readFile(`${dir}/${tarballPath(p)}`);
        if (await integrityOf(have) === p.integrity) continue;
      } catch { /* not there */ }
      missing.push(p);
    }
    let haveDoc = true;
    try {
      await Deno.stat(docPath);
    } catch {
      haveDoc = false;
    }
    if (missing.length === 0 && haveDoc) continue;
    const doc = await (await _fetchOk(`${_REGISTRY}${name.replace("/", "%2f")}`)).json();
    const kept: Record<string, unknown> = {};
    for (const p of versions) kept[p.version] = doc.versions?.[p.version];
    await Deno.mkdir(`${dir}/${name}/-`, { recursive: true });
    const latest = versions.map((p) => p.version).at(-1)!;
    await Deno.writeTextFile(
      docPath,
      JSON.stringify({ name, "dist-tags": { latest }, versions: kept }),
    );
    for (const p of missing) {
      const url = `${_REGISTRY}${tarballPath(p)}`;
      const bytes = new Uint8Array(await (await _fetchOk(url)).arrayBuffer());
      const got = await integrityOf(bytes);
      if (got !== p.integrity) {
        throw new Error(`${url}: integrity ${got}, but deno.lock pins ${p.integrity}`);
      }
      await Deno.writeFile(`${dir}/${tarballPath(p)}`, bytes);
      fetched++;
    }
  }
  return fetched;
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (!dir) {
    console.error("npm_mirror: name the folder: deno run -A scripts/npm_mirror.ts <dir>");
    Deno.exit(2);
  }
  try {
    const n = await mirror(dir, await Deno.readTextFile(_LOCK));
    console.log(`npm_mirror: ${n} tarballs fetched into ${dir}`);
  } catch (e) {
    console.error(`npm_mirror: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
