// Which files a store opens and how: only import and demo create one; a file that is not a sift
// store is looked at read-only and refused, byte-identical; new files are private whatever the
// umask; a store this user cannot write is still served read-only.

import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import Database from 'better-sqlite3';
import {afterAll, describe, expect, it} from 'vitest';
import {asOtherUser, letOtherUserReach} from '../support/other-user.js';
import {isDatabaseReadableByOthers, openStore, removeStoreFiles} from '../../store/index.js';
import {cleanTempDirs, fileDigest, human, kitChannel, refusal, tempDir} from './helpers.js';


const root = fileURLToPath(new URL('../..', import.meta.url));
letOtherUserReach(root);
afterAll(() => cleanTempDirs());
const mode = (path: string) => statSync(path).mode & 0o777;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Opening `path` is refused as not a store, and neither it nor its directory changes. */
function expectRefusedUntouched(path: string, why: string, options: {create?: boolean} = {}) {
	const before = fileDigest(path);
	const listing = readdirSync(join(path, '..'));
	expect(refusal(() => openStore(path, options))).toEqual({error: 'not_a_store', message: `${path} is not a sift database (${why})`});
	expect(fileDigest(path)).toBe(before);
	expect(readdirSync(join(path, '..'))).toEqual(listing);
}

describe('a file that is not a sift store is refused and left byte-identical', () => {
	it('another application\'s SQLite database: no tables added, no user_version, no WAL', () => {
		const path = join(tempDir(), 'other-app.db');
		const other = new Database(path);
		other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (\'mine\')');
		other.close();
		expectRefusedUntouched(path, 'an SQLite database without sift\'s channels, items, events tables');
		expectRefusedUntouched(path, 'an SQLite database without sift\'s channels, items, events tables', {create: true});
		const reopened = new Database(path, {readonly: true});
		expect(reopened.pragma('user_version', {simple: true})).toBe(0);
		expect(reopened.pragma('journal_mode', {simple: true})).toBe('delete');
		reopened.close();
	});

	it('a text file, an empty file, an empty SQLite database', () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'notes.txt'), 'these are my notes, not a database\n'.repeat(20));
		expectRefusedUntouched(join(dir, 'notes.txt'), 'not an SQLite database file');
		expectRefusedUntouched(join(dir, 'notes.txt'), 'not an SQLite database file', {create: true});
		writeFileSync(join(dir, 'empty.db'), '');
		expectRefusedUntouched(join(dir, 'empty.db'), 'an empty file');
		const blank = new Database(join(dir, 'blank.db'));
		blank.pragma('user_version = 0');
		blank.exec('VACUUM');
		blank.close();
		expectRefusedUntouched(join(dir, 'blank.db'), 'an SQLite database with no tables');
	});

	it('with create, an empty file becomes a store (a file made ready for it, e.g. by mktemp)', () => {
		const path = join(tempDir(), 'ready.db');
		writeFileSync(path, '');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: []});
		expect(store.created.file).toBe(false);
		store.close();
	});
});

