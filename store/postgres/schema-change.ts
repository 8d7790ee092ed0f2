// A schema change on PostgreSQL (store/schema-change.ts plans it): one transaction that locks the
// channel's row, finds it as planned, re-checks every item, writes the new fields, rebuilds the
// indexes whose definition changed and appends the channel.updated event (notified like any event).

import type pg from 'pg';
import {inTransaction} from './connect.js';
import {appendEvent} from './events.js';
import {pgChannelIndexes} from './query.js';
import {channelUpdatedEvent, indexChanges, nameKeyOf, Offenders, schemaMoved, type SchemaPlan} from '../schema-change.js';
import type {Actor, Channel} from '../types.js';

const CHECK_PAGE = 5000;

async function checkItems(client: pg.ClientBase, channel: Channel, plan: SchemaPlan): Promise<void> {
	const field = plan.check!;
	const nameKey = nameKeyOf(channel);
	const offenders = new Offenders(field);
	let after = 0;
	for (;;) {
		const {rows} = await client.query<{seq: string; id: string; value: unknown; name: string | null}>(
			`SELECT seq, id, data->'${field.key}' AS value, ${nameKey ? `data->>'${nameKey}'` : 'NULL'} AS name FROM items WHERE channel_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
			[channel.id, after, CHECK_PAGE],
		);
		for (const row of rows) {
			offenders.see(row.value ?? undefined, row.name ?? row.id);
		}

		if (rows.length < CHECK_PAGE) break;
		after = Number(rows.at(-1)!.seq);
	}

	offenders.check(plan);
}

export async function applySchemaChange(pool: pg.Pool, before: Channel, plan: SchemaPlan, actor: Actor): Promise<number> {
	return inTransaction(pool, async client => {
		const {rows} = await client.query<{fields: unknown}>('SELECT fields FROM channels WHERE id = $1 FOR UPDATE', [before.id]);
		if (rows.length === 0 || JSON.stringify(rows[0]!.fields) !== JSON.stringify(before.fields)) throw schemaMoved(before.id);
		if (plan.check) await checkItems(client, before, plan);
		await client.query('UPDATE channels SET fields = $2 WHERE id = $1', [before.id, JSON.stringify(plan.channel.fields)]);
		const {drop, create} = indexChanges(pgChannelIndexes(before), pgChannelIndexes(plan.channel));
		for (const name of drop) await client.query(`DROP INDEX IF EXISTS "${name}"`);
		for (const index of create) await client.query(index.sql);
		return appendEvent(client, before.id, channelUpdatedEvent(plan, actor, new Date().toISOString()));
	});
}
