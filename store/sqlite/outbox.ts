// The outbox as every write fills it on SQLite (docs/architecture.md#the-sync-engine): the edit
// plan's queueSync step, one statement in the write's own transaction. The rest of the engine is
// store/sqlite/sync.ts.

import type {Db} from './db.js';

const QUEUE_SQL = `INSERT INTO sync_outbox (channel_id, item_id, field, kind, base, value, state, attempts, created_at)
	SELECT l.channel_id, @item, v.key, json_extract(f.value, '$.kind'), coalesce(b.value, 'null'), v.value, 'pending', 0, @at
	FROM sync_links l JOIN json_each(l.fields) f JOIN json_each(@values) v ON v.key = json_extract(f.value, '$.key')
	LEFT JOIN sync_bases b ON b.item_id = @item AND b.source = 'sync' AND b.field = v.key
	WHERE l.channel_id = @channel
	ON CONFLICT (item_id, field) DO UPDATE SET value = excluded.value, last_error = NULL,
		state = CASE WHEN state = 'held' AND NOT EXISTS (SELECT 1 FROM followups WHERE item_id = excluded.item_id AND key = excluded.field AND status = 'open' AND kind = 'sync_conflict') THEN 'pending' ELSE state END`;

/**
 * The edit plan's queueSync step: each written field a link syncs gets its outbox entry, in the
 * caller's transaction; an entry back at its base has nothing left to send. One statement on an
 * unlinked channel (its link looked up by key, none found).
 */
export function queueSync(db: Db, channelId: string, itemId: string, values: Record<string, string>, at: string): void {
	const statements = queueStatements(db);
	const json = JSON.stringify(values);
	if (statements.queue.run({channel: channelId, item: itemId, values: json, at}).changes > 0) statements.settle.run({item: itemId, values: json});
}

const queueCache = new WeakMap<Db, {queue: ReturnType<Db['prepare']>; settle: ReturnType<Db['prepare']>}>();
function queueStatements(db: Db) {
	let statements = queueCache.get(db);
	if (!statements) {
		statements = {
			queue: db.prepare(QUEUE_SQL),
			settle: db.prepare("DELETE FROM sync_outbox WHERE item_id = @item AND state = 'pending' AND value = base AND field IN (SELECT key FROM json_each(@values))"),
		};
		queueCache.set(db, statements);
	}

	return statements;
}
