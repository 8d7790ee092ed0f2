// The sync engine on SQLite (docs/architecture.md#the-sync-engine): its tables, and the answers
// to the sync plans' steps (store/sync/plan.ts) with statements on the file, each plan inside one
// BEGIN IMMEDIATE transaction. The outbox entries of ordinary edits are written by the edit plan's
// queueSync step (store/sqlite/outbox.ts), in the edit's own transaction.

import type {ChannelCatalog} from './channels.js';
import type {Db} from './db.js';
import {immediate} from './write-lock.js';
import {StoreError} from '../errors.js';
import type {Statement} from 'better-sqlite3';
import type {FollowUp} from '../types.js';
import {followUpFromRow, type FollowUpRow} from './followups.js';
import type {ItemWriter} from './writes.js';
import {checkLink, localOnly, notLinked, planAddComments, planApplyRemote, planMarkFailed, planMarkSent, planResolveConflict, runSyncPlan, SYNC_ACTOR, type StoredEntry, type SyncIo, type SyncPlan} from '../sync/plan.js';
import {commentsSql, commentsLimit, commentsPage, type CommentRow} from '../sync/comments.js';
import type {CommentsQuery, ConflictChoice, ItemComments, NewSyncLink, OutboxEntry, PullOutcome, RemoteComments, RemoteRecord, SyncLink, SyncStatus} from '../sync/types.js';

