-- A search session's sets may live only in the memory of the server that ran it (issue 62;
-- docs/results.md "Sets held in memory"): the session row then says which answer they are.
-- sets_version names one run's answer (a new value at each run that computed its sets; kept when
-- the same answer is only written out to the set tables), so a server holding sets in memory
-- knows they are this session's current ones; kb_version is the knowledge base's kb_loads version
-- the run read, so another server recomputes the same sets from the criteria only while the
-- knowledge base is still that version.
ALTER TABLE search_sessions ADD COLUMN sets_version text, ADD COLUMN kb_version text;
