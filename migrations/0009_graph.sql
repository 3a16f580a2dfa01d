-- The graph plugin's symbol index, per project (the git root, else the directory): each source
-- file with the mtime and size it was read at, what it defines and the names it uses. A file a
-- grammar could not read keeps its row, with the problem, and nothing else.
CREATE TABLE graph_projects (
  id INTEGER PRIMARY KEY,
  root TEXT NOT NULL UNIQUE,      -- canonical
  updated INTEGER NOT NULL        -- unix epoch, milliseconds
);
CREATE TABLE graph_files (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL,
  path TEXT NOT NULL,             -- relative to the root
  mtime INTEGER NOT NULL,         -- milliseconds
  size INTEGER NOT NULL,
  language TEXT NOT NULL,
  problem TEXT,                   -- why it is indexed by nothing, when it is
  UNIQUE (project_id, path)
);
CREATE TABLE graph_defs (
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,             -- function, class, method, interface, type, struct, const…
  scope TEXT NOT NULL,            -- what the name is qualified through, or ''
  start_line INTEGER NOT NULL,    -- 1-based, true lines
  end_line INTEGER NOT NULL
);
CREATE INDEX graph_defs_name ON graph_defs (name);
CREATE INDEX graph_defs_file ON graph_defs (file_id);
-- One row per name per file: the lines it is used on, ascending, comma-separated.
CREATE TABLE graph_refs (
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  lines TEXT NOT NULL
);
CREATE INDEX graph_refs_name ON graph_refs (name);
CREATE INDEX graph_refs_file ON graph_refs (file_id);
