import { deepStrictEqual, match, strictEqual, throws } from "node:assert/strict";
import { groupingPath, pushUrl } from "./metrics.ts";

// The URL-safe base64 back to text, as the Pushgateway reads it.
function fromBase64Url(text: string): string {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

Deno.test("groupingPath() writes the Pushgateway README's examples", () => {
  strictEqual(
    groupingPath([["job", "some_job"], ["instance", "some_instance"]]),
    "/metrics/job/some_job/instance/some_instance",
  );
  // A value with a slash goes as base64, padded (the Pushgateway takes padding or none).
  strictEqual(
    groupingPath([["job", "directory_cleaner"], ["path", "/var/tmp"]]),
    "/metrics/job/directory_cleaner/path@base64/L3Zhci90bXA=",
  );
  // An empty value is a single `=`, never `//` or a trailing `/`.
  strictEqual(
    groupingPath([["job", "example"], ["first_label", ""], ["second_label", "foobar"]]),
    "/metrics/job/example/first_label@base64/=/second_label/foobar",
  );
  // Other characters are URI-encoded.
  strictEqual(
    groupingPath([["job", "titan"], ["name", "Προμηθεύς"]]),
    "/metrics/job/titan/name/%CE%A0%CF%81%CE%BF%CE%BC%CE%B7%CE%B8%CE%B5%CF%8D%CF%82",
  );
});

Deno.test("groupingPath() base64-encodes slashes, dot segments and the job in the URL-safe alphabet", async (t) => {
  for (
    const value of ["team/alice", "a/b?c>d~", "Προμηθεύς/ώ", "/", ".", "..", "x/../y"]
  ) {
    await t.step(JSON.stringify(value), () => {
      const path = groupingPath([["job", "rtok"], ["caller", value]]);
      const m = /^\/metrics\/job\/rtok\/caller@base64\/([A-Za-z0-9_-]+=*)$/.exec(path);
      strictEqual(m !== null, true, path);
      strictEqual(fromBase64Url(m![1]), value);
    });
  }
  const job = groupingPath([["job", "ci/nightly"]]);
  match(job, /^\/metrics\/job@base64\/[A-Za-z0-9_-]+=*$/);
  strictEqual(fromBase64Url(job.split("/").at(-1)!), "ci/nightly");
});

Deno.test("groupingPath() escapes what a path segment cannot hold and keeps the rest", () => {
  strictEqual(
    groupingPath([["job", "rtok"], ["instance", "lab a"], ["caller", "dev+x@corp?%#"]]),
    "/metrics/job/rtok/instance/lab%20a/caller/dev%2Bx%40corp%3F%25%23",
  );
  strictEqual(
    groupingPath([["job", "rtok"], ["instance", "..."]]),
    "/metrics/job/rtok/instance/...",
  );
});

Deno.test("groupingPath() refuses a key the Pushgateway would not take", () => {
  throws(() => groupingPath([["job", ""]]), {
    name: "TypeError",
    message: /job name cannot be empty/,
  });
  throws(() => groupingPath([["instance", "x"]]), {
    name: "TypeError",
    message: /starts with job/,
  });
  throws(() => groupingPath([]), { name: "TypeError", message: /starts with job/ });
  throws(() => groupingPath([["job", "j"], ["bad-name", "x"]]), {
    name: "TypeError",
    message: /"bad-name" is not a label name/,
  });
  throws(() => groupingPath([["job", "j"], ["__x", "x"]]), { name: "TypeError" });
  throws(() => groupingPath([["job", "j"], ["a", "1"], ["a", "2"]]), {
    name: "TypeError",
    message: /label a twice/,
  });
});

Deno.test("pushUrl() puts the group under the base URL, with or without trailing slashes", () => {
  const group = [["job", "rtok"], ["instance", "h"], ["caller", "c"]] as const;
  for (
    const base of ["http://127.0.0.1:9091", "http://127.0.0.1:9091/", "http://127.0.0.1:9091//"]
  ) {
    deepStrictEqual(pushUrl(base, group), {
      url: "http://127.0.0.1:9091/metrics/job/rtok/instance/h/caller/c",
      authorization: null,
    });
  }
  strictEqual(
    pushUrl("https://gw.example/pushgateway/", group).url,
    "https://gw.example/pushgateway/metrics/job/rtok/instance/h/caller/c",
  );
});

Deno.test("pushUrl() turns credentials in the URL into basic auth and never prints them", () => {
  const { url, authorization } = pushUrl("https://ops:s%3Acret@gw.example:9091/", [[
    "job",
    "rtok",
  ]]);
  strictEqual(url, "https://gw.example:9091/metrics/job/rtok");
  strictEqual(authorization, `Basic ${btoa("ops:s:cret")}`);
});

Deno.test("pushUrl() refuses what is not an http(s) base URL, naming --push", () => {
  for (const base of ["127.0.0.1:9091", "ftp://h/", "nonsense", "http://h/?a=1", "http://h/#x"]) {
    throws(() => pushUrl(base, [["job", "rtok"]]), {
      name: "TypeError",
      message: new RegExp(`^--push "${base.replace(/[.?*+^$()[\]{}|\\]/g, "\\$&")}": `),
    });
  }
});
