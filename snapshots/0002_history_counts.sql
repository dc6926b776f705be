-- Schema 1 -> 2: the update history records the step counts of each
-- operation, and pending operations get an index by stack.
ALTER TABLE updates ADD COLUMN n_same INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_create INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_update INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_delete INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_replace INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_read INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_import INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_refresh INTEGER NOT NULL DEFAULT 0;
ALTER TABLE updates ADD COLUMN n_discard INTEGER NOT NULL DEFAULT 0;
CREATE INDEX pending_by_stack ON pending(stack_id, id);
