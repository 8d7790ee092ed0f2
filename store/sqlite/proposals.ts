// Proposals on SQLite (docs/review.md): kept by the edit plan in propose mode, decided by a
// person's accept or decline, listed for the review queue. The rules are store/proposals.ts.

import type {Statement} from 'better-sqlite3';
import type {Db} from './db.js';
import {checkProposalQuery, proposalFilters, proposalOf, type NewProposal, type DecisionRecords, type FieldCountsQuery, type ProposalDecider, type ProposalDecision, type ProposalQuery, type ProposalRow, type ProposalStatus} from '../proposals.js';
import type {LoadedChannel} from '../channels.js';
import {parseWhere} from '../pages.js';
import {channelScopeSql, whereSql} from './query.js';
import type {Changes} from '../types.js';
import type {EditMode} from '../writes.js';

/** The proposals table (schema v7), and the index has:proposal and the queue read. */
export const PROPOSALS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS proposals (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	channel_id TEXT NOT NULL,
	item_id TEXT NOT NULL,
	run_id TEXT,
	base_version INTEGER NOT NULL,
	changes TEXT NOT NULL,
	reason TEXT,
	status TEXT NOT NULL,
	created_at TEXT NOT NULL,
	decided_at TEXT,
	decided_by TEXT,
	written_version INTEGER,
	-- v13: how sure the agent was, 0..1, when it said (docs/review.md#confidence).
	confidence REAL
);
CREATE INDEX IF NOT EXISTS proposals_open_by_item ON proposals(item_id) WHERE status = 'open';
CREATE INDEX IF NOT EXISTS proposals_by_channel ON proposals(channel_id, status, id);
CREATE INDEX IF NOT EXISTS proposals_by_run ON proposals(run_id, id);
`;

const hasColumn = (db: Db, table: string, column: string) => (db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column)) !== undefined;
const hasTable = (db: Db, table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;

/**
 * v7: events name their cause (a proposal, a revert of a run), and runs their mode and how many
 * proposals they made. A step before the schema: tables made by an older sift get the columns.
 */
export function addReviewColumns(db: Db): void {
	if (hasTable(db, 'events') && !hasColumn(db, 'events', 'cause')) db.exec('ALTER TABLE events ADD COLUMN cause TEXT');
	if (hasTable(db, 'runs') && !hasColumn(db, 'runs', 'mode')) db.exec('ALTER TABLE runs ADD COLUMN mode TEXT');
	if (hasTable(db, 'runs') && !hasColumn(db, 'runs', 'proposals')) db.exec('ALTER TABLE runs ADD COLUMN proposals INTEGER NOT NULL DEFAULT 0');
}

/** v13: proposals keep the agent's confidence. A step before the schema: a table made by an older sift gets the column. */
export function addProposalConfidence(db: Db): void {
	if (hasTable(db, 'proposals') && !hasColumn(db, 'proposals', 'confidence')) db.exec('ALTER TABLE proposals ADD COLUMN confidence REAL');
}

type StoredProposal = Omit<ProposalRow, 'values' | 'base_values' | 'changes' | 'status' | 'decided_by'> & {changes: string; status: ProposalStatus; decided_by: ProposalDecider | null};

const rowOf = (row: StoredProposal): ProposalRow => proposalOf({...row, changes: JSON.parse(row.changes) as Changes});

const COLUMNS = 'id, channel_id, item_id, run_id, base_version, changes, reason, confidence, status, created_at, decided_at, decided_by, written_version';

/** Statements prepared once per connection: preparing costs more than running on a bulk accept's path. */
const statementCache = new WeakMap<Db, Map<string, Statement>>();

function prepared(db: Db, sql: string): Statement {
	let statements = statementCache.get(db);
	if (!statements) {
		statements = new Map();
		statementCache.set(db, statements);
	}

	let statement = statements.get(sql);
	if (!statement) {
		statement = db.prepare(sql);
		statements.set(sql, statement);
	}

	return statement;
}

/** Keeps a proposal; answers its id. */
export function insertProposal(db: Db, proposal: NewProposal): number {
	const result = prepared(db, `INSERT INTO proposals (channel_id, item_id, run_id, base_version, changes, reason, confidence, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)`)
		.run(proposal.channel_id, proposal.item_id, proposal.run_id, proposal.base_version, JSON.stringify(proposal.changes), proposal.reason, proposal.confidence, proposal.created_at);
	return Number(result.lastInsertRowid);
}

/** The proposals with these ids that exist. */
export function proposalsWithIds(db: Db, ids: readonly number[]): ProposalRow[] {
	// json_each: one statement however many ids (a thousand placeholders would pass SQLite's limit one day).
	const rows = prepared(db, `SELECT ${COLUMNS} FROM proposals WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as StoredProposal[];
	return rows.map(rowOf);
}

