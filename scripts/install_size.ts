/**
 * What `deno task install` costs on a machine that has never run rtok: it installs into an
 * empty Deno cache and a temporary root, through a loopback HTTPS proxy that counts the bytes
 * the registry sends, and reports the download, the time, and the cache's size on disk with its
 * largest packages. Needs the network (registry.npmjs.org).
 *
 *     deno run -A scripts/install_size.ts                     # this checkout's install
 *     deno run -A scripts/install_size.ts --checkout <dir>    # another checkout's (an older one)
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { joinPath } from "../src/core/paths.ts";

const _ROOT = fileURLToPath(new URL("../", import.meta.url));

/** A loopback HTTPS proxy (CONNECT tunnels) that counts what the far side sends. */
function _countingProxy(): { url: string; received: () => number; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let received = 0;
  const tunnel = async (client: Deno.Conn) => {
    try {
      const head = new Uint8Array(8192);
      let used = 0;
      let text = "";
      while (!text.includes("\r\n\r\n")) {
        const n = await client.read(head.subarray(used));
        if (n === null) return;
        used += n;
        text = new TextDecoder().decode(head.subarray(0, used));
      }
      const m = /^CONNECT ([^:\s]+):(\d+) /.exec(text);
      if (!m) return;
      const far = await Deno.connect({ hostname: m[1], port: Number(m[2]) });
      await client.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
      const counted = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          received += chunk.length;
          c.enqueue(chunk);
        },
      });
      await Promise.allSettled([
        client.readable.pipeTo(far.writable),
        far.readable.pipeThrough(counted).pipeTo(client.writable),
      ]);
    } catch {
      /* a tunnel that breaks: the install says so */
    } finally {
      try {
        client.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    for await (const conn of listener) tunnel(conn);
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () => listener.close(),
  };
}

/** Bytes under `path`, files only, symlinks not followed. */
function _size(path: string): number {
  let total = 0;
  for (const e of Deno.readDirSync(path)) {
    const p = joinPath(path, e.name);
    if (e.isDirectory) total += _size(p);
    else if (e.isFile) total += Deno.statSync(p).size;
  }
  return total;
}

const _mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

if (import.meta.main) {
  const i = Deno.args.indexOf("--checkout");
  const checkout = i >= 0 ? Deno.args[i + 1] : _ROOT;
  const dir = await Deno.makeTempDir({ prefix: "rtok-install-size-" });
  const proxy = _countingProxy();
  try {
    const t = performance.now();
    const o = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "install", "--root", `${dir}/root`],
      cwd: checkout,
      env: { DENO_DIR: `${dir}/cache`, HTTPS_PROXY: proxy.url, NO_PROXY: "127.0.0.1" },
      stdout: "null",
      stderr: "inherit",
    }).output();
    const s = (performance.now() - t) / 1000;
    if (!o.success) throw new Error(`the install failed (exit ${o.code})`);
    const npm = joinPath(`${dir}/cache`, "npm/registry.npmjs.org");
    const packages = [...Deno.readDirSync(npm)].flatMap((e) =>
      e.name.startsWith("@")
        ? [...Deno.readDirSync(joinPath(npm, e.name))].map((f) => `${e.name}/${f.name}`)
        : [e.name]
    );
    const sized = packages.map((p) => [p, _size(joinPath(npm, p))] as const)
      .sort((a, b) => b[1] - a[1]);
    console.log(`deno task install from ${checkout}: ${s.toFixed(1)} s`);
    console.log(`  downloaded ${_mb(proxy.received())} (registry documents and tarballs)`);
    console.log(`  Deno cache ${_mb(_size(`${dir}/cache`))}, ${packages.length} npm packages`);
    console.log(
      `  largest: ${sized.slice(0, 6).map(([p, n]) => `${p} ${_mb(n)}`).join(", ")}`,
    );
  } catch (e) {
    console.error(`install_size: ${(e as Error).message}`);
    Deno.exitCode = 1;
  } finally {
    proxy.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
