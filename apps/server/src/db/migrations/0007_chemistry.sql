-- Chemistry engine (structure search). Hits of a substructure or similarity query are written
-- here for the few seconds the search's SQL needs them (a 2-million-id list is a poor bind
-- parameter), then deleted; similarity values are copied to the session's structure set so the
-- results can be sorted by similarity.
CREATE UNLOGGED TABLE structure_hits (
  hit_id     bigint NOT NULL,
  str_id     bigint NOT NULL,
  similarity real,
  PRIMARY KEY (hit_id, str_id)
);

ALTER TABLE search_structures ADD COLUMN similarity real;
