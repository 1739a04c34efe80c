-- What `diary search serenity -n 20` runs, for the sqlite3 shell on Diary's own database file
-- (the local owner's diary, owner_id 0, as `diary import` leaves it before any account exists).
-- scripts/bench puts each query word in place of serenity; a Korean word becomes its
-- overlapping two-syllable pieces as a phrase (일기를 -> '"일기 기를"').
-- The shell does not have Diary's `diary_rank` (an auxiliary function registered from Swift), so
-- FTS5's own `bm25` stands in for it: the same work per matched row, in C.
SELECT e.id, e.title, e.body, e.created_at FROM entry AS e WHERE e.seq IN (
  SELECT e2.seq FROM entry_search JOIN entry AS e2 ON e2.seq = entry_search.rowid
  WHERE entry_search MATCH '"serenity" *' AND e2.owner_id = 0 AND e2.deleted_at IS NULL
  ORDER BY bm25(entry_search, 4.0, 1.0), e2.created_at DESC, e2.seq DESC LIMIT 20);
