// `sift demo` into the default database, `--reset`.

import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import {ensureBuilt, fileDigest, sift, siftJson, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

/** The pid of a process that has exited: no process has it now (pids are not reused this soon). */
function deadPid(): number {
	return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('sift demo and the default database', () => {
	it('loads the demo into the default database, so the other commands need no --db', () => {
		const data = tempDir('sift-data-');
		const env = {XDG_DATA_HOME: data};
		const made = sift(['demo', '--no-open', '--items', '50'], env);
		expect(made.code, made.stderr).toBe(0);
		expect(existsSync(join(data, 'sift', 'sift.db'))).toBe(true);
		expect(siftJson<any[]>(['channels'], env)).toMatchObject([{id: 'bugs', item_count: 50}]);
		const listed = sift(['list', '--limit', '3'], env);
		expect(listed.code, listed.stderr).toBe(0);
		expect(listed.stdout).toContain('BUG-0050');
		expect(siftJson(['show', 'BUG-0007'], env)).toMatchObject({values: {ticket: 'BUG-0007'}});
		// A second demo finds it there and leaves it alone.
		const again: any = siftJson(['demo', '--no-open', '--items', '5'], env);
		expect(again.created).toBe(false);
		expect(siftJson<any[]>(['channels'], env)[0].item_count).toBe(50);
	});

	it('honours $SIFT_DB', () => {
		const db = join(tempDir('sift-env-'), 'team.db');
		expect(sift(['demo', '--no-open', '--items', '3'], {SIFT_DB: db}).code).toBe(0);
		expect(siftJson<any[]>(['channels', '--db', db])[0]).toMatchObject({id: 'bugs', item_count: 3});
	});

	it('adds the demo channel beside other channels; --reset then refuses and changes nothing', () => {
		const dir = tempDir('sift-mixed-');
		const db = join(dir, 'sift.db');
		writeFileSync(join(dir, 'other.json'), JSON.stringify({channel: {...bugsChannel, id: 'mine', name: 'Mine'}, items: [{values: {ticket: 'M-1', title: 'keep me'}}]}));
		expect(sift(['import', join(dir, 'other.json'), '--db', db]).code).toBe(0);
		expect(siftJson(['demo', '--no-open', '--items', '4', '--db', db])).toMatchObject({created: true});
		expect(siftJson<any[]>(['channels', '--db', db]).map(channel => [channel.id, channel.item_count])).toEqual([['bugs', 4], ['mine', 1]]);
		const before = fileDigest(db);
		const reset = sift(['demo', '--no-open', '--reset', '--db', db]);
		expect(reset.code).toBe(2);
		expect(reset.stderr).toMatch(/^sift: .*holds other channels \(mine\); --reset only replaces a database that holds nothing but the demo/);
		expect(fileDigest(db)).toBe(before);
	});

	it('--reset rebuilds a database that holds only the demo', () => {
		const db = join(tempDir('sift-reset-'), 'sift.db');
		expect(sift(['demo', '--no-open', '--items', '4', '--db', db]).code).toBe(0);
		expect(siftJson(['demo', '--no-open', '--items', '6', '--reset', '--db', db])).toMatchObject({created: true});
		expect(siftJson<any[]>(['channels', '--db', db])[0].item_count).toBe(6);
	});

	it('removes the half-built files a killed demo left, keeping a live build\'s', () => {
		const data = tempDir('sift-data-');
		const dir = join(data, 'sift');
		mkdirSync(dir, {recursive: true});
		const dead = deadPid();
		const leftovers = [`sift.db.building-${dead}`, `sift.db.building-${dead}-wal`, `sift.db.building-${dead}-shm`, `other.db.building-${dead}`];
		for (const name of leftovers) writeFileSync(join(dir, name), 'half');
		const live = `sift.db.building-${process.pid}`;
		writeFileSync(join(dir, live), 'in progress');
		expect(sift(['demo', '--no-open', '--items', '2'], {XDG_DATA_HOME: data}).code).toBe(0);
		expect(readdirSync(dir).sort()).toEqual([live, 'sift.db'].sort());
	});
});
