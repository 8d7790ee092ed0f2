// A channel and database for the run command tests.

import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {expect} from 'vitest';
import {sift} from '../support/cli.js';
import {FAKE_CODEX, tempDir} from './support.js';

const CHANNEL = {
	id: 'bugs',
	name: 'Bugs',
	fields: [
		{key: 'ticket', label: 'Ticket', type: 'text', is_required: true, is_unique: true, config: {}},
		{key: 'status', label: 'Status', type: 'select', is_required: false, is_unique: false, config: {options: [{value: 'new', label: 'New', color: 'gray'}]}},
	],
};

export type Setup = {db: string; env: NodeJS.ProcessEnv; ids: string[]; dir: string};

/** A database with one channel of two items, a private state dir, and the fake codex (FAKE_* variables as given). */
export function setUp(fakeEnv: Record<string, string> = {}, options: {dir?: string; name?: string} = {}): Setup {
	const dir = options.dir ?? tempDir();
	const db = path.join(dir, options.name ?? 'sift.db');
	const importFile = path.join(dir, 'bugs.json');
	writeFileSync(importFile, JSON.stringify({channel: CHANNEL, items: ['BUG-1', 'BUG-2'].map(ticket => ({values: {ticket, status: 'new'}}))}));
	const env = {SIFT_STATE_DIR: path.join(dir, 'state'), SIFT_CODEX: FAKE_CODEX, FAKE_CODEX_PIDFILE: path.join(dir, 'pids'), ...fakeEnv};
	const imported = sift(['import', importFile, '--db', db], env);
	expect(imported.code, imported.stderr).toBe(0);
	const listed = JSON.parse(sift(['list', '--db', db, '--json'], env).stdout) as {items: Array<{id: string}>};
	return {db, env, ids: listed.items.map(item => item.id), dir};
}
