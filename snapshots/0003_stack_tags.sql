-- Schema 2 -> 3: stack tags (`stack tag set|get|rm|ls`, `stack ls --tag`).
CREATE TABLE stack_tags (
  stack_id INTEGER NOT NULL REFERENCES stacks(id) ON DELETE CASCADE,
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (stack_id, name)
);
