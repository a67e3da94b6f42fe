-- Each search block's newest created_at (docs/decisions/167-search-blocks.md, "Newest first").
-- Search checks the blocks that may hold its text newest first and stops once the page is full
-- and no block left can hold a newer event; without the bound, a text in a few events of many
-- blocks had every event of every such block checked (0.7 s at 10M events).
--
-- NULL means not known: search takes such a block as newer than any event. The blocks written
-- before this migration are marked stale, so the indexer writes them again, with the bound, from
-- the events they still hold (what it does after a delete); search uses them meanwhile.

ALTER TABLE search_blocks ADD COLUMN newest_at timestamptz;

UPDATE search_blocks SET stale = true;