export function recordDecision(db: Db, id: number, decision: ProposalDecision): void {
	prepared(db, 'UPDATE proposals SET status = ?, changes = ?, base_version = ?, written_version = ?, decided_at = ?, decided_by = ? WHERE id = ?')
		.run(decision.status, JSON.stringify(decision.changes), decision.base_version, decision.written_version, decision.status === 'open' ? null : decision.decided_at, decision.status === 'open' ? null : decision.decided_by, id);
}

/** The queue: proposals by channel, run, item and status (open by default), optionally only for items matching `where`; oldest first. */
export function listProposals(db: Db, query: ProposalQuery, channel: LoadedChannel | undefined): ProposalRow[] {
	const checked = checkProposalQuery(query);
	const filters = proposalFilters(checked);
	const where = checked.where !== undefined && channel ? whereSql(channel, parseWhere(channel, checked.where, checked.now).terms) : {sql: '', params: []};
	const conditions = filters.map(([column]) => `proposals.${column} = ?`);
	if (checked.afterId !== undefined) conditions.push(`proposals.id > ${checked.afterId}`);
	// A subquery: inside it, every name of the compiled terms means the item's column.
	if (where.sql !== '' && channel) conditions.push(`EXISTS (SELECT 1 FROM items WHERE items.id = proposals.item_id AND ${channelScopeSql(channel.id)}${where.sql})`);
	const sql = `SELECT ${COLUMNS} FROM proposals WHERE ${conditions.length > 0 ? conditions.join(' AND ') : '1'} ORDER BY id LIMIT ?`;
	return (db.prepare(sql).all(...filters.map(([, value]) => value), ...where.params, checked.limit) as StoredProposal[]).map(rowOf);
}

export function countOpenProposals(db: Db, channelId: string): number {
	return (db.prepare("SELECT count(*) AS n FROM proposals WHERE channel_id = ? AND status = 'open'").get(channelId) as {n: number}).n;
}

/** The keys the item's open proposals propose. */
export function openProposalKeys(db: Db, itemId: string): string[] {
	const rows = prepared(db, "SELECT changes FROM proposals WHERE item_id = ? AND status = 'open'").all(itemId) as Array<{changes: string}>;
	return [...new Set(rows.flatMap(row => Object.keys(JSON.parse(row.changes) as object)))];
}

/** The mode a run was recorded in; apply for a run not recorded. */
export function runModeOf(db: Db, runId: string): EditMode {
	const row = prepared(db, 'SELECT mode FROM runs WHERE id = ?').get(runId) as {mode: string | null} | undefined;
	return row?.mode === 'propose' ? 'propose' : 'apply';
}

/** An item's delete closes its open proposals: there is nothing left to write them to (declined, by no one). */
export function declineForDeletedItem(db: Db, itemId: string, at: string): void {
	prepared(db, "UPDATE proposals SET status = 'declined', decided_at = ? WHERE item_id = ? AND status = 'open'").run(at, itemId);
}

/** What the per-field counts fold (store/proposals.ts foldFieldCounts): the proposals, and the accepts' events. */
export function decisionRecords(db: Db, query: FieldCountsQuery): DecisionRecords {
	const run = query.runId === undefined ? '' : ' AND run_id = ?';
	const params = query.runId === undefined ? [query.channelId] : [query.channelId, query.runId];
	const proposals = (db.prepare(`SELECT status, changes FROM proposals WHERE channel_id = ?${run}`).all(...params) as Array<{status: ProposalStatus; changes: string}>)
		.map(row => ({status: row.status, keys: Object.keys(JSON.parse(row.changes) as object)}));
	const accepts = (db.prepare(`SELECT changes, json_extract(cause, '$.auto') AS auto FROM events WHERE channel_id = ? AND type = 'proposal.accepted'${query.runId === undefined ? '' : " AND json_extract(cause, '$.run_id') = ?"}`).all(...params) as Array<{changes: string; auto: number | null}>)
		.map(row => ({keys: Object.keys(JSON.parse(row.changes) as object), auto: row.auto === 1}));
	return {proposals, accepts};
}
