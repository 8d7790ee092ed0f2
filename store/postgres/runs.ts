// Codex runs on PostgreSQL: the same rows as the SQLite runs table, plus the host that owns each
// run. A shared store is opened from several machines, and a pid or process group means something
// only on the host that recorded it: the reaper of one machine sees only its own unfinished runs.
// A start and an end read the channel's latest sequence in the same statement that records them.

import {hostname} from 'node:os';
import type pg from 'pg';
import type {RunsApi} from '../contract.js';
import {CURSOR_OUTCOMES, DECIDED_COLUMNS, parseRunRow, type RunEnd, type RunStart, type StoredRunRow, type UnfinishedRun} from '../runs.js';

// The JSON columns as text, so both backends' rows are parsed by one function.
const COLUMNS = 'id, channel_id, item_ids::text AS item_ids, instruction, started_at, finished_at, outcome, usage::text AS usage, edits_applied, rejections, followups_opened, error, log_path, owner_pid, process_group, start_sequence, end_sequence, mode, proposals';

const LATEST_SEQUENCE = (channel: string) => `coalesce((SELECT last_sequence FROM channels WHERE id = ${channel}), 0)`;

export function pgRuns(pool: pg.Pool, host = hostname()): Omit<RunsApi, 'diff' | 'revert'> {
	return {
		async start(run: RunStart) {
			await pool.query(`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path, owner_pid, owner_host, start_sequence, mode)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${LATEST_SEQUENCE('$2')}, $9)`,
				[run.id, run.channelId, JSON.stringify(run.itemIds), run.instruction, run.startedAt, run.logPath, run.ownerPid ?? null, host, run.mode === 'propose' ? 'propose' : null]);
		},
		async end(id: string, end: RunEnd) {
			// One statement: the run's end and the revocation of its tokens (however the run ended,
			// the reaper's abandoned included) commit together.
			const result = await pool.query(`WITH revoked AS (
					UPDATE tokens SET revoked_at = $9 WHERE run_id = $1 AND revoked_at IS NULL
				)
				UPDATE runs SET finished_at = $2, outcome = $3, usage = $4, edits_applied = $5,
				rejections = $6, followups_opened = $7, error = $8, proposals = $10, end_sequence = ${end.endSequenceUnknown ? 'NULL' : LATEST_SEQUENCE('runs.channel_id')}
				WHERE id = $1${end.onlyIfUnfinished ? ' AND finished_at IS NULL' : ''}`,
			[id, end.finishedAt, end.outcome, end.usage === null ? null : JSON.stringify(end.usage), end.editsApplied, end.rejections, end.followupsOpened, end.error, new Date().toISOString(), end.proposals ?? 0]);
			return result.rowCount === 1;
		},
		async list(options: {limit?: number} = {}) {
			return (await pool.query<StoredRunRow>(`SELECT ${COLUMNS}, ${DECIDED_COLUMNS} FROM runs ORDER BY id DESC LIMIT $1`, [options.limit ?? 50])).rows.map(parseRunRow);
		},
		async get(id: string) {
			const row = (await pool.query<StoredRunRow>(`SELECT ${COLUMNS}, ${DECIDED_COLUMNS} FROM runs WHERE id = $1`, [id])).rows[0];
			return row && parseRunRow(row);
		},
		async lastFinished(channelId: string) {
			const row = (await pool.query<StoredRunRow>(`SELECT ${COLUMNS} FROM runs WHERE channel_id = $1 AND end_sequence IS NOT NULL AND outcome = ANY($2)
				ORDER BY end_sequence DESC, finished_at DESC, id DESC LIMIT 1`, [channelId, [...CURSOR_OUTCOMES]])).rows[0];
			return row && parseRunRow(row);
		},
		async setProcessGroup(id: string, group: number) {
			await pool.query('UPDATE runs SET process_group = $2 WHERE id = $1', [id, group]);
		},
		async unfinished() {
			return (await pool.query<UnfinishedRun>('SELECT id, owner_pid, process_group, log_path FROM runs WHERE finished_at IS NULL AND owner_host = $1', [host])).rows;
		},
	};
}
