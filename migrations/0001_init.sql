-- The ledger: one row per run. Measurements only, never content.
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,            -- unix epoch, milliseconds
  surface TEXT NOT NULL,          -- cli | hook | mcp | proxy
  plugin TEXT NOT NULL,           -- the plugin that produced the output
  family TEXT NOT NULL,           -- "git log", "grep"; the tool's own name for a passthrough
  command TEXT NOT NULL,          -- the command as given
  rtok_command TEXT NOT NULL,     -- its rtok form
  project TEXT NOT NULL,          -- the working directory, canonical
  session TEXT,
  turn INTEGER,
  raw_chars INTEGER NOT NULL,
  emitted_chars INTEGER NOT NULL,
  raw_tokens INTEGER NOT NULL,    -- estimates, by text class
  emitted_tokens INTEGER NOT NULL,
  text_class TEXT NOT NULL,
  stage TEXT NOT NULL,            -- none | shape | filter | shape+filter
  lossy INTEGER NOT NULL,
  archive_id TEXT,
  exit_code INTEGER,
  elapsed_ms REAL NOT NULL,
  passthrough TEXT                -- why the output was not filtered, when it was not
);
CREATE INDEX runs_ts ON runs (ts);
CREATE INDEX runs_project ON runs (project);

-- Filters that threw: the raw output went out instead.
CREATE TABLE failures (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  surface TEXT NOT NULL,
  plugin TEXT NOT NULL,
  family TEXT NOT NULL,
  command TEXT NOT NULL,
  error TEXT NOT NULL,
  fallback_ok INTEGER NOT NULL
);
CREATE INDEX failures_ts ON failures (ts);

-- Raw outputs kept under $RTOK_HOME/archive/<sha256>; the bytes are never in the database.
CREATE TABLE archive (
  id TEXT PRIMARY KEY,            -- the first 12 hex digits of sha256
  sha256 TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  command TEXT NOT NULL,
  cwd TEXT NOT NULL,
  exit_code INTEGER,
  family TEXT,                    -- the filter whose cut sent it here
  created INTEGER NOT NULL        -- unix epoch, milliseconds; refreshed when archived again
);
CREATE INDEX archive_created ON archive (created);

-- Every time an archived output was asked for again.
CREATE TABLE expands (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  archive_id TEXT NOT NULL,
  surface TEXT NOT NULL
);
CREATE INDEX expands_archive ON expands (archive_id);
