-- Schema 5 -> 6: each update's engine events, as they happen (the
-- console's update page and timeline), removed with the stack.
CREATE TABLE update_events (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  version  INTEGER NOT NULL, -- the update's seq in `updates`
  seq      INTEGER NOT NULL, -- the event's sequence number
  time_ms  INTEGER NOT NULL, -- when it was emitted, ms since the epoch
  json     TEXT NOT NULL,    -- the event as --event-log writes it
  PRIMARY KEY (stack_id, version, seq)
);
