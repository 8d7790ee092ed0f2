// PostgreSQL as teams deploy it, through the built CLI against a cluster of the test's own with
// scram-sha-256 passwords: where the password comes from (and what happens without one), roles
// with row rights only or SELECT only, a migration only the owner may run, databases of other
// applications that must not be touched, and the statement timeout.

import {chmodSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {MIGRATIONS} from '../../store/postgres/schema.js';
import {pgChannelIndexes} from '../../store/postgres/query.js';
import type {Channel} from '../../store/types.js';
import {ensureBuilt, sift, tempDir, type CliResult} from '../support/cli.js';
import {describePg} from '../support/pg.js';
import {startPgCluster, type PgCluster} from '../support/pg-cluster.js';

const HOSTS = {
	id: 'hosts', name: 'Hosts', fields: [
		{key: 'name', label: 'Name', type: 'text', is_unique: true, is_required: true},
		{key: 'role', label: 'Role', type: 'select', is_sortable: true, config: {options: [{value: 'web', label: 'Web'}, {value: 'db', label: 'Database'}]}},
	],
};

function importFile(channel: unknown, items: unknown[]): string {
	const file = path.join(tempDir('sift-field-import-'), 'import.json');
	writeFileSync(file, JSON.stringify({channel, items}));
	return file;
}

/** Runs sift with a HOME of its own (no ~/.pgpass but the test's) and how long it took. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): CliResult & {ms: number} {
	const started = Date.now();
	const result = sift(args, {HOME: tempDir('sift-field-home-'), PGPASSWORD: '', PGPASSFILE: '', ...env});
	return {...result, ms: Date.now() - started};
}

/** The tables, sequences and indexes of a database's public schema, to show nothing was added. */
async function relations(cluster: PgCluster, database: string): Promise<string[]> {
	const {rows} = await cluster.sql("SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY relname", database);
	return rows.map(row => row.relname as string);
}

describePg('PostgreSQL as teams deploy it (scram-sha-256 cluster)', () => {
	let cluster: PgCluster;
	/** Every case's numbers, printed at the end: exit code and time. */
	const measured: string[] = [];
	const note = (name: string, result: {code: number | null; ms: number}) => measured.push(`${name}: exit ${result.code}, ${result.ms} ms`);

	beforeAll(async () => {
		ensureBuilt();
		// The role tls may log in over TLS only: its every success proves the connection was encrypted.
		cluster = await startPgCluster({tls: true, hba: ['hostnossl all tls 127.0.0.1/32 reject', 'hostssl all tls 127.0.0.1/32 scram-sha-256']});
		await cluster.sql('CREATE DATABASE team');
		const owner = {PGPASSWORD: cluster.password};
		const demo = timed(['demo', '--db', cluster.url({database: 'team'}), '--items', '30', '--no-open'], owner);
		expect(demo.code, demo.stderr).toBe(0);
		await cluster.sql(`
			CREATE ROLE rw LOGIN PASSWORD 'rw-secret';
			GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO rw;
			GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO rw;
			CREATE ROLE ro LOGIN PASSWORD 'ro-secret';
			GRANT SELECT ON ALL TABLES IN SCHEMA public TO ro;
			CREATE ROLE nobody LOGIN PASSWORD 'nobody-secret';
			CREATE ROLE tls LOGIN PASSWORD 'tls-secret';
			GRANT SELECT ON ALL TABLES IN SCHEMA public TO tls;
		`, 'team');
	}, 60_000);

	afterAll(async () => {
		console.log(`\npg-field cases:\n  ${measured.join('\n  ')}\n`);
		await cluster?.stop();
	});

	describe('passwords', () => {
		it('no password: one line naming host and port and where to put one, exit 1 (no prompt, no wait)', () => {
			for (const args of [['channels'], ['list'], ['migrate'], ['import', importFile(HOSTS, [])]]) {
				const result = timed([...args, '--db', cluster.url({database: 'team'})]);
				note(`no password, ${args[0]}`, result);
				expect(result.code, result.stderr).toBe(1);
				expect(result.stdout).toBe('');
				expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
				expect(result.stderr).toContain(`127.0.0.1:${cluster.port}`);
				expect(result.stderr).toMatch(/PGPASSWORD/);
				expect(result.stderr).toMatch(/\.pgpass/);
				expect(result.stderr).toMatch(/the URL/);
			}
		});

		it('a server that takes the connection and never answers: the connect timeout ends it, one line, exit 1', async () => {
			const {createServer} = await import('node:net');
			const sockets: Array<import('node:net').Socket> = [];
			const silent = createServer(socket => sockets.push(socket));
			await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve));
			const {port} = silent.address() as {port: number};
			try {
				const result = timed(['channels', '--db', `postgres://someone:pw-never-shown@127.0.0.1:${port}/team`]);
				note('a silent server (connect timeout)', result);
				expect(result.code).toBe(1);
				expect(result.stderr).toMatch(new RegExp(`^sift: cannot open the PostgreSQL store at 127\\.0\\.0\\.1:${port}/team: connection timed out\\n$`));
				expect(result.stderr).not.toContain('pw-never-shown');
			} finally {
				for (const socket of sockets) socket.destroy();
				await new Promise(resolve => silent.close(resolve));
			}
		});

		it('a wrong password is the server\'s one line, and is never printed', () => {
			const result = timed(['channels', '--db', cluster.url({database: 'team', password: 'not-the-pw-1234'})]);
			note('wrong password in the URL', result);
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(/^sift: cannot open the PostgreSQL store at 127\.0\.0\.1:\d+\/team: password authentication failed for user "postgres"\n$/);
			expect(result.stdout + result.stderr).not.toContain('not-the-pw-1234');
		});

		it('PGPASSWORD works, and so does the password in the URL (never shown)', () => {
			const viaEnv = timed(['channels', '--db', cluster.url({database: 'team'}), '--json'], {PGPASSWORD: cluster.password});
			note('PGPASSWORD', viaEnv);
			expect(viaEnv.code, viaEnv.stderr).toBe(0);
			expect(JSON.parse(viaEnv.stdout)).toEqual([expect.objectContaining({id: 'bugs', item_count: 30})]);
			const inUrl = timed(['list', '--limit', '2', '--db', cluster.url({database: 'team', password: cluster.password})]);
			note('password in the URL', inUrl);
			expect(inUrl.code, inUrl.stderr).toBe(0);
			expect(inUrl.stdout + inUrl.stderr).not.toContain(cluster.password);
		});

		it('a pgpass file (0600) works, from PGPASSFILE or ~/.pgpass; one others can read is ignored, and the line says so', () => {
			const home = tempDir('sift-field-pgpass-');
			const file = path.join(home, '.pgpass');
			writeFileSync(file, `# sift test\nother-host:5432:*:*:nope\n127.0.0.1:${cluster.port}:*:postgres:${cluster.password.replaceAll(':', '\\:')}\n`, {mode: 0o600});
			chmodSync(file, 0o600);
			const fromHome = timed(['channels', '--db', cluster.url({database: 'team'})], {HOME: home});
			note('~/.pgpass 0600', fromHome);
			expect(fromHome.code, fromHome.stderr).toBe(0);
			const named = path.join(tempDir('sift-field-passfile-'), 'passwords');
			writeFileSync(named, `*:*:team:postgres:${cluster.password}\n`, {mode: 0o600});
			const fromEnv = timed(['channels', '--db', cluster.url({database: 'team'})], {PGPASSFILE: named});
			note('PGPASSFILE 0600', fromEnv);
			expect(fromEnv.code, fromEnv.stderr).toBe(0);
			chmodSync(named, 0o644);
			const open = timed(['channels', '--db', cluster.url({database: 'team'})], {PGPASSFILE: named});
			note('PGPASSFILE 0644 (ignored)', open);
			expect(open.code).toBe(1);
			expect(open.stderr).toContain(`${named} is ignored because others can read it`);
			expect(open.stderr).not.toContain(cluster.password);
		});
	});

	describe('TLS', () => {
		const tls = {PGPASSWORD: 'tls-secret'};
		const at = (query: string) => `${cluster.url({user: 'tls', database: 'team'})}${query}`;
		const channels = (name: string, query: string, env: NodeJS.ProcessEnv = {}) => {
			const result = timed(['channels', '--db', at(query)], {...tls, ...env});
			note(`TLS ${name}`, result);
			return result;
		};

		it('sslmode from the URL or PGSSLMODE, read as libpq reads it; no warning on stderr', () => {
			for (const [name, result] of [
				['sslmode=require', channels('sslmode=require', '?sslmode=require')],
				['PGSSLMODE=require', channels('PGSSLMODE=require', '', {PGSSLMODE: 'require'})],
				['verify-full with the certificate', channels('verify-full + sslrootcert', `?sslmode=verify-full&sslrootcert=${encodeURIComponent(cluster.certificate!)}`)],
			] as const) {
				expect(result.code, `${name}: ${result.stderr}`).toBe(0);
				expect(result.stderr, name).toBe('');
			}

			// The role is refused without TLS, and a certificate nobody vouches for is refused by verify-full: one line each.
			const plain = channels('sslmode=disable (the server rejects the role)', '?sslmode=disable');
			expect(plain.code).toBe(1);
			expect(plain.stderr).toMatch(/^sift: cannot open the PostgreSQL store at 127\.0\.0\.1:\d+\/team: .*no encryption\n$/);
			const unverified = channels('verify-full without the certificate', '?sslmode=verify-full');
			expect(unverified.code).toBe(1);
			expect(unverified.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^sift: cannot open the PostgreSQL store at 127\.0\.0\.1:\d+\/team: .*self.signed/)]);
		});
	});

	describe('roles', () => {
		const rw = {PGPASSWORD: 'rw-secret'};
		const ro = {PGPASSWORD: 'ro-secret'};
		const asRw = () => cluster.url({user: 'rw', database: 'team'});
		const asRo = () => cluster.url({user: 'ro', database: 'team'});

		it('the roles have no CREATE right on the schema (PostgreSQL 15 default)', async () => {
			const {rows} = await cluster.sql("SELECT has_schema_privilege('rw', 'public', 'CREATE') AS rw, has_schema_privilege('ro', 'public', 'CREATE') AS ro", 'team');
			expect(rows[0]).toEqual({rw: false, ro: false});
		});

		it('a role with row rights only uses every command: list, show, edit, add, delete, events, followups, runs, tokens, import', async () => {
			const before = await relations(cluster, 'team');
			const run = (args: string[]) => {
				const result = timed([...args, '--db', asRw()], rw);
				note(`rw ${args.slice(0, 2).join(' ')}`, result);
				expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
				return result;
			};

			run(['channels']);
			run(['list', '--limit', '3', '--where', 'status:new']);
			run(['show', 'BUG-0001']);
			expect(JSON.parse(run(['edit', 'BUG-0001', 'status=triaged', '--json']).stdout)).toMatchObject({ok: true});
			const added = JSON.parse(run(['add', 'ticket=BUG-9001', 'title=From the rw role', 'severity=s2', '--json']).stdout) as {item: {id: string}};
			run(['delete', added.item.id]);
			expect(run(['events', '--after', '30']).stdout).toContain('status: new → triaged');
			run(['followups']);
			run(['runs']);
			run(['token', 'create', '--grant', 'bugs', '--name', 'rw-token']);
			run(['token', 'list']);
			const imported = run(['import', importFile(HOSTS, [{values: {name: 'alpha', role: 'web'}}, {values: {name: 'beta', role: 'db'}}])]);
			// It may not create the channel's indexes (only the owner may): the channel works without them, and it says how to build them.
			expect(imported.stderr).toMatch(/may not create indexes.*run `sift migrate --db postgres:\/\/rw@127\.0\.0\.1:\d+\/team` as the owner/);
			expect(JSON.parse(run(['list', '--channel', 'hosts', '--sort', '-role', '--json']).stdout).items.map((item: {values?: {name: string}; preview?: {name: string}}) => (item.values ?? item.preview)!.name)).toEqual(['beta', 'alpha']);
			// Nothing but the channel's indexes would have been new; none were made.
			expect(await relations(cluster, 'team')).toEqual(before);
			const owner = timed(['migrate', '--db', cluster.url({database: 'team'})], {PGPASSWORD: cluster.password});
			note('owner migrate (builds the skipped indexes)', owner);
			expect(owner.code, owner.stderr).toBe(0);
			const after = await relations(cluster, 'team');
			// Exactly the hosts channel's indexes: its sort and lookup indexes and its created_at / updated_at ones.
			const hostsIndexes = pgChannelIndexes(HOSTS as unknown as Channel).map(index => index.name);
			expect(hostsIndexes.length).toBeGreaterThan(0);
			expect(after.filter(name => !before.includes(name)).sort()).toEqual([...hostsIndexes].sort());
		});

		it('a SELECT-only role lists, shows, reads events and channels; a write is read_only in one line and changes nothing', async () => {
			for (const args of [['channels'], ['list', '--channel', 'bugs', '--limit', '3'], ['show', 'BUG-0002', '--channel', 'bugs'], ['events', '--channel', 'bugs', '--limit', '3'], ['runs'], ['followups', '--channel', 'bugs'], ['token', 'list']]) {
				const result = timed([...args, '--db', asRo()], ro);
				note(`ro ${args[0]}`, result);
				expect(result.code, `${args[0]}: ${result.stderr}`).toBe(0);
			}

			const version = async () => (await cluster.sql("SELECT version FROM items WHERE data->>'ticket' = 'BUG-0002'", 'team')).rows[0].version as number;
			const was = await version();
			for (const args of [['edit', 'BUG-0002', 'status=triaged', '--channel', 'bugs'], ['add', 'title=x', '--channel', 'bugs'], ['delete', 'BUG-0002', '--channel', 'bugs'], ['import', importFile({...HOSTS, id: 'hosts2'}, [])], ['token', 'create', '--grant', 'bugs']]) {
				const result = timed([...args, '--db', asRo(), '--json'], ro);
				note(`ro ${args[0]} (refused)`, result);
				expect(result.code, args.join(' ')).toBe(1);
				expect(JSON.parse(result.stdout)).toMatchObject({error: 'read_only'});
				expect(result.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^sift: the role "ro" may only read the PostgreSQL store at 127\.0\.0\.1:\d+\/team.*docs\/team-mode\.md/)]);
			}

			expect(await version()).toBe(was);
		});

		it('a role without any right on sift\'s tables: permission_denied, one line', () => {
			const result = timed(['channels', '--db', cluster.url({user: 'nobody', database: 'team'}), '--json'], {PGPASSWORD: 'nobody-secret'});
			note('a role with no rights', result);
			expect(result.code).toBe(1);
			expect(JSON.parse(result.stdout)).toMatchObject({error: 'permission_denied'});
			expect(result.stderr).toMatch(/^sift: the role "nobody" may not read the PostgreSQL store at 127\.0\.0\.1:\d+\/team \(permission denied for table schema_version\); see "Roles and grants" in docs\/team-mode\.md\n$/);
		});

		it('a migration that is due and that the role may not run says what the owner runs; after it, the role works', async () => {
			await cluster.sql('CREATE DATABASE old');
			// A store as an older sift left it: the first migration only.
			await cluster.sql(`CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL); ${MIGRATIONS[0]!.sql}; INSERT INTO schema_version VALUES (1, '${MIGRATIONS[0]!.name}', 'then');
				GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO rw; GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO rw;`, 'old');
			const before = await relations(cluster, 'old');
			const url = cluster.url({user: 'rw', database: 'old'});
			const refused = timed(['channels', '--db', url, '--json'], rw);
			note('rw on a store that needs a migration', refused);
			expect(refused.code).toBe(1);
			expect(JSON.parse(refused.stdout)).toMatchObject({error: 'read_only'});
			expect(refused.stderr).toMatch(new RegExp(`^sift: the PostgreSQL store at 127\\.0\\.0\\.1:${cluster.port}/old needs its schema upgraded \\(1 to \\d+\\) and this role may not do it \\(it does not own sift's tables\\); run \`sift migrate --db postgres://rw@127\\.0\\.0\\.1:${cluster.port}/old\` as the owner of sift's tables\\n$`));
			expect(await relations(cluster, 'old')).toEqual(before);
			const migrated = timed(['migrate', '--db', cluster.url({database: 'old'})], {PGPASSWORD: cluster.password});
			note('owner migrate', migrated);
			expect(migrated.code, migrated.stderr).toBe(0);
			expect(migrated.stdout).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/old: sift store upgraded from schema 1 to \d+\n$/);
			expect(migrated.stderr).toBe('');
			// The owner grants the new tables too (docs/team-mode.md).
			await cluster.sql('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO rw', 'old');
			const after = timed(['channels', '--db', url], rw);
			note('rw after the owner migrated', after);
			expect(after.code, after.stderr).toBe(0);
		});
	});

	describe('databases that are not a store', () => {
		beforeAll(async () => {
			await cluster.sql('CREATE DATABASE app');
			await cluster.sql(`
				CREATE TABLE schema_version (id serial PRIMARY KEY, release text NOT NULL, installed_on timestamptz DEFAULT now());
				INSERT INTO schema_version (release) VALUES ('2024.1'), ('2024.2');
				CREATE TABLE customers (id serial PRIMARY KEY, name text);
				CREATE TABLE items (sku text PRIMARY KEY, price numeric);
			`, 'app');
			await cluster.sql('CREATE DATABASE plain');
			await cluster.sql('CREATE TABLE customers (id serial PRIMARY KEY, name text)', 'plain');
		});

		const owner = () => ({PGPASSWORD: cluster.password});

		it('an application\'s database (its own schema_version and items): every command is not_a_store, exit 1, and no table is added', async () => {
			const before = await relations(cluster, 'app');
			const url = cluster.url({database: 'app'});
			for (const args of [['channels'], ['list'], ['show', 'x'], ['edit', 'x', 'a=1'], ['add', 'a=1'], ['events'], ['followups'], ['runs'], ['token', 'list'], ['token', 'create', '--grant', 'bugs'], ['demo', '--no-open'], ['import', importFile(HOSTS, [])], ['migrate']]) {
				const result = timed([...args, '--db', url, '--json'], owner());
				note(`app database, ${args[0]}`, result);
				expect(result.code, args.join(' ')).toBe(1);
				expect(JSON.parse(result.stdout), args.join(' ')).toMatchObject({error: 'not_a_store'});
				expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
				expect(result.stderr).toMatch(/is not a sift store/);
			}

			expect(await relations(cluster, 'app')).toEqual(before);
			expect((await cluster.sql('SELECT count(*)::int AS n FROM schema_version', 'app')).rows[0].n).toBe(2);
		});

		it('a database without sift\'s tables: reading commands are not_a_store and add nothing; import creates the store', async () => {
			const before = await relations(cluster, 'plain');
			const url = cluster.url({database: 'plain'});
			for (const args of [['channels'], ['list'], ['events'], ['runs'], ['token', 'list']]) {
				const result = timed([...args, '--db', url, '--json'], owner());
				note(`plain database, ${args[0]}`, result);
				expect(result.code).toBe(1);
				expect(JSON.parse(result.stdout)).toMatchObject({error: 'not_a_store'});
				expect(result.stderr).toMatch(/has no sift tables.*sift import FILE.*sift demo.*sift migrate/);
			}

			expect(await relations(cluster, 'plain')).toEqual(before);
			const imported = timed(['import', importFile(HOSTS, [{values: {name: 'alpha'}}]), '--db', url], owner());
			expect(imported.code, imported.stderr).toBe(0);
			expect(timed(['list', '--channel', 'hosts', '--db', url], owner()).code).toBe(0);
		});
	});

	it('a statement past --statement-timeout is cancelled: timeout, one line, exit 1', async () => {
		const {default: pg} = await import('pg');
		const locker = new pg.Client({connectionString: cluster.url({database: 'team', password: cluster.password})});
		await locker.connect();
		try {
			// A lock held elsewhere makes every read of items wait: only the timeout ends it.
			await locker.query('BEGIN');
			await locker.query('LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
			const result = timed(['list', '--channel', 'bugs', '--limit', '3', '--statement-timeout', '1', '--json', '--db', cluster.url({database: 'team'})], {PGPASSWORD: cluster.password});
			note('list --statement-timeout 1 on a locked table', result);
			expect(result.code).toBe(1);
			expect(JSON.parse(result.stdout)).toMatchObject({error: 'timeout'});
			expect(result.stderr).toMatch(/^sift: a statement on the PostgreSQL store at 127\.0\.0\.1:\d+\/team ran past the statement timeout \(1 s\) and was cancelled; narrow the request, or raise --statement-timeout\n$/);
		} finally {
			await locker.query('ROLLBACK');
			await locker.end();
		}
	});
});

describe('sift migrate on SQLite', () => {
	beforeAll(() => ensureBuilt());

	it('creates a missing file as an empty store, leaves a current one as it is, and refuses a file that is not sift\'s', () => {
		const dir = tempDir('sift-migrate-sqlite-');
		const db = path.join(dir, 'new', 'sift.db');
		const created = sift(['migrate', '--db', db, '--json']);
		expect(created.code, created.stderr).toBe(0);
		expect(JSON.parse(created.stdout)).toEqual({db, backend: 'sqlite', ready: true});
		expect(sift(['channels', '--db', db]).code).toBe(0);
		expect(sift(['migrate', '--db', db]).code).toBe(0);
		const other = path.join(dir, 'notes.txt');
		writeFileSync(other, 'not a database at all, just notes\n');
		const refused = sift(['migrate', '--db', other, '--json']);
		expect(refused.code).toBe(1);
		expect(JSON.parse(refused.stdout)).toMatchObject({error: 'not_a_store'});
	});
});
