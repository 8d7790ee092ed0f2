// A schema change on SQLite (store/schema-change.ts plans it): one BEGIN IMMEDIATE transaction
// that finds the channel as planned, re-checks every item, writes the new fields, rebuilds the
// indexes whose definition changed and appends the channel.updated event.

import type {ChannelCatalog} from './channels.js';
import {immediate} from './write-lock.js';
import type {Db} from './db.js';
import {appendEvent} from './events.js';
import {channelIndexes} from './query.js';
import {channelUpdatedEvent, indexChanges, nameKeyOf, Offenders, schemaMoved, type SchemaPlan} from '../schema-change.js';
import type {Actor, Channel} from '../types.js';
import {isLongText} from '../query/parse.js';
import {reindexFullText} from './full-text.js';
import {memberKeysOf, reindexMembers} from './members.js';

/** Items read per statement while checking: the connection runs one statement at a time. */
const CHECK_PAGE = 5000;

function checkItems(db: Db, channel: Channel, plan: SchemaPlan): void {
	const field = plan.check!;
	const nameKey = nameKeyOf(channel);
	const offenders = new Offenders(field);
	const read = db.prepare(`SELECT seq, id, data -> '$.${field.key}' AS value, ${nameKey ? `data ->> '$.${nameKey}'` : 'NULL'} AS name
		FROM items WHERE channel_id = ? AND seq > ? ORDER BY seq LIMIT ?`);
	let after = 0;
	for (;;) {
		const rows = read.all(channel.id, after, CHECK_PAGE) as Array<{seq: number; id: string; value: string | null; name: string | null}>;
		for (const row of rows) {
			offenders.see(row.value === null ? undefined : JSON.parse(row.value), row.name ?? row.id);
		}

		if (rows.length < CHECK_PAGE) break;
		after = rows.at(-1)!.seq;
	}

	offenders.check(plan);
}

const longKeys = (channel: Channel) => channel.fields.filter(isLongText).map(field => field.key).join(' ');

export function applySchemaChange(db: Db, channels: ChannelCatalog, before: Channel, plan: SchemaPlan, actor: Actor): number {
	const sequence = immediate(db, () => {
		const row = db.prepare('SELECT fields FROM channels WHERE id = ?').get(before.id) as {fields: string} | undefined;
		if (!row || row.fields !== JSON.stringify(before.fields)) throw schemaMoved(before.id);
		if (plan.check) checkItems(db, before, plan);
		db.prepare('UPDATE channels SET fields = ? WHERE id = ?').run(JSON.stringify(plan.channel.fields), before.id);
		// A field added last takes the next value column, empty in every row: no copy is needed.
		const {drop, create} = indexChanges(channelIndexes(before), channelIndexes(plan.channel));
		for (const name of drop) db.exec(`DROP INDEX IF EXISTS "${name.replaceAll('"', '""')}"`);
		for (const index of create) db.exec(index.sql);
		// A field made long or short changes what each item's long text is.
		if (longKeys(before) !== longKeys(plan.channel)) reindexFullText(db, plan.channel);
		// A multi_select added: its memberships are kept from now on (store/sqlite/members.ts).
		if (memberKeysOf(before) !== memberKeysOf(plan.channel)) reindexMembers(db, plan.channel);
		return appendEvent(db, before.id, channelUpdatedEvent(plan, actor, new Date().toISOString()));
	});
	channels.forget(before.id);
	return sequence;
}
