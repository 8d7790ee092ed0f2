// Import files and the import command around the store: a byte order mark at the start is skipped,
// a key given twice is refused by name; a failed import leaves no file and no directory it made; while an import
// holds the write lock, another writer waits (and is told why) instead of failing.

import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import importCommand from '../../source/commands/import.js';
import type {CliFlags} from '../../source/commands/context.js';
import {findDuplicateKey} from '../../source/import/duplicate-keys.js';
import {ImportFileError, readImportFile} from '../../source/import/read-import-file.js';
import {openAsyncStore, openStore} from '../../store/index.js';
import {cleanTempDirs, fileDigest, human, kitChannel, tempDir} from './helpers.js';

afterAll(() => cleanTempDirs());

const root = fileURLToPath(new URL('../..', import.meta.url));
const channel = {id: 'c', name: 'C', fields: [{key: 't', label: 'T', type: 'text'}, {key: 'meta', label: 'Meta', type: 'json'}]};

function fileWith(text: string | Buffer): string {
	const path = join(tempDir(), 'import.json');
	writeFileSync(path, text);
	return path;
}

/** Reads the whole import file (channel and every item) and returns the refusal message. */
function readFailure(path: string): string {
	try {
		const file = readImportFile(path);
		try {
			Array.from(file.items);
		} finally {
			file.close();
		}
	} catch (error) {
		if (error instanceof ImportFileError) {
			return error.message;
		}

		throw error;
	}

	return expect.unreachable('expected the file to be refused');
}

describe('import files', () => {
	it('a UTF-8 byte order mark is skipped: the file reads as it would without one', () => {
		const document = JSON.stringify({channel, items: [{values: {t: 'after the BOM'}}]});
		const source = readImportFile(fileWith(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(document)])));
		try {
			expect(source.channel).toEqual(channel);
			expect([...source.items]).toEqual([{values: {t: 'after the BOM'}}]);
		} finally {
			source.close();
		}
	});

	it('a BOM anywhere but the start is still refused (JSON allows it nowhere)', () => {
		const path = fileWith(Buffer.concat([Buffer.from(' '), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({channel, items: []}))]));
		expect(readFailure(path)).toMatch(/expected "\{"/);
	});

	it('a key twice in an item\'s values (or anywhere in an item or the channel) is refused, naming it', () => {
		const items = '[{"values": {"t": "a"}}, {"values": {"t": "first", "t": "second"}}]';
		expect(readFailure(fileWith(`{"channel": ${JSON.stringify(channel)}, "items": ${items}}`))).toMatch(/: items\[1\] has the key "t" twice in one object \(at byte \d+\)$/);
		expect(readFailure(fileWith(`{"channel": ${JSON.stringify(channel)}, "items": [{"values": {"t": "a"}, "values": {"t": "b"}}]}`))).toMatch(/items\[0\] has the key "values" twice/);
		expect(readFailure(fileWith(`{"channel": ${JSON.stringify(channel)}, "items": [{"values": {"meta": {"a": 1, "\\u0061": 2}}}]}`))).toMatch(/items\[0\] has the key "a" twice/);
		expect(readFailure(fileWith(`{"channel": {"id": "c", "id": "d", "name": "C", "fields": []}, "items": []}`))).toMatch(/"channel" has the key "id" twice/);
	});

	it('findDuplicateKey tells keys from string values, nested objects and arrays apart', () => {
		expect(findDuplicateKey('{"a": "a", "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}], "d": "\\"a\\""}')).toBeUndefined();
		expect(findDuplicateKey('{"a": [1, {"x": 1}], "b": {"c": {}, "d": []}, "a": 2}')).toBe('a');
		expect(findDuplicateKey('[{"x": 1, "y": {"z": "\\\\", "z": 2}}]')).toBe('z');
		// With the parsed value, counting settles most texts; a quote-colon inside a string falls back to the scan.
		const withParsed = (text: string) => findDuplicateKey(text, JSON.parse(text));
		expect(withParsed('{"a": 1, "b": {"a": [1, {"c": 2}]}}')).toBeUndefined();
		expect(withParsed('{"a": 1, "b": {"c": 1, "c" : 2}}')).toBe('c');
		expect(withParsed('{"a": "he said \\"no\\": twice", "b": 1}')).toBeUndefined();
		expect(withParsed('{"a": "he said \\"no\\": twice", "a": 1}')).toBe('a');
		expect(withParsed(`[${'{"k": 1},'.repeat(200_000)}{"k": 1, "k": 2}]`)).toBe('k');
	});
});

