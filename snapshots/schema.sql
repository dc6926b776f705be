-- The minipulumi state store: the current schema (version 5).
-- A fresh store is created from this file; an older store is brought up to
-- date by the migrations NNNN_*.sql, each moving schema NNNN-1 to NNNN. The
-- schema version lives in PRAGMA user_version and the file is marked as
-- ours by PRAGMA application_id (both set by src/state/sqlite_db.c).

-- A stack: project + short name, with its secrets provider.
CREATE TABLE stacks (
  id            INTEGER PRIMARY KEY,
  project       TEXT NOT NULL,
  name          TEXT NOT NULL,
  secrets_type  TEXT,
  secrets_state TEXT,
  created       TEXT NOT NULL,
  UNIQUE (project, name)
);

-- The selected stack of each project.
CREATE TABLE selected (
  project TEXT PRIMARY KEY,
  name    TEXT NOT NULL
);

-- One row per entry of the checkpoint's `resources` list, as checkpoint
-- JSON (secrets encrypted). `ord` orders the list: each deployment inserts
-- its new states below every existing ord (docs/behaviour.md,
-- "The checkpoint").
CREATE TABLE resources (
  id        INTEGER PRIMARY KEY,
  stack_id  INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  ord       INTEGER NOT NULL,
  urn       TEXT NOT NULL,
  is_delete INTEGER NOT NULL DEFAULT 0,
  json      TEXT NOT NULL
);
CREATE INDEX resources_by_ord ON resources(stack_id, ord);

-- The checkpoint's `pending_operations`, in insertion (id) order.
CREATE TABLE pending (
  id       INTEGER PRIMARY KEY,
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  type     TEXT NOT NULL,
  json     TEXT NOT NULL
);
CREATE INDEX pending_by_stack ON pending(stack_id, id);

-- At most one writer per stack.
CREATE TABLE locks (
  stack_id  INTEGER PRIMARY KEY REFERENCES stacks(id) ON DELETE CASCADE,
  pid       INTEGER NOT NULL,
  host      TEXT NOT NULL,
  time      TEXT NOT NULL,
  operation TEXT NOT NULL
);

-- Update history: one row per operation that wrote the stack.
CREATE TABLE updates (
  stack_id   INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  message    TEXT,
  start_time TEXT NOT NULL,
  end_time   TEXT,
  result     TEXT NOT NULL,
  n_same     INTEGER NOT NULL DEFAULT 0,
  n_create   INTEGER NOT NULL DEFAULT 0,
  n_update   INTEGER NOT NULL DEFAULT 0,
  n_delete   INTEGER NOT NULL DEFAULT 0,
  n_replace  INTEGER NOT NULL DEFAULT 0,
  n_read     INTEGER NOT NULL DEFAULT 0,
  n_import   INTEGER NOT NULL DEFAULT 0,
  n_refresh  INTEGER NOT NULL DEFAULT 0,
  n_discard  INTEGER NOT NULL DEFAULT 0,
  environment TEXT, -- UpdateInfo.environment, JSON
  config      TEXT, -- UpdateInfo.config, JSON
  PRIMARY KEY (stack_id, seq)
);

-- A stack's tags (`stack tag`), by name.
CREATE TABLE stack_tags (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (stack_id, name)
);

-- The snapshot's `extensions`: each extension package its resources name
-- in their extensionRef (its name, version and base64 value as JSON,
-- Pulumi's apitype.Extension), by reference.
CREATE TABLE extensions (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  ref      TEXT NOT NULL,
  json     TEXT NOT NULL,
  PRIMARY KEY (stack_id, ref)
);

-- Each update's engine events, as they happen (migration 0006).
CREATE TABLE update_events (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  version  INTEGER NOT NULL, -- the update's seq in `updates`
  seq      INTEGER NOT NULL, -- the event's sequence number
  time_ms  INTEGER NOT NULL, -- when it was emitted, ms since the epoch
  json     TEXT NOT NULL,    -- the event as --event-log writes it
  PRIMARY KEY (stack_id, version, seq)
);
