-- The guard plugin's interventions: one row each time it rewrote a shell command to a cheaper
-- one or answered with a reason naming one. false_block is set when the agent re-issued the
-- same command as its next shell call (the rule then stops in that project).
CREATE TABLE interventions (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,            -- unix epoch, milliseconds
  project TEXT NOT NULL,          -- the project directory, canonical
  session TEXT,
  rule TEXT NOT NULL,             -- cat-large, grep-vendor, find-vendor, tree-vendor, root-search, verbose
  command TEXT NOT NULL,          -- the line as the agent wrote it
  action TEXT NOT NULL CHECK (action IN ('rewrite', 'reason')),
  false_block INTEGER NOT NULL DEFAULT 0 CHECK (false_block IN (0, 1))
);
CREATE INDEX interventions_project ON interventions (project, ts);
CREATE INDEX interventions_session ON interventions (session, ts);
