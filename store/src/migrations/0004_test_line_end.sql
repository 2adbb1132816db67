-- Schema version 4 of state.db: a test run's outcome is known only from its own exit status.
-- Applied once, inside one transaction, by db::migrate.

-- For a command that ran tests but did not run them last (`pytest -q | tail -3`, `cd t && pytest;
-- echo done`), the program the line ends with: the line's exit status is that program's, so a
-- handoff says the tests ran without calling them passed or failed. NULL when the tests ran last
-- (their exit status is the line's) and for other commands.
ALTER TABLE session_commands ADD COLUMN ends_with TEXT;
