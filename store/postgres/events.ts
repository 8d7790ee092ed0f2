// Events on PostgreSQL: appended inside the write transaction with the channel's next sequence
// (the channel row's lock makes sequences gap-free under concurrent writers), announced by NOTIFY.

import type pg from 'pg';
import type {NewEvent} from '../events.js';
import type {Actor, Changes, EventCause, EventPage, EventType, StoreEvent} from '../types.js';
import {checkEventQuery, mergeChanges} from '../write-rules.js';

/** The NOTIFY channel; the payload is "<channel id>:<sequence>". */
export const EVENTS_CHANNEL = 'sift_events';

type EventRow = {sequence: number; type: EventType; item_id: string; version: number; actor_kind: Actor['kind']; run_id: string | null; changes: Changes; at: string; cause?: EventCause | null};

const EVENT_COLUMNS = 'sequence, type, item_id, version, actor_kind, run_id, changes, at, cause';

/**
 * Bumps the channel's counter, inserts the event and queues the notification, in one statement of
 * the caller's transaction. The UPDATE locks the channel row until commit: the next writer waits,
 * so sequences never gap or repeat, and a rollback takes the bump back with everything else.
 * pg_notify inside a transaction is delivered on commit, never for a rolled-back write.
 * `before` adds the write the event records, as data-modifying CTEs of the same statement (its
 * parameters follow the event's eight): one round trip for the whole edit. The event's cause is
 * the last parameter, after those.
 */
export async function appendEvent(client: pg.ClientBase, channelId: string, event: NewEvent, before?: {ctes: string; params: unknown[]}): Promise<number> {
	const causeParameter = `$${9 + (before?.params.length ?? 0)}`;
	const {rows} = await client.query<{sequence: number}>(`WITH ${before ? `${before.ctes}, ` : ''}bump AS (
			UPDATE channels SET last_sequence = last_sequence + 1 WHERE id = $1 RETURNING last_sequence
		), added AS (
			INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at, cause)
			SELECT $1, last_sequence, $2, $3, $4, $5, $6, $7, $8, ${causeParameter}::jsonb FROM bump RETURNING sequence
		)
		SELECT sequence, pg_notify('${EVENTS_CHANNEL}', $1 || ':' || sequence) FROM added`,
	[channelId, event.type, event.item_id, event.version, event.actor.kind, event.actor.run_id ?? null, JSON.stringify(event.changes), event.at, ...(before?.params ?? []), event.cause ? JSON.stringify(event.cause) : null]);
	return rows[0]!.sequence;
}

function eventFromRow(row: EventRow): StoreEvent {
	const actor: Actor = row.run_id === null ? {kind: row.actor_kind} : {kind: row.actor_kind, run_id: row.run_id};
	const event: StoreEvent = {sequence: row.sequence, type: row.type, item_id: row.item_id, version: row.version, actor, changes: row.changes, at: row.at};
	if (row.cause) event.cause = row.cause;
	return event;
}

export async function latestSequence(client: pg.ClientBase | pg.Pool, channelId: string): Promise<number> {
	const {rows} = await client.query<{last_sequence: number}>('SELECT last_sequence FROM channels WHERE id = $1', [channelId]);
	return rows[0]?.last_sequence ?? 0;
}

/** The events after a reader's own cursor; the store keeps no per-reader state. */
export async function pollEvents(pool: pg.Pool, channelId: string, options: {afterSequence?: number; limit?: number} = {}): Promise<EventPage> {
	const {after, limit} = checkEventQuery(options);
	const {rows} = await pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE channel_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`, [channelId, after, limit + 1]);
	const events = rows.slice(0, limit).map(row => eventFromRow(row));
	return {events, next_after_sequence: events.at(-1)?.sequence ?? after, has_more: rows.length > limit};
}

/** What changed on an item after a version, from the event log. */
export async function changedSince(client: pg.ClientBase, itemId: string, version: number): Promise<Changes> {
	const {rows} = await client.query<{changes: Changes}>("SELECT changes FROM events WHERE item_id = $1 AND version > $2 AND type = 'item.updated' ORDER BY version", [itemId, version]);
	return mergeChanges(rows.map(row => row.changes));
}

/** A run's writes after `afterSequence`, oldest first: its agent's item updates and the accepts of its proposals. */
export async function runWrites(client: pg.ClientBase, channelId: string, runId: string, afterSequence: number): Promise<StoreEvent[]> {
	const {rows} = await client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE channel_id = $1 AND sequence > $2 AND type = 'item.updated'
		AND (run_id = $3 OR (cause->>'kind' = 'proposal' AND cause->>'run_id' = $3)) ORDER BY sequence`, [channelId, afterSequence, runId]);
	return rows.map(row => eventFromRow(row));
}