/** v11: links to trackers, each field's base, the outbox, the tracker's comments, and follow-ups' kind with a conflict's three values. */
export const SYNC_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS sync_links (
	channel_id TEXT PRIMARY KEY,
	tracker TEXT NOT NULL,
	remote TEXT NOT NULL,
	key_field TEXT NOT NULL,
	fields TEXT NOT NULL,
	state TEXT NOT NULL,
	created_at TEXT NOT NULL,
	last_pull_at TEXT,
	last_push_at TEXT
);
-- The last value both sides agreed on (source 'sync'), or an import last wrote (source 'import'): canonical JSON.
CREATE TABLE IF NOT EXISTS sync_bases (
	channel_id TEXT NOT NULL,
	item_id TEXT NOT NULL,
	source TEXT NOT NULL,
	field TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (item_id, source, field)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sync_bases_by_channel ON sync_bases(channel_id, source);
-- One entry per field of an item: the latest local value to send, and the base it was made from.
CREATE TABLE IF NOT EXISTS sync_outbox (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	channel_id TEXT NOT NULL,
	item_id TEXT NOT NULL,
	field TEXT NOT NULL,
	kind TEXT NOT NULL,
	base TEXT NOT NULL,
	value TEXT NOT NULL,
	state TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	last_error TEXT,
	created_at TEXT NOT NULL,
	UNIQUE (item_id, field)
);
CREATE INDEX IF NOT EXISTS sync_outbox_by_channel ON sync_outbox(channel_id, state, id);
CREATE TABLE IF NOT EXISTS item_comments (
	channel_id TEXT NOT NULL,
	item_id TEXT NOT NULL,
	remote_id TEXT NOT NULL,
	author TEXT,
	body TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (item_id, remote_id)
) WITHOUT ROWID;
`;

/** v11: follow-ups gain their kind and a sync conflict's base, ours and theirs (JSON). */
export function addFollowUpKind(db: Db): void {
	const columns = (db.prepare("SELECT name FROM pragma_table_info('followups')").all() as Array<{name: string}>).map(row => row.name);
	if (columns.length === 0 || columns.includes('kind')) return;
	db.exec("ALTER TABLE followups ADD COLUMN kind TEXT NOT NULL DEFAULT 'refused'");
	for (const column of ['base', 'ours', 'theirs']) db.exec(`ALTER TABLE followups ADD COLUMN ${column} TEXT`);
}

type LinkRow = Omit<SyncLink, 'fields' | 'state'> & {fields: string; state: string};
const linkFromRow = (row: LinkRow): SyncLink => ({...row, fields: JSON.parse(row.fields) as SyncLink['fields'], state: JSON.parse(row.state) as SyncLink['state']});

type EntryRow = StoredEntry & {attempts: number; last_error: string | null; created_at: string};

type SqliteItem = NonNullable<ReturnType<ItemWriter['item']>>;

/** The sync engine on one SQLite file (SyncApi, synchronously: store/sqlite/async-store.ts wraps it). */
export class SqliteSync {
	private readonly io;
	/**
	 * Each statement prepared once: a pull runs a few per record, and a statement prepared per call
	 * holds SQLite memory outside the JS heap until the collector finalises it (a first pull of
	 * 10,000 issues made some 200,000 of them).
	 */
	private readonly statements = new Map<string, Statement>();

	constructor(private readonly db: Db, private readonly channels: ChannelCatalog, private readonly writer: ItemWriter) {
		this.io = {...writer.planIo, ...this.syncIo()};
	}

	private statement(sql: string): Statement {
		let statement = this.statements.get(sql);
		if (!statement) this.statements.set(sql, statement = this.db.prepare(sql));
		return statement;
	}

	private run<T>(plan: SyncPlan<SqliteItem, T>): T {
		return immediate(this.db, () => runSyncPlan(plan, this.io));
	}

	link(link: NewSyncLink): SyncLink {
		const checked = checkLink(this.channels.get(link.channel_id), link);
		return immediate(this.db, () => {
			const existing = this.getLink(link.channel_id);
			if (existing && (existing.tracker !== checked.tracker || existing.remote !== checked.remote || existing.key_field !== checked.key_field)) {
				throw new StoreError({error: 'invalid_argument', message: `channel ${link.channel_id} is linked to ${existing.tracker} ${existing.remote} already: unlink it first`});
			}

			const at = new Date().toISOString();
			this.statement(`INSERT INTO sync_links (channel_id, tracker, remote, key_field, fields, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (channel_id) DO UPDATE SET fields = excluded.fields, state = CASE WHEN ? THEN excluded.state ELSE state END`)
				.run(checked.channel_id, checked.tracker, checked.remote, checked.key_field, JSON.stringify(checked.fields.map(({key, remote, kind}) => ({key, remote, kind}))), JSON.stringify(checked.state ?? {}), at, checked.state === undefined ? 0 : 1);
			return this.getLink(link.channel_id)!;
		});
	}

	unlink(channelId: string): void {
		immediate(this.db, () => {
			if (!this.getLink(channelId)) throw notLinked(channelId);
			this.statement('DELETE FROM sync_links WHERE channel_id = ?').run(channelId);
			this.statement("DELETE FROM sync_bases WHERE channel_id = ? AND source = 'sync'").run(channelId);
			this.statement('DELETE FROM sync_outbox WHERE channel_id = ?').run(channelId);
		});
	}

	links(): SyncLink[] {
		return (this.statement('SELECT * FROM sync_links ORDER BY channel_id').all() as LinkRow[]).map(linkFromRow);
	}

	getLink(channelId: string): SyncLink | undefined {
		const row = this.statement('SELECT * FROM sync_links WHERE channel_id = ?').get(channelId) as LinkRow | undefined;
		return row && linkFromRow(row);
	}

	saveState(channelId: string, state: Record<string, unknown>, at: {pulled?: string; pushed?: string}): void {
		immediate(this.db, () => {
			const changed = this.statement('UPDATE sync_links SET state = ?, last_pull_at = coalesce(?, last_pull_at), last_push_at = coalesce(?, last_push_at) WHERE channel_id = ?')
				.run(JSON.stringify(state), at.pulled ?? null, at.pushed ?? null, channelId).changes;
			if (changed === 0) throw notLinked(channelId);
		});
	}

	applyRemote(channelId: string, records: RemoteRecord[]): PullOutcome {
		return this.run(planApplyRemote<SqliteItem>(channelId, records, this.writer.validator));
	}

	addComments(channelId: string, lists: RemoteComments[]): number {
		return this.run(planAddComments<SqliteItem>(channelId, lists));
	}

	outbox(channelId: string, limit = 100): OutboxEntry[] {
		const link = this.getLink(channelId);
		if (!link) throw notLinked(channelId);
		const rows = this.statement(`SELECT o.*, CAST(json_extract(i.data, '$.' || json_quote(?)) AS TEXT) AS remote_id FROM sync_outbox o LEFT JOIN items i ON i.id = o.item_id
			WHERE o.channel_id = ? AND o.state IN ('pending', 'sending') ORDER BY o.id LIMIT ?`).all(link.key_field, channelId, limit) as Array<EntryRow & {remote_id: string | null}>;
		return rows.map(row => ({...row, base: JSON.parse(row.base) as unknown, value: JSON.parse(row.value) as unknown}));
	}

	markSending(ids: number[]): void {
		immediate(this.db, () => {
			const mark = this.statement("UPDATE sync_outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ? AND state <> 'held'");
			for (const id of ids) mark.run(id);
		});
	}

	markSent(id: number, remoteValue: unknown): void {
		this.run(planMarkSent<SqliteItem>(id, remoteValue));
	}

	markFailed(id: number, error: string, options: {followUp?: boolean} = {}): void {
		this.run(planMarkFailed<SqliteItem>(id, error, options.followUp === true));
	}

	status(channelId: string): SyncStatus {
		const link = this.getLink(channelId);
		if (!link) throw notLinked(channelId);
		const counts = this.statement(`SELECT
			(SELECT count(*) FROM sync_outbox WHERE channel_id = @channel AND state <> 'held') AS pending,
			(SELECT count(*) FROM sync_outbox WHERE channel_id = @channel AND state = 'held') AS held,
			(SELECT count(*) FROM followups WHERE channel_id = @channel AND status = 'open' AND kind = 'sync_conflict') AS conflicts`).get({channel: channelId}) as {pending: number; held: number; conflicts: number};
		return {link, ...counts, local_only: localOnly(this.channels.get(channelId).fields, link)};
	}

	resolveConflict(followUpId: number, choice: ConflictChoice): FollowUp {
		return this.run(planResolveConflict<SqliteItem>(followUpId, choice, this.writer.validator));
	}

	itemComments(itemId: string, query?: CommentsQuery): ItemComments {
		return commentsPage(this.statement(commentsSql('?', '?')).all(itemId, commentsLimit(query)) as CommentRow[]);
	}

	private syncIo(): SyncIo<SqliteItem> {
		const db = {prepare: (sql: string) => this.statement(sql)};
		return {
			link: ({channelId}) => this.getLink(channelId),
			byKey: ({channel, field, value}) => this.writer.itemWithUnique(channel, field, value),
			bases: ({itemId, source}) => new Map((db.prepare('SELECT field, value FROM sync_bases WHERE item_id = ? AND source = ?').all(itemId, source) as Array<{field: string; value: string}>).map(row => [row.field, row.value])),
			setBase: ({channelId, itemId, field, source, value}) => {
				db.prepare('INSERT INTO sync_bases (channel_id, item_id, source, field, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (item_id, source, field) DO UPDATE SET value = excluded.value').run(channelId, itemId, source, field, value);
				if (source !== 'sync') return;
				// The field's entry is now made from this base; back at it, nothing is left to send.
				db.prepare('UPDATE sync_outbox SET base = ? WHERE item_id = ? AND field = ?').run(value, itemId, field);
				db.prepare("DELETE FROM sync_outbox WHERE item_id = ? AND field = ? AND state = 'pending' AND value = base").run(itemId, field);
			},
			entry: ({itemId, field}) => db.prepare('SELECT * FROM sync_outbox WHERE item_id = ? AND field = ?').get(itemId, field) as EntryRow | undefined,
			entryById: ({id}) => db.prepare('SELECT * FROM sync_outbox WHERE id = ?').get(id) as EntryRow | undefined,
			hold: ({channelId, itemId, field, kind, base, value, at}) => {
				db.prepare(`INSERT INTO sync_outbox (channel_id, item_id, field, kind, base, value, state, attempts, created_at) VALUES (?, ?, ?, ?, ?, ?, 'held', 0, ?)
					ON CONFLICT (item_id, field) DO UPDATE SET state = 'held', value = excluded.value`).run(channelId, itemId, field, kind, base, value, at);
			},
			entryState: ({id, state, error}) => {
				db.prepare('UPDATE sync_outbox SET state = ?, last_error = ? WHERE id = ?').run(state, error ?? null, id);
			},
			dropEntry: ({itemId, field, at}) => {
				db.prepare('DELETE FROM sync_outbox WHERE item_id = ? AND field = ?').run(itemId, field);
				db.prepare("UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = ? WHERE item_id = ? AND key = ? AND status = 'open' AND kind = 'sync_conflict'").run(at, itemId, field);
			},
			forget: ({itemId}) => {
				db.prepare("DELETE FROM sync_bases WHERE item_id = ? AND source = 'sync'").run(itemId);
				db.prepare('DELETE FROM sync_outbox WHERE item_id = ?').run(itemId);
			},
			create: ({channel, values, createdAt, updatedAt}) => this.writer.item(channel.id, this.writer.insert(channel, values, SYNC_ACTOR, createdAt, {updated_at: updatedAt}).item.id)!,
			comments: ({channelId, itemId, comments, add}) => {
				if (!add) db.prepare('DELETE FROM item_comments WHERE item_id = ?').run(itemId);
				const insert = db.prepare('INSERT OR REPLACE INTO item_comments (channel_id, item_id, remote_id, author, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
				for (const comment of comments) insert.run(channelId, itemId, String(comment.remote_id), comment.author ?? null, String(comment.body), comment.created_at, comment.updated_at);
			},
			followUp: ({id}) => {
				const row = db.prepare('SELECT * FROM followups WHERE id = ?').get(id) as FollowUpRow | undefined;
				return row && followUpFromRow(row);
			},
			closeFollowUp: ({id, at}) => {
				db.prepare("UPDATE followups SET status = 'resolved', resolution = 'set', updated_at = ? WHERE id = ?").run(at, id);
				return followUpFromRow(db.prepare('SELECT * FROM followups WHERE id = ?').get(id) as FollowUpRow);
			},
		};
	}
}
