-- The memory plugin's digests: each session's latest digest, built at PreCompact from its
-- transcript (rtok memory prints it). No timestamp in the text; built_at beside it.
CREATE TABLE digests (
  session TEXT PRIMARY KEY,
  project TEXT NOT NULL,
  built_at INTEGER NOT NULL,
  compact_trigger TEXT,
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  lines INTEGER NOT NULL DEFAULT 0,
  bad_lines INTEGER NOT NULL DEFAULT 0,
  unknown_lines INTEGER NOT NULL DEFAULT 0,
  note TEXT
);
CREATE INDEX digests_project ON digests (project, built_at);
