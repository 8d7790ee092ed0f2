// Codex runs on PostgreSQL: the same rows as the SQLite runs table.

import type pg from 'pg';
import type {RunsApi} from '../api.js';
import type {RunEnd, RunRow, RunStart} from '../runs.js';

// The owner's pid and process group are local facts the reaper of one machine uses; a shared store
// does not keep them (a pid means nothing on another host), so they read as null.
const COLUMNS = 'id, channel_id, item_ids, instruction, started_at, finished_at, outcome, usage, edits_applied, rejections, followups_opened, error, log_path, NULL::integer AS owner_pid, NULL::integer AS process_group';

export function pgRuns(pool: pg.Pool): RunsApi {
	return {
		async start(run: RunStart) {
			await pool.query('INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, log_path) VALUES ($1, $2, $3, $4, $5, $6)',
				[run.id, run.channelId, JSON.stringify(run.itemIds), run.instruction, run.startedAt, run.logPath]);
		},
		async end(id: string, end: RunEnd) {
			const result = await pool.query(`UPDATE runs SET finished_at = $2, outcome = $3, usage = $4, edits_applied = $5,
				rejections = $6, followups_opened = $7, error = $8 WHERE id = $1`,
			[id, end.finishedAt, end.outcome, end.usage === null ? null : JSON.stringify(end.usage), end.editsApplied, end.rejections, end.followupsOpened, end.error]);
			return result.rowCount === 1;
		},
		async list(options: {limit?: number} = {}) {
			return (await pool.query<RunRow>(`SELECT ${COLUMNS} FROM runs ORDER BY id DESC LIMIT $1`, [options.limit ?? 50])).rows;
		},
		async get(id: string) {
			return (await pool.query<RunRow>(`SELECT ${COLUMNS} FROM runs WHERE id = $1`, [id])).rows[0];
		},
		// TODO(issue 10): owner host, pid and process group on PostgreSQL.
		async setProcessGroup() {},
		async unfinished() {
			return [];
		},
	};
}
