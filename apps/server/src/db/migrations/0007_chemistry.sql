-- Chemistry engine (structure search). Hits of a substructure or similarity query are written
-- here for the few seconds the search's SQL needs them (a 2-million-id list is a poor bind
-- parameter), then deleted; similarity values are copied to the session's structure set so the
-- results can be sorted by similarity.
CREATE UNLOGGED TABLE structure_hits (
  hit_id     bigint NOT NULL,
  str_id     bigint NOT NULL,
  similarity real,
  created_at timestamptz NOT NULL DEFAULT now(),  -- hits of a crashed run are swept after an hour
  PRIMARY KEY (hit_id, str_id)
);

ALTER TABLE search_structures ADD COLUMN similarity real;

-- migrate:down
ALTER TABLE search_structures DROP COLUMN similarity;
DROP TABLE structure_hits;
