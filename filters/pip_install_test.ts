import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  filterPipInstall,
  pip3InstallFilter,
  PIP_SATISFIED_SHOWN,
  pipInstallFilter,
  pipInstallPassthrough,
} from "./pip_install.ts";

const OK = { args: [], shaped: false, exitCode: 0 };
const FAILED = { args: [], shaped: false, exitCode: 1 };

const LOCAL = `Looking in links: /tmp/wheels
Processing ./shop-tools
  Installing build dependencies ... done
  Getting requirements to build wheel: started
  Getting requirements to build wheel: finished with status 'done'
  Preparing metadata (pyproject.toml): started
  Preparing metadata (pyproject.toml): finished with status 'done'
Collecting requests>=2 (from shop-tools==0.3.0)
  Downloading requests-2.31.0-py3-none-any.whl (62 kB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 62.6/62.6 kB 4.1 MB/s eta 0:00:00
Requirement already satisfied: idna<4,>=2.5 in ./.venv/lib/python3.11/site-packages (from requests>=2->shop-tools==0.3.0) (3.6)
Requirement already satisfied: certifi>=2017.4.17 in ./.venv/lib/python3.11/site-packages (from requests>=2) (2024.2.2)
Building wheels for collected packages: shop-tools
  Building wheel for shop-tools (pyproject.toml): started
  Building wheel for shop-tools (pyproject.toml): finished with status 'done'
  Created wheel for shop-tools: filename=shop_tools-0.3.0-py3-none-any.whl size=1165 sha256=10982300
  Stored in directory: /root/.cache/pip/wheels/23/20/c4/e3c13d01
Successfully built shop-tools
Installing collected packages: requests, shop-tools
  Running setup.py install for legacy-pkg ... done
  Attempting uninstall: requests
    Found existing installation: requests 2.28.0
    Uninstalling requests-2.28.0:
      Successfully uninstalled requests-2.28.0
Successfully installed requests-2.31.0 shop-tools-0.3.0
WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv

[notice] A new release of pip is available: 23.2.1 -> 24.0
[notice] To update, run: pip install --upgrade pip
`;

Deno.test("pipInstallFilter keeps what was installed, replaced and already there", () => {
  const out = filterPipInstall(LOCAL, OK);
  strictEqual(
    out.text,
    "Requirement already satisfied (2): idna 3.6, certifi 2024.2.2\n" +
      "Successfully uninstalled requests-2.28.0\n" +
      "Successfully installed requests-2.31.0 shop-tools-0.3.0\n",
  );
  deepStrictEqual(out.cut, [
    "fetch lines",
    "build steps",
    "root-user warning",
    "pip upgrade notice",
  ]);
});

Deno.test("pipInstallFilter folds connection retries into one line with their count", () => {
  const retry = (n: number) =>
    `WARNING: Retrying (Retry(total=${n}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f23bd8${n}1950>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/requests/`;
  const raw = [4, 3, 2, 1, 0].map(retry).join("\n") + `
ERROR: Could not find a version that satisfies the requirement requests==2.31.0 (from versions: none)
ERROR: No matching distribution found for requests==2.31.0
`;
  const out = filterPipInstall(raw, FAILED);
  strictEqual(
    out.text,
    "WARNING: 5 retries after connection broken by 'NewConnectionError('Failed to establish a new " +
      "connection: [Errno -2] Name or service not known')': /simple/requests/\n" +
      "ERROR: Could not find a version that satisfies the requirement requests==2.31.0 (from versions: none)\n" +
      "ERROR: No matching distribution found for requests==2.31.0\n",
  );
  deepStrictEqual(out.cut, []);
});

