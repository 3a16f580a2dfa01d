/**
 * The dashboard's HTML shell: the page its script fills, with the ledger and the project
 * written in as text.
 *
 * @module
 */

import { VERSION } from "../_help.ts";

/** `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in text and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's HTML: a shell the script fills; the ledger and project written in escaped. */
export function pageHtml(ledger: string, project: string | null): string {
  const scope = project === null ? "all projects" : `project ${project}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rtok dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard.css">
<script src="/dashboard.js" defer></script>
</head>
<body>
<header>
  <h1>rtok dashboard</h1>
  <p class="meta"><span id="scope">${escapeHtml(scope)}</span> · ledger
    <code id="ledger">${escapeHtml(ledger)}</code> (read-only) ·
    <span id="status" data-state="loading">loading…</span></p>
</header>
<main id="app">
  <noscript>This page draws its figures with JavaScript; rtok gain prints the same ones.</noscript>
</main>
<footer>rtok ${escapeHtml(VERSION)} · estimated figures are rtok's counts by text class;
  real ones are the providers' usage, as the proxy recorded it.</footer>
</body>
</html>
`;
}
