// Events on SQLite: appended in the write transaction, read by per-channel sequence.

import type {Statement} from 'better-sqlite3';
import type {NewEvent} from '../events.js';
import type {Db} from './db.js';
import {checkEventQuery, mergeChanges} from '../write-rules.js';
import type {Actor, Changes, EventCause, EventPage, EventType, StoreEvent} from '../types.js';

type EventRow = {sequence: number; type: EventType; item_id: string; version: number; actor_kind: Actor['kind']; run_id: string | null; changes: string; at: string; cause?: string | null};

/**
 * Appends an event with the channel's next sequence. Must run inside the write transaction: the
 * next sequence is read from the events' own primary key (events are never deleted), so the read
 * and the insert commit or roll back together and sequences never gap. No separate counter row is
 * rewritten: that would be one more page in every edit's commit.
 */
export function appendEvent(db: Db, channelId: string, event: NewEvent): number {
	const statements = appendStatements(db);
	const sequence = (statements.last.get(channelId) as {last_sequence: number}).last_sequence + 1;
	statements.insert.run(channelId, sequence, event.type, event.item_id, event.version, event.actor.kind, event.actor.run_id ?? null, JSON.stringify(event.changes), event.at, event.cause ? JSON.stringify(event.cause) : null);
	return sequence;
}

/** Prepared once per connection: preparing costs more than running on the edit path. */
const appendCache = new WeakMap<Db, {last: Statement; insert: Statement}>();

/** A channel's latest sequence: one seek to the end of its range of the events' primary key. */
export const LAST_SEQUENCE_SQL = 'SELECT coalesce(max(sequence), 0) AS last_sequence FROM events WHERE channel_id = ?';

function appendStatements(db: Db): {last: Statement; insert: Statement} {
	let statements = appendCache.get(db);
	if (!statements) {
		statements = {
			last: db.prepare(LAST_SEQUENCE_SQL),
			insert: db.prepare('INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at, cause) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
		};
		appendCache.set(db, statements);
	}

	return statements;
}

function eventFromRow(row: EventRow): StoreEvent {
	const actor: Actor = row.run_id === null ? {kind: row.actor_kind} : {kind: row.actor_kind, run_id: row.run_id};
	const event: StoreEvent = {sequence: row.sequence, type: row.type, item_id: row.item_id, version: row.version, actor, changes: JSON.parse(row.changes) as Changes, at: row.at};
	if (row.cause) event.cause = JSON.parse(row.cause) as EventCause;
	return event;
}

export function latestSequence(db: Db, channelId: string): number {
	return (db.prepare(LAST_SEQUENCE_SQL).get(channelId) as {last_sequence: number}).last_sequence;
}

/** The events after a reader's own cursor; the store keeps no per-reader state. */
export function pollEvents(db: Db, channelId: string, options: {afterSequence?: number; limit?: number} = {}): EventPage {
	const {after, limit} = checkEventQuery(options);
	const rows = db.prepare('SELECT * FROM events WHERE channel_id = ? AND sequence > ? ORDER BY sequence LIMIT ?').all(channelId, after, limit + 1) as EventRow[];
	const hasMore = rows.length > limit;
	const events = rows.slice(0, limit).map(row => eventFromRow(row));
	return {events, next_after_sequence: events.at(-1)?.sequence ?? after, has_more: hasMore};
}

/** What changed on an item after a version: per key, the value before the first change and after the last. */
export function changedSince(db: Db, itemId: string, version: number): Changes {
	const rows = db.prepare("SELECT changes FROM events WHERE item_id = ? AND version > ? AND type = 'item.updated' ORDER BY version").all(itemId, version) as Array<{changes: string}>;
	return mergeChanges(rows.map(row => JSON.parse(row.changes) as Changes));
}

/**
 * A run's writes after `afterSequence`, oldest first: its agent's item updates, and the person's
 * accepts of its proposals (their cause names the run). Walks the channel's events from the run's
 * start on the primary key.
 */
export function runWrites(db: Db, channelId: string, runId: string, afterSequence: number): StoreEvent[] {
	const rows = db.prepare(`SELECT * FROM events WHERE channel_id = ? AND sequence > ? AND type = 'item.updated'
		AND (run_id = ? OR (cause IS NOT NULL AND json_extract(cause, '$.kind') = 'proposal' AND json_extract(cause, '$.run_id') = ?)) ORDER BY sequence`).all(channelId, afterSequence, runId, runId) as EventRow[];
	return rows.map(row => eventFromRow(row));
}
