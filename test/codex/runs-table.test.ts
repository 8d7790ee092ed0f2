// The runs table and its migration.

import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {openDatabase} from '../../store/sqlite/database.js';
import {getRun, listRuns, recordRunEnd, recordRunStart, RUNS_SCHEMA_SQL} from '../../store/sqlite/runs.js';
import {tempDir} from './support.js';

/** A store file (runs read the channel's latest sequence from its events), the runs schema applied once more: it is idempotent. */
function openDb() {
	const {db} = openDatabase(path.join(tempDir(), 'runs.db'), {create: true});
	db.exec(RUNS_SCHEMA_SQL);
	return db;
}

const start = (id: string) => ({id, channelId: 'bugs', itemIds: ['itm_1', 'itm_2'], instruction: 'triage', startedAt: '2025-01-02T03:04:05.000Z', logPath: `/state/runs/${id}.jsonl`});

describe('runs table', () => {
	it('records a start, then the end, and reads the row back with JSON parsed', () => {
		const db = openDb();
		recordRunStart(db, start('run-1'));
		expect(getRun(db, 'run-1')).toMatchObject({id: 'run-1', item_ids: ['itm_1', 'itm_2'], finished_at: null, outcome: null, usage: null, edits_applied: 0});
		const ended = recordRunEnd(db, 'run-1', {
			finishedAt: '2025-01-02T03:05:00.000Z',
			outcome: 'partial',
			usage: {input_tokens: 10, cached_input_tokens: 0, output_tokens: 5},
			editsApplied: 2,
			rejections: 1,
			followupsOpened: 3,
			error: 'stopped after answering',
		});
		expect(ended).toBe(true);
		expect(getRun(db, 'run-1')).toEqual({
			id: 'run-1',
			channel_id: 'bugs',
			item_ids: ['itm_1', 'itm_2'],
			instruction: 'triage',
			started_at: '2025-01-02T03:04:05.000Z',
			finished_at: '2025-01-02T03:05:00.000Z',
			outcome: 'partial',
			usage: {input_tokens: 10, cached_input_tokens: 0, output_tokens: 5},
			edits_applied: 2,
			rejections: 1,
			followups_opened: 3,
			error: 'stopped after answering',
			log_path: '/state/runs/run-1.jsonl',
			owner_pid: null,
			process_group: null,
			// No channel "bugs" here: no events, so its latest sequence is 0 at both ends.
			start_sequence: 0,
			end_sequence: 0,
			mode: 'apply',
			proposals: 0,
			// How many of its proposals a person accepted and declined: none proposed, none decided.
			accepted: 0,
			declined: 0,
		});
	});

	it('lists newest first with a limit; unknown ids read as undefined and end as false', () => {
		const db = openDb();
		for (const id of ['run-20250101', 'run-20250103', 'run-20250102']) recordRunStart(db, start(id));
		expect(listRuns(db, {limit: 2}).map(row => row.id)).toEqual(['run-20250103', 'run-20250102']);
		expect(getRun(db, 'nope')).toBeUndefined();
		expect(recordRunEnd(db, 'nope', {finishedAt: '', outcome: 'ok', usage: null, editsApplied: 0, rejections: 0, followupsOpened: 0, error: null})).toBe(false);
	});

	it('refuses a second start with the same id', () => {
		const db = openDb();
		recordRunStart(db, start('run-1'));
		expect(() => recordRunStart(db, start('run-1'))).toThrow(/UNIQUE/);
	});
});
