// A PostgreSQL cluster of the test's own, as teams run one: scram-sha-256 passwords on every TCP
// connection, on a spare port, restartable. initdb and pg_ctl refuse to run as root, so they run as
// the `postgres` OS user (runuser) in a temp folder that user owns. stop() removes everything; no
// server outlives the test file that started it.

import {execFileSync} from 'node:child_process';
import {chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import pg from 'pg';

const BIN = process.env.SIFT_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const OS_USER = 'postgres';

export type PgCluster = {
	port: number;
	/** With `tls`: the self-signed certificate the server presents (CN 127.0.0.1), to trust as sslrootcert. */
	certificate?: string;
	/** The superuser's password. */
	password: string;
	/** postgres://USER[:PASSWORD]@127.0.0.1:PORT/DATABASE; no password unless given. */
	url(options?: {user?: string; password?: string; database?: string}): string;
	/** Runs SQL as the superuser (with its password), on `database` (default postgres). */
	sql(text: string, database?: string): Promise<pg.QueryResult>;
	/** `pg_ctl restart -m fast`: every connection is dropped (57P01), then the server is back. */
	restart(): Promise<void>;
	/** `pg_ctl stop -m fast`; start() brings it back. */
	stopServer(): void;
	start(): void;
	/** Stops the server and deletes the cluster. */
	stop(): Promise<void>;
};

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const {port} = server.address() as {port: number};
			server.close(() => resolve(port));
		});
	});
}

/** Runs a PostgreSQL binary as the postgres OS user (root cannot run initdb or the server). */
function asPostgres(binary: string, args: string[]): string {
	const command = process.getuid?.() === 0 ? ['runuser', ['-u', OS_USER, '--', join(BIN, binary), ...args]] as const : [join(BIN, binary), args] as const;
	return execFileSync(command[0], [...command[1]], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000});
}

/**
 * `tls`: the server also offers TLS, with a self-signed certificate made for 127.0.0.1. `hba`:
 * lines put before the default pg_hba.conf rules (first match wins).
 */
export async function startPgCluster(options: {tls?: boolean; hba?: string[]} = {}): Promise<PgCluster> {
	const root = mkdtempSync(join(tmpdir(), 'sift-pg-cluster-'));
	const data = join(root, 'data');
	const password = `pw-${Math.random().toString(36).slice(2)}`;
	const passwordFile = join(root, 'superuser-password');
	writeFileSync(passwordFile, `${password}\n`, {mode: 0o600});
	if (process.getuid?.() === 0) {
		const {uid, gid} = userIds(OS_USER);
		chownSync(root, uid, gid);
		chownSync(passwordFile, uid, gid);
	}

	chmodSync(root, 0o700);
	asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--no-sync']);
	const port = await freePort();
	writeFileSync(join(data, 'postgresql.auto.conf'), [
		`port = ${port}`,
		`listen_addresses = '127.0.0.1'`,
		`unix_socket_directories = '${data}'`,
		'fsync = off',
		'synchronous_commit = off',
		'full_page_writes = off',
		"password_encryption = 'scram-sha-256'",
		'max_connections = 100',
		'',
	].join('\n'));
	let certificate: string | undefined;
	if (options.tls) {
		certificate = join(root, 'server.crt');
		const key = join(data, 'server.key');
		execFileSync('openssl', ['req', '-x509', '-nodes', '-newkey', 'rsa:2048', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', join(data, 'server.crt')], {stdio: 'ignore'});
		execFileSync('cp', [join(data, 'server.crt'), certificate]);
		if (process.getuid?.() === 0) {
			const {uid, gid} = userIds(OS_USER);
			for (const file of [key, join(data, 'server.crt')]) chownSync(file, uid, gid);
		}

		chmodSync(key, 0o600);
		writeFileSync(join(data, 'postgresql.auto.conf'), "ssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n", {flag: 'a'});
	}

	if (options.hba) {
		const hba = join(data, 'pg_hba.conf');
		writeFileSync(hba, `${options.hba.join('\n')}\n${readFileSync(hba, 'utf8')}`);
	}

	const log = join(root, 'server.log');
	const start = () => {
		asPostgres('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60']);
	};

	start();
	const url = (options: {user?: string; password?: string; database?: string} = {}) => {
		const target = new URL(`postgres://127.0.0.1:${port}/`);
		target.username = options.user ?? 'postgres';
		if (options.password !== undefined) target.password = options.password;
		target.pathname = `/${options.database ?? 'postgres'}`;
		return target.toString();
	};

	return {
		port,
		certificate,
		password,
		url,
		async sql(text, database) {
			const client = new pg.Client({connectionString: url({password, database}), connectionTimeoutMillis: 5000});
			client.on('error', () => {});
			await client.connect();
			try {
				return await client.query(text);
			} finally {
				await client.end();
			}
		},
		async restart() {
			asPostgres('pg_ctl', ['restart', '-D', data, '-m', 'fast', '-l', log, '-w', '-t', '60']);
		},
		stopServer() {
			asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
		},
		start,
		async stop() {
			try {
				asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '60']);
			} catch {
				// Already stopped.
			}

			rmSync(root, {recursive: true, force: true});
		},
	};
}

function userIds(name: string): {uid: number; gid: number} {
	const line = execFileSync('getent', ['passwd', name], {encoding: 'utf8'}).trim().split(':');
	return {uid: Number(line[2]), gid: Number(line[3])};
}
