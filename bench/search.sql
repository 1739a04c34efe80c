-- What `diary search serenity -n 20` runs, for the sqlite3 shell on Diary's own database file
-- (the local owner's diary, owner_id 0, as `diary import` leaves it before any account exists).
-- scripts/bench puts each query word in place of serenity; a Korean word becomes its
-- overlapping two-syllable pieces as a phrase (일기를 -> '"일기 기를"').
SELECT e.id, e.title, e.body, e.created_at FROM entry AS e WHERE e.seq IN (
  SELECT e2.seq FROM (
    SELECT rowid, bm25(entry_search, 4.0, 1.0) AS score
    FROM entry_search WHERE entry_search MATCH '"serenity" *'
  ) AS m JOIN entry AS e2 ON e2.seq = m.rowid
  WHERE e2.owner_id = 0 AND e2.deleted_at IS NULL
  ORDER BY m.score, e2.created_at DESC LIMIT 20);
