// `sift edit` under another process's write lock: says once that it waits, then writes on release;
// a start with an abandoned run to reap does not wait for the lock.

import {spawn} from 'node:child_process';
import {beforeAll, describe, expect, it} from 'vitest';
import {demoDatabase, ensureBuilt, sift, SIFT_ENTRY, siftJson, tempDir} from '../support/cli.js';
import {holdWriteLock} from '../support/lock-holder.js';

beforeAll(() => ensureBuilt());

const WAITING = 'sift: waiting for another sift process to finish writing (an import can take a few minutes)…';

describe('a write that meets another process\'s lock', () => {
	it('says once that it waits, then succeeds when the lock is released', async () => {
		const db = demoDatabase(3);
		const holder = await holdWriteLock(db);
		try {
			let released: Promise<void> | undefined;
			const edit = spawn(process.execPath, [SIFT_ENTRY, 'edit', 'BUG-0001', 'owner=ren', '--db', db], {
				env: {...process.env, SIFT_DB: '', XDG_DATA_HOME: tempDir('sift-data-')},
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			let stderr = '';
			let stdout = '';
			edit.stdout.on('data', chunk => stdout += String(chunk));
			// Release the lock as soon as sift says it waits: the write must then go through.
			edit.stderr.on('data', chunk => {
				stderr += String(chunk);
				if (stderr.includes(WAITING)) released ??= holder.release();
			});
			const code = await new Promise(resolve => edit.on('close', resolve));
			await released;
			expect(code, stderr).toBe(0);
			expect(stderr.split(WAITING)).toHaveLength(2);
			expect(stdout).toMatch(/now version 2/);
			expect(siftJson(['show', 'BUG-0001', '--db', db])).toMatchObject({version: 2, values: {owner: 'ren'}});
		} finally {
			holder.kill();
		}
	}, 40_000);
});

describe('sift\'s start under another process\'s lock', () => {
	it('does not wait long to reap an abandoned run: the command goes on, a later start records it', async () => {
		const db = demoDatabase(3);
		// A run whose sift is gone (a pid above any pid_max), as a SIGKILLed sift leaves it.
		const {default: Database} = await import('better-sqlite3');
		const raw = new Database(db);
		raw.prepare(`INSERT INTO runs (id, channel_id, item_ids, instruction, started_at, owner_pid) VALUES ('run-orphan', 'bugs', '[]', 'triage', ?, ?)`).run(new Date().toISOString(), 2 ** 22 + 4321);
		raw.close();
		const {holdWriteLock} = await import('../support/lock-holder.js');
		const holder = await holdWriteLock(db);
		try {
			// A write here may wait a day for the lock: the list ends while the lock is still held only
			// because the reaper gives up on its write (after a second) and the process does not wait for it.
			const listed = sift(['list', '--db', db, '--json'], {SIFT_LOCK_WAIT: '86400'});
			expect(listed.code, listed.stderr).toBe(0);
			expect(siftJson<Array<{id: string; outcome: string | null}>>(['runs', '--db', db]).find(run => run.id === 'run-orphan')?.outcome ?? null).toBeNull();
			await holder.release();
			expect(siftJson<Array<{id: string; outcome: string | null}>>(['runs', '--db', db]).find(run => run.id === 'run-orphan')?.outcome).toBe('abandoned');
		} finally {
			holder.kill();
		}
	}, 60_000);
});
