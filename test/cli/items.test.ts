// Naming items, several-item edits, versions.

import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {demoDatabase, ensureBuilt, fileDigest, sift, siftJson, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

const versionOf = (db: string, id: string) => {
	const store = openStore(db);
	try {
		return store.readItem('bugs', id);
	} finally {
		store.close();
	}
};

describe('naming items by a unique value', () => {
	it('show, edit and delete take the ticket as well as the id', () => {
		const db = demoDatabase(5);
		const byTicket: any = siftJson(['show', 'BUG-0002', '--db', db]);
		expect(byTicket.values.ticket).toBe('BUG-0002');
		expect(siftJson(['show', byTicket.id, '--db', db])).toEqual(byTicket);
		expect(siftJson(['edit', 'BUG-0002', 'points=3', '--db', db])).toMatchObject({item: {id: byTicket.id, values: {points: 3}}});
		expect(siftJson(['delete', 'BUG-0002', '--db', db])).toMatchObject({ok: true});
		const gone = sift(['show', 'BUG-0002', '--db', db]);
		expect(gone.code).toBe(1);
		expect(gone.stderr).toMatch(/^sift: item "BUG-0002" does not exist in channel bugs/);
	});

	it('refuses a name two items answer to, listing both, and writes nothing', () => {
		const dir = tempDir('sift-names-');
		const channel = {
			id: 'hosts', name: 'Hosts', fields: [
				{key: 'name', label: 'Name', type: 'text', is_unique: true, is_required: true},
				{key: 'alias', label: 'Alias', type: 'text', is_unique: true},
			],
		};
		writeFileSync(join(dir, 'hosts.json'), JSON.stringify({channel, items: [{values: {name: 'alpha', alias: 'web'}}, {values: {name: 'web', alias: 'beta'}}]}));
		const db = join(dir, 'hosts.db');
		expect(sift(['import', join(dir, 'hosts.json'), '--db', db]).code).toBe(0);
		const before = fileDigest(db);
		for (const args of [['show', 'web'], ['edit', 'web', 'alias=x'], ['delete', 'web']]) {
			const result = sift([...args, '--db', db]);
			expect(result.code, args.join(' ')).toBe(1);
			expect(result.stderr).toMatch(/^sift: "web" names 2 items: it_0000000002 \(name = "web"\), it_0000000001 \(alias = "web"\); name one by its id\n$/);
		}

		expect(fileDigest(db)).toBe(before);
		expect(siftJson(['show', 'alpha', '--db', db])).toMatchObject({values: {alias: 'web'}});
	});
});

describe('edit several items', () => {
	it('edits each item in its own write and prints a line per item', () => {
		const db = demoDatabase(4);
		const result = sift(['edit', 'BUG-0001', 'BUG-0002', 'it_0000000003', 'status=triaged', 'owner=ren', '--db', db]);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toMatch(/^ok\s+BUG-0001 \(it_0000000001\): now version 2$/m);
		expect(result.stdout).toMatch(/^ok\s+it_0000000003: now version 2$/m);
		expect(result.stdout).toMatch(/^3 ok, 0 failed$/m);
		for (const id of ['it_0000000001', 'it_0000000002', 'it_0000000003']) {
			expect(versionOf(db, id)).toMatchObject({version: 2, values: {status: 'triaged', owner: 'ren'}});
		}

		expect(versionOf(db, 'it_0000000004').version).toBe(1);
	});

	it('reports ok / refused / conflict / not_found per item, keeps the good edits and exits 1', () => {
		const db = demoDatabase(4);
		// it_2 is at version 2 after this; --expect-version 1 then conflicts for it alone.
		expect(sift(['edit', 'it_0000000002', 'points=1', '--db', db]).code).toBe(0);
		const result = sift(['edit', 'it_0000000001', 'it_0000000002', 'BUG-9999', 'points=5', '--expect-version', '1', '--db', db, '--json']);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe('sift: 2 of 3 edits failed\n');
		const summary = JSON.parse(result.stdout);
		expect(summary).toMatchObject({ok: 1, failed: 2});
		expect(summary.items.map((item: any) => item.status)).toEqual(['ok', 'conflict', 'not_found']);
		expect(summary.items[1]).toMatchObject({error: 'version_conflict', current_version: 2});
		expect(versionOf(db, 'it_0000000001').values.points).toBe(5);
		expect(versionOf(db, 'it_0000000002').values.points).toBe(1);

		const refused = sift(['edit', 'it_0000000003', 'it_0000000004', 'status=Fixd', '--db', db]);
		expect(refused.code).toBe(1);
		expect(refused.stdout).toMatch(/^refused\s+it_0000000003: refused: values.status must be one of the option values/m);
		expect(refused.stdout).toMatch(/^0 ok, 2 failed$/m);
	});

	it('a refusal is one sift: line naming each refused value with what is allowed', () => {
		const db = demoDatabase(2);
		const result = sift(['edit', 'BUG-0001', 'status=Fixd', 'points=20', '--db', db]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^sift: refused: values\.status must be one of the option values, got "Fixd" \(allowed: new \(New\), .*fixed \(Fixed\).*\); values\.points must be between 0 and 13, got 20 \(allowed: 0 to 13\)\n$/);
		expect(sift(['edit', 'BUG-0001', 'points=2', '--expect-version', '1', '--db', db]).code).toBe(0);
		const stale = sift(['edit', 'BUG-0001', 'points=3', '--expect-version', '1', '--db', db]);
		expect(stale.stderr).toMatch(/^sift: item it_0000000001 is at version 2, not 1: read it again and merge; changed since: points: \d* → 2\n$/);
	});

	it('delete --expect-version refuses a stale version and deletes at the right one', () => {
		const db = demoDatabase(2);
		expect(sift(['edit', 'it_0000000001', 'points=2', '--db', db]).code).toBe(0);
		const stale = sift(['delete', 'it_0000000001', '--expect-version', '1', '--db', db]);
		expect(stale.code).toBe(1);
		expect(stale.stderr).toMatch(/^sift: item it_0000000001 is at version 2, not 1/);
		expect(versionOf(db, 'it_0000000001').version).toBe(2);
		expect(siftJson(['delete', 'it_0000000001', '--expect-version', '2', '--db', db])).toMatchObject({ok: true});
	});
});