function context(input: string[], db: string) {
	let stderr = '';
	const sink = () => new Writable({write(chunk, _encoding, done) {
		stderr += String(chunk);
		done();
	}});
	const flags = {db, json: true, all: false, reset: false, open: false, filter: [], grant: [], codexConfig: [], keepApiEnv: false} satisfies CliFlags;
	return {context: {input, flags, stdout: sink(), stderr: sink(), env: {}}, output: () => stderr};
}

describe('the import command', () => {
	it('a failed import into a new path removes the file and the directories it created', async () => {
		const dir = tempDir();
		const db = join(dir, 'new', 'place', 'sift.db');
		const bad = fileWith(JSON.stringify({channel, items: [{values: {t: 'ok'}}, {values: {t: 5}}]}));
		await expect(importCommand(context([bad], db).context)).rejects.toThrow('items[1]: values.t must be a string, got 5');
		expect(readdirSync(dir)).toEqual([]);
	});

	it('a failed import into an existing store leaves it byte-identical', async () => {
		const db = join(tempDir(), 'sift.db');
		const store = openStore(db, {create: true});
		store.importChannel({channel: kitChannel, items: [{values: {title: 'kept'}}]});
		store.close();
		const before = fileDigest(db);
		const bad = fileWith(JSON.stringify({channel, items: [{values: {t: 'ok'}, created_at: '2026-02-30'}]}));
		await expect(importCommand(context([bad], db).context)).rejects.toThrow(/created_at must be an ISO 8601 date/);
		expect(fileDigest(db)).toBe(before);
	});
});

/** A child process that takes the write lock (as a long import does), says "locked", and lets go after `holdMs`. */
async function holdWriteLock(db: string, holdMs: number) {
	const script = `const Database = require('better-sqlite3');
		const db = new Database(process.argv[1]);
		db.exec('BEGIN IMMEDIATE');
		process.stdout.write('locked\\n');
		setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`; // the lock held this long is the wait under test
	const child = spawn(process.execPath, ['-e', script, db, String(holdMs)], {cwd: root, stdio: ['ignore', 'pipe', 'inherit']});
	const [chunk] = await once(child.stdout, 'data') as [Buffer];
	expect(String(chunk)).toBe('locked\n');
	return child;
}

describe('a writer that meets a long write lock', () => {
	it('the asynchronous store is told once and waits for the lock instead of failing', async () => {
		const db = join(tempDir(), 'busy.db');
		const setup = openStore(db, {create: true});
		setup.importChannel({channel: kitChannel, items: [{values: {title: 'x'}}]});
		const id = setup.listPage('kit').items[0]!.id;
		setup.close();

		const notices: string[] = [];
		const store = await openAsyncStore(db, {busyTimeoutMs: 100, onLockWait: () => notices.push('waiting')});
		const holder = await holdWriteLock(db, 1500);
		const exited = once(holder, 'exit');
		const result = await store.editItem({channelId: 'kit', itemId: id, values: {title: 'after the import'}, actor: human});
		expect(result.item.version).toBe(2);
		expect(notices).toEqual(['waiting']);
		await exited;
		await store.close();
	});

	it('without it, fails after the busy timeout as before', async () => {
		const db = join(tempDir(), 'busy.db');
		const setup = openStore(db, {create: true});
		setup.importChannel({channel: kitChannel, items: [{values: {title: 'x'}}]});
		const id = setup.listPage('kit').items[0]!.id;
		setup.close();

		const store = openStore(db, {busyTimeoutMs: 100});
		const holder = await holdWriteLock(db, 1500);
		expect(() => store.editItem({channelId: 'kit', itemId: id, values: {title: 'y'}, actor: human})).toThrow('database is locked');
		await once(holder, 'exit');
		store.close();
	});
});
