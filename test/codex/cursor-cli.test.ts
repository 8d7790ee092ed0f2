// The agent cursor through the CLI with the fake codex (a real process, which writes down the prompt
// it was given): `sift run` without items is told where the channel's last finished run stopped,
// a run with items is not, a run that failed leaves the cursor alone, and `sift runs` shows each
// run's start and end sequence.

import {readFileSync} from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {ensureBuilt, sift} from '../support/cli.js';
import {setUp, type Setup} from './cli-setup.js';

beforeAll(() => ensureBuilt());

type RunJson = {id: string; outcome: string; item_ids: string[]; start_sequence: number | null; end_sequence: number | null};

let runs = 0;
/** `sift run` with the fake codex; returns the prompt Codex was given. */
function run(setup: Setup, args: string[], env: Record<string, string> = {}): {code: number | null; prompt: string} {
	const argsFile = path.join(setup.dir, `args-${runs++}.json`);
	const result = sift(['run', ...args, '--db', setup.db, '--json'], {...setup.env, FAKE_CODEX_ARGS_FILE: argsFile, ...env});
	return {code: result.code, prompt: (JSON.parse(readFileSync(argsFile, 'utf8')) as {prompt: string}).prompt};
}

/** Outside edits (a person, through the store): each moves the channel's latest sequence by one. */
function edit(setup: Setup, times: number): void {
	const store = openStore(setup.db);
	try {
		for (let n = 0; n < times; n++) store.editItem({channelId: 'bugs', itemId: setup.ids[0]!, values: {ticket: `BUG-1-${runs}-${n}`}, actor: {kind: 'human'}});
	} finally {
		store.close();
	}
}

const history = (setup: Setup) => JSON.parse(sift(['runs', '--db', setup.db, '--json'], setup.env).stdout) as RunJson[];

describe('the agent cursor through sift run', () => {
	it('the first run is told there is nothing to catch up from; the next polls from where it stopped', () => {
		const setup = setUp();
		// The import made events 1 and 2.
		const first = run(setup, ['First pass']);
		expect(first.code).toBe(0);
		expect(first.prompt).toContain('No earlier run on channel "bugs" has finished');
		expect(first.prompt).not.toContain('after_sequence');

		edit(setup, 2);
		const second = run(setup, ['Catch up']);
		expect(second.code).toBe(0);
		expect(second.prompt).toContain('ended at event sequence 2');
		expect(second.prompt).toContain('after_sequence 2');
		expect(second.prompt).toContain('Do not call list_record_items to find what changed.');

		// A run with explicit items is told nothing of the cursor.
		const items = run(setup, ['Just these', '--items', setup.ids.join(',')]);
		expect(items.code).toBe(0);
		expect(items.prompt).not.toMatch(/after_sequence|No earlier run/);

		// A failed run does not move the cursor: the next starts from the last run that finished its turn.
		edit(setup, 1);
		expect(run(setup, ['Refused'], {FAKE_CODEX_MODE: 'auth'}).code).toBe(4);
		expect(run(setup, ['Again']).prompt).toContain('after_sequence 4');

		const rows = history(setup);
		expect(rows.map(row => [row.outcome, row.start_sequence, row.end_sequence])).toEqual([
			['ok', 5, 5],
			['auth_required', 5, 5],
			['ok', 4, 4],
			['ok', 4, 4],
			['ok', 2, 2],
		]);
	});

	it('sift runs shows the sequences in its table and in one run\'s detail', () => {
		const setup = setUp();
		const {code} = run(setup, ['First pass']);
		expect(code).toBe(0);
		const [row] = history(setup);
		const listing = sift(['runs', '--db', setup.db], setup.env);
		expect(listing.stdout).toMatch(/ok .* 1 edited, 1 refused\s+seq 2\.\.2\s+First pass\n$/);
		const detail = sift(['runs', row!.id, '--db', setup.db], setup.env);
		expect(detail.stdout).toContain('events: sequence 2 at the start, 2 at the end');
	});
});
