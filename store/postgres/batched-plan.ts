// A review plan's writes on PostgreSQL, set-based (docs/review.md#measured). An accept, decline or
// revert is one bulk edit of the person's in one transaction, so instead of a round trip per item
// (read, write with its event, decision with its event) its item updates, proposal decisions and
// events are kept as the plan yields them and written together in one statement: before any step
// that reads what they change, and at the end. The plan gets the answers one statement per step
// would give: an accept's items are read and locked in one statement (oldest first, before the
// channel row) and kept current as writes are kept; each event's sequence counts on from the
// channel's, whose row stays locked from the first read of it to the commit.

import type pg from 'pg';
import type {LoadedChannel} from '../channels.js';
import type {PlanIo, PlanItem, PlanStep} from '../edit-plan.js';
import type {NewEvent} from '../events.js';
import type {ProposalDecision} from '../proposals.js';
import type {Values} from '../types.js';
import {EVENTS_CHANNEL} from './events.js';
import {orderedDataText} from './ordered-json.js';

/** An item the plan read, with the row key its update is written by. */
export type BatchItem = PlanItem & {row: {seq: number}};

/** Reads and locks these items in one statement (the ones that exist). */
export type LockItems<R extends BatchItem> = (wanted: Array<{channelId: string; itemId: string}>) => Promise<R[]>;

/** Unique checks read other items' values: such a write's context needs the kept writes in the table first. */
export const writesUniqueField = (channel: LoadedChannel, values: Values) => Object.keys(values).some(key => channel.fieldsByKey.get(key)?.is_unique === true);

const itemKey = (channelId: string, itemId: string) => `${channelId}\u0000${itemId}`;

type KeptEvent = NewEvent & {channel_id: string; sequence: number};

/** The writes kept since the last flush. */
class KeptWrites {
	readonly items = new Map<string, {channel_id: string; seq: number; version: number; updated_at: string; data: Values}>();
	/** Follow-ups a write closes, (item, key) once: the first write closes it, later ones find it closed. */
	readonly resolved = new Map<string, {item_id: string; key: string; at: string}>();
	readonly decisions = new Map<number, ProposalDecision>();
	readonly events: KeptEvent[] = [];
	/** Per channel: the last sequence given out (its row locked). */
	readonly sequences = new Map<string, number>();

	get empty(): boolean {
		return this.events.length === 0;
	}
}

/** The one statement that writes what was kept: item rows, follow-ups closed, decisions, events, the channels' counters, and a notification per channel. */
function flushStatement(kept: KeptWrites): {sql: string; params: unknown[]} {
	const items = [...kept.items.values()];
	const resolved = [...kept.resolved.values()];
	const decisions = [...kept.decisions.entries()];
	const decided = (decision: ProposalDecision) => decision.status !== 'open';
	const {events} = kept;
	const counters = [...kept.sequences.entries()];
	return {
		sql: `WITH written AS (
			UPDATE items SET version = w.version, updated_at = w.updated_at, data = w.data
			FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::jsonb[]) AS w(channel_id, seq, version, updated_at, data)
			WHERE items.channel_id = w.channel_id AND items.seq = w.seq
		), resolved AS (
			UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = r.at
			FROM unnest($6::text[], $7::text[], $8::text[]) AS r(item_id, key, at)
			WHERE followups.item_id = r.item_id AND followups.key = r.key AND followups.status = 'open' AND followups.kind = 'refused'
		), decided AS (
			UPDATE proposals SET status = d.status, changes = d.changes, base_version = d.base_version, written_version = d.written_version, decided_at = d.decided_at, decided_by = d.decided_by
			FROM unnest($9::bigint[], $10::text[], $11::jsonb[], $12::int[], $13::int[], $14::text[], $15::text[]) AS d(id, status, changes, base_version, written_version, decided_at, decided_by)
			WHERE proposals.id = d.id
		), added AS (
			INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at, cause)
			SELECT * FROM unnest($16::text[], $17::bigint[], $18::text[], $19::text[], $20::int[], $21::text[], $22::text[], $23::json[], $24::text[], $25::jsonb[])
		), bumped AS (
			UPDATE channels SET last_sequence = c.last_sequence FROM unnest($26::text[], $27::bigint[]) AS c(id, last_sequence)
			WHERE channels.id = c.id RETURNING channels.id, channels.last_sequence
		)
		SELECT pg_notify('${EVENTS_CHANNEL}', id || ':' || last_sequence) FROM bumped`,
		params: [
			items.map(item => item.channel_id), items.map(item => item.seq), items.map(item => item.version), items.map(item => item.updated_at), items.map(item => orderedDataText(item.data)),
			resolved.map(row => row.item_id), resolved.map(row => row.key), resolved.map(row => row.at),
			decisions.map(([id]) => id), decisions.map(([, decision]) => decision.status), decisions.map(([, decision]) => JSON.stringify(decision.changes)), decisions.map(([, decision]) => decision.base_version),
			decisions.map(([, decision]) => decision.written_version), decisions.map(([, decision]) => (decided(decision) ? decision.decided_at : null)), decisions.map(([, decision]) => (decided(decision) ? decision.decided_by : null)),
			events.map(event => event.channel_id), events.map(event => event.sequence), events.map(event => event.type), events.map(event => event.item_id), events.map(event => event.version),
			events.map(event => event.actor.kind), events.map(event => event.actor.run_id ?? null), events.map(event => JSON.stringify(event.changes)), events.map(event => event.at), events.map(event => (event.cause ? JSON.stringify(event.cause) : null)),
			counters.map(([channelId]) => channelId), counters.map(([, sequence]) => sequence),
		],
	};
}

