/**
 * The opencode host: not built yet (a helper is building it). Its hook and installer say so.
 *
 * @module
 */

import type { HostAdapter } from "./host.ts";
import type { HostInstaller } from "./install.ts";

const _NOT_BUILT = "rtok does not support opencode yet";

/** The hook protocol. */
export const ADAPTER: HostAdapter = {
  id: "opencode",
  name: "opencode",
  readEvent() {
    throw new TypeError(_NOT_BUILT);
  },
  preToolAnswer: () => "",
  postToolAnswer: () => "",
};

/** The installer. */
export const INSTALLER: HostInstaller = {
  install() {
    return Promise.reject(new Error(_NOT_BUILT));
  },
  doctor: () => Promise.resolve([]),
};
