// The outbox as every write fills it on PostgreSQL (docs/architecture.md#the-sync-engine): the edit
// plan's queueSync step, in the write's own transaction. The rest of the engine is
// store/postgres/sync.ts.

import type pg from 'pg';

const QUEUE_SQL = `INSERT INTO sync_outbox (channel_id, item_id, field, kind, base, value, state, attempts, created_at)
	SELECT l.channel_id, $2, v.key, f->>'kind', coalesce(b.value, 'null'), v.value, 'pending', 0, $4
	FROM sync_links l CROSS JOIN jsonb_array_elements(l.fields) f JOIN json_each_text($3::json) v ON v.key = f->>'key'
	LEFT JOIN sync_bases b ON b.item_id = $2 AND b.source = 'sync' AND b.field = v.key
	WHERE l.channel_id = $1
	ON CONFLICT (item_id, field) DO UPDATE SET value = excluded.value, last_error = NULL,
		state = CASE WHEN sync_outbox.state = 'held' AND NOT EXISTS (SELECT 1 FROM followups WHERE item_id = excluded.item_id AND key = excluded.field AND status = 'open' AND kind = 'sync_conflict') THEN 'pending' ELSE sync_outbox.state END`;

/**
 * The edit plan's queueSync step: each written field a link syncs gets its outbox entry, in the
 * caller's transaction; an entry back at its base has nothing left to send. One statement on an
 * unlinked channel (its link looked up by key, none found).
 */
export async function queueSync(client: pg.ClientBase, channelId: string, itemId: string, values: Record<string, string>, at: string): Promise<void> {
	const queued = await client.query(QUEUE_SQL, [channelId, itemId, JSON.stringify(values), at]);
	if ((queued.rowCount ?? 0) > 0) {
		await client.query("DELETE FROM sync_outbox WHERE item_id = $1 AND state = 'pending' AND value = base AND field = ANY($2::text[])", [itemId, Object.keys(values)]);
	}
}