/**
 * `base`'s answers with the review plan's writes kept and flushed in one statement (see above).
 * Steps that read or write anything else flush first, then go to `base`; call `flush` once the
 * plan is done, inside its transaction.
 */
export function batchedPlanIo<R extends BatchItem>(client: pg.ClientBase, base: PlanIo<R, true>, lockItems: LockItems<R>): {io: PlanIo<R, true>; flush: () => Promise<void>} {
	/** Items read (null: read, and not there), current with the kept writes. */
	const items = new Map<string, R | null>();
	let kept = new KeptWrites();

	async function flush(): Promise<void> {
		if (kept.empty) return;
		const statement = flushStatement(kept);
		// Taken out first: after a flush the channels' counters are read again (a step that goes to base may append events).
		kept = new KeptWrites();
		await client.query(statement.sql, statement.params);
	}

	/** The open proposals' items, read with the first of them the plan reads (a decline reads none): all locked in one statement. */
	let toLock: Map<string, {channelId: string; itemId: string}> | undefined;
	async function lockProposed(): Promise<void> {
		const wanted = [...toLock!].filter(([key]) => !items.has(key));
		toLock = undefined;
		const found = await lockItems(wanted.map(([, item]) => item));
		for (const [key] of wanted) items.set(key, null);
		for (const item of found) items.set(itemKey(item.channel_id, item.id), item);
	}

	async function nextSequence(channelId: string): Promise<number> {
		let last = kept.sequences.get(channelId);
		if (last === undefined) {
			const {rows} = await client.query<{last_sequence: number}>('SELECT last_sequence FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
			last = rows[0]?.last_sequence ?? 0;
		}

		kept.sequences.set(channelId, last + 1);
		return last + 1;
	}

	/** A step that reads or writes more than the kept rows: the kept writes go first. */
	const flushed = <K extends PlanStep<R>['step']>(step: K) => (async (request: Extract<PlanStep<R>, {step: K}>) => {
		await flush();
		return (base[step] as (request: Extract<PlanStep<R>, {step: K}>) => unknown)(request);
	}) as PlanIo<R, true>[K];

	const io: PlanIo<R, true> = {
		replay: flushed('replay'),
		changedSince: flushed('changedSince'),
		proposedKeys: flushed('proposedKeys'),
		openFollowUps: flushed('openFollowUps'),
		unchanged: flushed('unchanged'),
		remember: flushed('remember'),
		runMode: flushed('runMode'),
		propose: flushed('propose'),
		runWrites: flushed('runWrites'),
		channel: async step => base.channel(step),
		// The outbox reads nothing the kept writes change.
		queueSync: async step => base.queueSync(step),
		async delete(step) {
			await flush();
			items.set(itemKey(step.item.channel_id, step.item.id), null);
			return base.delete(step);
		},
		async proposals(step) {
			await flush();
			const rows = await base.proposals(step);
			toLock = new Map(rows.filter(row => row.status === 'open').map(row => [itemKey(row.channel_id, row.item_id), {channelId: row.channel_id, itemId: row.item_id}]));
			return rows;
		},
		async item(step) {
			const key = itemKey(step.channelId, step.itemId);
			if (!items.has(key) && toLock?.has(key)) await lockProposed();
			if (items.has(key)) return items.get(key) ?? undefined;
			// Not read yet, so nothing kept touches it.
			const item = await base.item(step);
			items.set(key, item ?? null);
			return item;
		},
		async context(step) {
			if (writesUniqueField(step.channel, step.values)) await flush();
			return base.context(step);
		},
		async update({item, after, event, resolveKeys}) {
			const sequence = await nextSequence(item.channel_id);
			kept.items.set(itemKey(item.channel_id, item.id), {channel_id: item.channel_id, seq: item.row.seq, version: event.version, updated_at: event.at, data: after});
			for (const key of resolveKeys) {
				const resolvedKey = itemKey(item.id, key);
				if (!kept.resolved.has(resolvedKey)) kept.resolved.set(resolvedKey, {item_id: item.id, key, at: event.at});
			}

			kept.events.push({...event, channel_id: item.channel_id, sequence});
			items.set(itemKey(item.channel_id, item.id), {...item, version: event.version, updated_at: event.at, values: after});
			return sequence;
		},
		async decide({proposal, decision, event}) {
			const sequence = await nextSequence(proposal.channel_id);
			kept.decisions.set(proposal.id, decision);
			kept.events.push({...event, channel_id: proposal.channel_id, sequence});
			return sequence;
		},
	};
	return {io, flush};
}