describe('only an explicit create makes a store', () => {
	it('opening a missing file fails and creates nothing, not even its directory', () => {
		const dir = tempDir();
		const path = join(dir, 'not', 'yet', 'sift.db');
		expect(refusal(() => openStore(path))).toEqual({error: 'not_found', message: `no database at ${path}`});
		expect(readdirSync(dir)).toEqual([]);
	});

	it('create makes the missing directories 0700 and the files 0600, whatever the umask', () => {
		const dir = tempDir();
		const path = join(dir, 'a', 'b', 'sift.db');
		const previous = process.umask(0);
		try {
			const store = openStore(path, {create: true});
			expect(store.created).toEqual({file: true, dirs: [join(dir, 'a'), join(dir, 'a', 'b')]});
			store.importChannel({channel: kitChannel, items: [{values: {title: 'x'}}]});
			expect([mode(join(dir, 'a')), mode(join(dir, 'a', 'b'))]).toEqual([0o700, 0o700]);
			expect(['', '-wal', '-shm'].map(suffix => existsSync(path + suffix) && mode(path + suffix))).toEqual([0o600, 0o600, 0o600]);
			expect(isDatabaseReadableByOthers(path)).toBe(false);
			store.close();
			// The header names the file as sift's (application_id "sift"), which lets opening skip a look inside.
			expect(readFileSync(path).subarray(68, 72).toString('latin1')).toBe('sift');
			// A later connection recreates -wal and -shm as private as the file.
			const again = openStore(path);
			again.createItem('kit', {title: 'y'}, human);
			expect(['-wal', '-shm'].map(suffix => mode(path + suffix))).toEqual([0o600, 0o600]);
			again.close();
		} finally {
			process.umask(previous);
		}
	});

	it('an existing database keeps its mode, and is reported readable by others', () => {
		const path = join(tempDir(), 'shared.db');
		openStore(path, {create: true}).close();
		chmodSync(path, 0o644);
		const store = openStore(path);
		store.importChannel({channel: kitChannel, items: [{values: {title: 'x'}}]});
		store.close();
		expect(mode(path)).toBe(0o644);
		expect(isDatabaseReadableByOthers(path)).toBe(true);
	});

	it('removeStoreFiles takes away the files and the directories a create made, if still empty', () => {
		const dir = tempDir();
		const path = join(dir, 'new', 'deeper', 'sift.db');
		const store = openStore(path, {create: true});
		const {dirs} = store.created;
		store.close();
		removeStoreFiles(path, dirs);
		expect(readdirSync(dir)).toEqual([]);

		const kept = openStore(join(dir, 'x', 'sift.db'), {create: true});
		kept.close();
		writeFileSync(join(dir, 'x', 'mine.txt'), 'not sift\'s');
		removeStoreFiles(join(dir, 'x', 'sift.db'), kept.created.dirs);
		expect(readdirSync(join(dir, 'x'))).toEqual(['mine.txt']);
	});
});

/** Runs the read-only worker as a user who cannot write the file (nobody, when the tests run as root). */
function readAsAnotherUser(path: string, channelId: string): {readOnly: boolean; ids: string[]; item: {id: string; values: Record<string, unknown>}; refusal: unknown} {
	const command = [process.execPath, '--import', 'tsx', join(root, 'test/store/workers/read-only.ts'), path, channelId];
	const asNobody = asOtherUser(command);
	const output = execFileSync(asNobody[0]!, asNobody.slice(1), {cwd: root, env: {...process.env, HOME: tempDir()}, encoding: 'utf8', timeout: 60_000});
	return JSON.parse(output) as ReturnType<typeof readAsAnotherUser>;
}

describe('a store this user cannot write', () => {
	it('in a read-only directory still serves list and show, and refuses writes clearly, changing nothing', () => {
		const dir = tempDir();
		chmodSync(dir, 0o755);
		const path = join(dir, 'shared.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}, {values: {title: 'two'}}]});
		store.close();
		chmodSync(path, 0o444);
		chmodSync(dir, 0o555);
		const before = fileDigest(path);
		try {
			const seen = readAsAnotherUser(path, 'kit');
			expect(seen.readOnly).toBe(true);
			expect(seen.ids).toHaveLength(2);
			expect(seen.item.values.title).toBe('two');
			expect(seen.refusal).toEqual({error: 'read_only', message: `${path} is read-only for this user: reading works, writing needs write access to the file and its directory`});
			expect(fileDigest(path)).toBe(before);
			expect(readdirSync(dir)).toEqual(['shared.db']);
		} finally {
			chmodSync(dir, 0o755);
		}
	});

	it('with a writable directory but a read-only file, is read-only too', () => {
		const dir = tempDir();
		chmodSync(dir, 0o777);
		const path = join(dir, 'mine.db');
		const store = openStore(path, {create: true});
		store.importChannel({channel: kitChannel, items: [{values: {title: 'one'}}]});
		store.close();
		chmodSync(path, 0o444);
		const before = sha256(path);
		const seen = readAsAnotherUser(path, 'kit');
		expect(seen.readOnly).toBe(true);
		expect(seen.item.values.title).toBe('one');
		expect(seen.refusal).toMatchObject({error: 'read_only'});
		expect(sha256(path)).toBe(before);
		// A reader may leave an empty write-ahead log behind (SQLite's doing), never anything in it.
		expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
	});
});
