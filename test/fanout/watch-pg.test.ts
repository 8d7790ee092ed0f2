// `sift watch` on PostgreSQL: woken by LISTEN, each new item once.

import path from 'node:path';
import {writeFileSync} from 'node:fs';
import {execa} from 'execa';
import {beforeAll, expect, it} from 'vitest';
import {openAsyncStore} from '../../store/index.js';
import {ensureBuilt, sift, SIFT_ENTRY, tempDir} from '../support/cli.js';
import {describePg, useTestDatabase} from '../support/pg.js';
import {FAKE_CODEX, isAlive, readPids} from '../codex/support.js';
import {waitUntil} from '../support/wait.js';
import {watchCaughtUp} from './support.js';

const CHANNEL = {id: 'bugs', name: 'Bugs', fields: [{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}}]};

describePg('sift watch on PostgreSQL', () => {
	const database = useTestDatabase();
	beforeAll(() => ensureBuilt());

	it('listens for the channel\'s notifications, and sends each new item once', async () => {
		const db = await database.freshSchemaUrl();
		const dir = tempDir('sift-watch-pg-');
		const file = path.join(dir, 'bugs.json');
		writeFileSync(file, JSON.stringify({channel: CHANNEL, items: [{values: {ticket: 'OLD-1'}}]}));
		const env = {SIFT_STATE_DIR: path.join(dir, 'state'), SIFT_CODEX: FAKE_CODEX, FAKE_CODEX_PIDFILE: path.join(dir, 'pids')};
		expect(sift(['import', file, '--db', db], env).code).toBe(0);
		const child = execa(process.execPath, [SIFT_ENTRY, 'watch', '--db', db, '--json', '--settle', '1s', '--batch', '3'], {env: {...process.env, ...env}, reject: false});
		const store = await openAsyncStore(db);
		try {
			let stderr = '';
			await new Promise<void>(resolve => {
				child.stderr!.on('data', (chunk: Buffer) => {
					stderr += chunk.toString();
					if (stderr.includes('sift: watching')) resolve();
				});
			});
			expect(stderr).toContain('woken by PostgreSQL notifications');
			const created: string[] = [];
			for (let index = 0; index < 7; index++) {
				created.push((await store.createItem('bugs', {ticket: `NEW-${index}`}, {kind: 'human'})).item.id);
			}

			await waitUntil(async () => {
				const runs = await store.runs.list();
				return runs.flatMap(run => run.item_ids).length >= 7 && runs.every(run => run.finished_at !== null);
			}, 'all 7 items sent, every run finished', {timeoutMs: 30_000, intervalMs: 100}).catch((error: Error) => {
				throw new Error(`${error.message}: ${stderr}`);
			});
			await watchCaughtUp(env.SIFT_STATE_DIR, store);
			child.kill('SIGINT');
			const result = await child;
			expect(result.exitCode).toBe(130);
			const runs = await store.runs.list();
			const sent = runs.flatMap(run => run.item_ids);
			expect([...sent].sort()).toEqual([...created].sort());
			expect(runs.every(run => run.outcome === 'ok' && run.item_ids.length <= 3)).toBe(true);
			expect(String(result.stdout).trimEnd().split('\n')).toHaveLength(runs.length);
			expect(readPids(env.FAKE_CODEX_PIDFILE).filter(isAlive)).toEqual([]);
		} finally {
			child.kill('SIGKILL');
			await child.catch(() => undefined);
			await store.close();
		}
	}, 90_000);
});
