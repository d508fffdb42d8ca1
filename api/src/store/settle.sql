-- What a write transaction settles just before it commits (store/settle.rs): work the
-- schema's triggers queue during the transaction's writes because doing it in each write's
-- own savepoint would cost far more.
-- The People index (V23): everything the triggers queued for people_search, in order.
INSERT INTO people_search (people_search, rowid, name, email, phone)
SELECT command, doc, name, email, phone FROM people_search_queue ORDER BY seq;
DELETE FROM people_search_queue;
