-- On Citus, ingest's function writes through its organization's shards by name (decision 232).
-- A repeatable migration (decision 168), applied after ingest_events.sql; on plain PostgreSQL its
-- functions exist and are never called.
--
-- ingest_events (ingest_events.sql) is sent whole to the node of its organization's shards, where
-- each of its statements would go through Citus's planner again: the INSERT ... SELECTs through
-- its INSERT ... SELECT planner, which tries a task for each of the table's shards, then the
-- shard's query through local execution, planned again at every call. That cost the worker 4 to
-- 5 ms of CPU per call on the machines of issue 48, where plain PostgreSQL spends about 0.7.
-- ingest_events_make_shard_functions writes, for each shard of `events`, a copy of ingest_events
-- whose statements name that shard group's tables (events_102246, projects_102054, ...), which
-- PostgreSQL plans once per connection like any function's statements; ingest_events_local_shard
-- says which copy a call may use, and ingest_events then hands the call to it.

-- The name of the function that writes p_org's events on this node's shards, with their shard
-- metadata locked for the rest of the transaction; null when the call must go through the
-- distributed tables instead. Only a call Citus delegated here qualifies: its transaction holds
-- nothing but this call. A caller's own transaction (an import, an alert, a test) runs the
-- function on the coordinator, where later statements of that transaction would not know these
-- writes as Citus's own.
CREATE OR REPLACE FUNCTION ingest_events_local_shard(p_org text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_shard bigint;
  v_function text;
BEGIN
  IF current_setting('application_name') NOT LIKE 'citus\_internal gpid=%' THEN RETURN NULL; END IF;
  v_shard := get_shard_id_for_distribution_column('events', p_org);
  v_function := 'ingest_events_shard_' || v_shard;
  IF to_regprocedure(v_function || '(text,text,text,text,boolean,boolean,boolean,text,integer)') IS NULL THEN RETURN NULL; END IF;
  -- A share lock on the shard's metadata, as Citus's own writers take: a shard move or split takes
  -- it exclusively (on every node) before it switches the shard group over, so it waits for this
  -- transaction, and a call that arrives after a move finds the placement gone from this node.
  PERFORM lock_shard_metadata(5, ARRAY[v_shard]);
  IF NOT EXISTS (SELECT 1 FROM pg_dist_placement pl JOIN pg_dist_local_group lg ON lg.groupid = pl.groupid
                 WHERE pl.shardid = v_shard) THEN
    RETURN NULL;
  END IF;
  RETURN v_function;
END
$$;

-- Writes ingest_events_shard_<shard> for each shard of `events` that has none (all of them when
-- p_replace, after ingest_events changed): ingest_events' own definition with each table of its
-- colocation group renamed to the shard of that group, and its Citus branches (the hand-over above
-- and the plan cache setting) cut off. Refuses, changing nothing, when a statement of the copy
-- would still name a distributed table. Returns how many functions it wrote.
CREATE OR REPLACE FUNCTION ingest_events_make_shard_functions(p_replace boolean) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_source text;
  v_body text;
  v_shard record;
  v_table record;
  v_written integer := 0;
  v_left text;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL
     OR NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'events'::regclass) THEN
    RETURN 0;
  END IF;
  v_source := replace(
    pg_get_functiondef('ingest_events(text,text,text,text,boolean,boolean,boolean,text,integer)'::regprocedure),
    'v_on_citus boolean := to_regclass(''pg_catalog.pg_dist_partition'') IS NOT NULL;', 'v_on_citus boolean := false;');
  IF v_source NOT LIKE '%v_on_citus boolean := false;%' THEN
    RAISE EXCEPTION 'ingest_events no longer declares v_on_citus as ingest_events_on_shards.sql expects';
  END IF;
  FOR v_shard IN
    SELECT s.shardid, s.shardminvalue FROM pg_dist_shard s
    WHERE s.logicalrelid = 'events'::regclass
      AND (p_replace OR to_regprocedure('ingest_events_shard_' || s.shardid || '(text,text,text,text,boolean,boolean,boolean,text,integer)') IS NULL)
    ORDER BY s.shardid
  LOOP
    v_body := replace(v_source, 'FUNCTION public.ingest_events(', format('FUNCTION public.ingest_events_shard_%s(', v_shard.shardid));
    FOR v_table IN
      SELECT p.logicalrelid, s.shardid FROM pg_dist_partition p
      JOIN pg_dist_shard s ON s.logicalrelid = p.logicalrelid AND s.shardminvalue = v_shard.shardminvalue
      WHERE p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'events'::regclass)
    LOOP
      v_body := regexp_replace(v_body, format('\m(FROM|JOIN|INTO|UPDATE) %s\M', v_table.logicalrelid::text),
                               format('\1 %s', shard_name(v_table.logicalrelid, v_table.shardid)), 'g');
    END LOOP;
    SELECT string_agg(p.logicalrelid::text, ', ') INTO v_left FROM pg_dist_partition p
    WHERE v_body ~ format('\m(FROM|JOIN|INTO|UPDATE) %s\M', p.logicalrelid::text);
    IF v_left IS NOT NULL THEN
      RAISE EXCEPTION 'ingest_events names % , which are not in the colocation group of events', v_left;
    END IF;
    EXECUTE v_body;
    v_written := v_written + 1;
  END LOOP;
  RETURN v_written;
END
$$;