Deno.test("pipInstallFilter keeps a conflict report without pip's advice", () => {
  const raw = `Processing ./shop-tools
INFO: pip is looking at multiple versions of shop-tools to determine which version is compatible with other requirements. This could take a while.
ERROR: Cannot install shop-tools==0.3.0 and tiny-dep==2.0.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    The user requested tiny-dep==2.0.0
    shop-tools 0.3.0 depends on tiny-dep<2

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
`;
  strictEqual(
    filterPipInstall(raw, FAILED).text,
    `ERROR: Cannot install shop-tools==0.3.0 and tiny-dep==2.0.0 because these package versions have conflicting dependencies.
The conflict is caused by:
    The user requested tiny-dep==2.0.0
    shop-tools 0.3.0 depends on tiny-dep<2
ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
`,
  );
});

Deno.test("pipInstallFilter keeps a failed build's own output without pip's frames", () => {
  const raw = `  error: subprocess-exited-with-error
  
  × Building wheel for fast-parse (pyproject.toml) did not run successfully.
  │ exit code: 1
  ╰─> [9 lines of output]
      Traceback (most recent call last):
        File "/app/.venv/lib/python3.11/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py", line 353, in <module>
          main()
        File "/app/fast-parse/backend.py", line 15, in build_wheel
          raise RuntimeError("gcc failed")
      RuntimeError: gcc failed
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for fast-parse
Failed to build fast-parse
ERROR: Could not build wheels for fast-parse, which is required to install pyproject.toml-based projects
`;
  const out = filterPipInstall(raw, FAILED);
  strictEqual(
    out.text,
    `  error: subprocess-exited-with-error
  × Building wheel for fast-parse (pyproject.toml) did not run successfully.
  │ exit code: 1
  ╰─> [9 lines of output]
      Traceback (most recent call last):
        File "/app/fast-parse/backend.py", line 15, in build_wheel
          raise RuntimeError("gcc failed")
      RuntimeError: gcc failed
      [end of output]
  ERROR: Failed building wheel for fast-parse
Failed to build fast-parse
ERROR: Could not build wheels for fast-parse, which is required to install pyproject.toml-based projects
`,
  );
  deepStrictEqual(out.cut, ["pip frames", "pip advice"]);
});

Deno.test("pipInstallFilter keeps the install list when the install stopped part way", () => {
  const raw = `Installing collected packages: a, b
ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied
`;
  strictEqual(filterPipInstall(raw, FAILED).text, raw);
});

Deno.test("pipInstallFilter counts already-satisfied requirements past its cap", () => {
  const raw = Array.from(
    { length: PIP_SATISFIED_SHOWN + 2 },
    (_, i) =>
      `Requirement already satisfied: p${i} in ./venv/lib/python3.11/site-packages (1.${i})`,
  ).join("\n") + "\n";
  const out = filterPipInstall(raw, OK);
  ok(out.text.startsWith(`Requirement already satisfied (${PIP_SATISFIED_SHOWN + 2}): p0 1.0, `));
  ok(out.text.endsWith(", +2 more\n"));
  deepStrictEqual(out.cut, ["already-satisfied names"]);
});

Deno.test("pipInstallFilter handles -q output, ANSI and empty output", () => {
  strictEqual(filterPipInstall("", OK).text, "");
  strictEqual(
    filterPipInstall("\x1b[31mERROR: No matching distribution found for x\x1b[0m\n", FAILED).text,
    "ERROR: No matching distribution found for x\n",
  );
});

Deno.test("pipInstallFilter is idempotent", () => {
  const once = filterPipInstall(LOCAL, OK).text;
  strictEqual(filterPipInstall(once, OK).text, once);
});

Deno.test("pipInstallPassthrough defers to a JSON report on stdout", () => {
  ok(pipInstallPassthrough(["--report", "-", "x"]));
  ok(pipInstallPassthrough(["--report=-"]));
  strictEqual(pipInstallPassthrough(["--report", "out.json"]), null);
  strictEqual(pipInstallPassthrough(["-r", "requirements.txt"]), null);
});

Deno.test("pip install and pip3 install share the filter and read stderr", () => {
  deepStrictEqual([pipInstallFilter.name, pip3InstallFilter.name], ["pip install", "pip3 install"]);
  strictEqual(pipInstallFilter.filterStderr, true);
});
