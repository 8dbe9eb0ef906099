-- Alerts on new data for saved searches, and in-app notifications (issue 17).
-- A saved search with `alert` is counted again after every finished load of the knowledge base,
-- restricted to rows first brought in by loads after `alert_since_load` (the last load the user
-- was told about, or the newest load when the alert was switched on). `alert_last_count` keeps
-- the activity count of the last check that found new rows, for the saved-search list.
ALTER TABLE saved_criteria
  ADD COLUMN alert            boolean NOT NULL DEFAULT false,
  ADD COLUMN alert_since_load bigint,
  ADD COLUMN alert_last_count integer;
CREATE INDEX saved_criteria_alert_idx ON saved_criteria (criteria_id) WHERE alert;

-- A notification says what kind it is and, for an alert, which saved search and which window of
-- loads (since_load, load_id] it counted; `link` is an app path the notification opens.
ALTER TABLE notifications
  ADD COLUMN kind              text NOT NULL DEFAULT 'message',
  ADD COLUMN link              text,
  ADD COLUMN saved_criteria_id integer REFERENCES saved_criteria(criteria_id) ON DELETE SET NULL,
  ADD COLUMN since_load        bigint,
  ADD COLUMN load_id           bigint,
  ADD COLUMN counts            jsonb;
CREATE INDEX notifications_user_recent_idx ON notifications (user_id, id DESC);
-- One alert notification per saved search and load: a re-check never notifies twice.
CREATE UNIQUE INDEX notifications_alert_once ON notifications (saved_criteria_id, load_id) WHERE kind = 'alert';

-- A search session opened from an alert holds only the rows of loads (new_since_load, new_until_load].
ALTER TABLE search_sessions
  ADD COLUMN new_since_load bigint,
  ADD COLUMN new_until_load bigint;

-- The restriction reads rows by the load that brought them in.
CREATE INDEX activities_alert_load_idx ON activities (load_id) WHERE load_id IS NOT NULL;
CREATE INDEX structures_alert_load_idx ON structures (load_id) WHERE load_id IS NOT NULL;

-- migrate:down
DROP INDEX structures_alert_load_idx;
DROP INDEX activities_alert_load_idx;
ALTER TABLE search_sessions DROP COLUMN new_until_load, DROP COLUMN new_since_load;
DROP INDEX notifications_alert_once;
DROP INDEX notifications_user_recent_idx;
ALTER TABLE notifications DROP COLUMN counts, DROP COLUMN load_id, DROP COLUMN since_load, DROP COLUMN saved_criteria_id, DROP COLUMN link, DROP COLUMN kind;
DROP INDEX saved_criteria_alert_idx;
ALTER TABLE saved_criteria DROP COLUMN alert_last_count, DROP COLUMN alert_since_load, DROP COLUMN alert;
