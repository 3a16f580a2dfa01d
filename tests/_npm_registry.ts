/**
 * A loopback npm registry serving a folder `scripts/npm_mirror.ts` filled: each package's
 * document, its tarball URLs pointing here, and the tarballs.
 *
 * @module
 */

import { tarballPath } from "../scripts/npm_mirror.ts";

/** A running loopback registry. */
export interface LoopbackRegistry extends AsyncDisposable {
  /** Its URL, ending in `/`. */
  readonly url: string;
  /** The paths it was asked for, in order. */
  readonly requests: string[];
}

/** Serves the mirror in `dir` on loopback until disposed. */
export function loopbackRegistry(dir: string): LoopbackRegistry {
  const requests: string[] = [];
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname.slice(1));
    requests.push(path);
    try {
      if (path.endsWith(".tgz")) return new Response(await Deno.readFile(`${dir}/${path}`));
      const doc = JSON.parse(await Deno.readTextFile(`${dir}/${path}/package.json`));
      const versions = doc.versions as Record<string, { dist: { tarball: string } }>;
      for (const [version, v] of Object.entries(versions)) {
        v.dist.tarball = `${origin}/${tarballPath({ name: doc.name, version })}`;
      }
      return Response.json(doc);
    } catch {
      return new Response("not in the mirror\n", { status: 404 });
    }
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return { url: `${origin}/`, requests, [Symbol.asyncDispose]: () => server.shutdown() };
}
