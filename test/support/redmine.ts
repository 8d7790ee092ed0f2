// A real Redmine 5 for the tests, from Debian's packages (redmine, redmine-sqlite, ruby-webrick): a
// private instance in a temp dir through Debian's multi-instance support (REDMINE_INSTANCE, given as
// a path that climbs out of the package's instances folder into the temp dir), with its own SQLite
// database, config, files, logs and cache, TZ=UTC. The package's folders are never written: no
// `rails server`, and the migration dumps its schema to the temp dir (SCHEMA=). The migrated and
// seeded database (test/support/redmine-seed.rb) is a template cached under the OS temp dir, keyed
// by the package's version and the seed, and copied per suite. The server is WEBrick through
// rackup, behind Rack::Lock (SQLite cannot take parallel writes), started once per suite in its own
// process group and killed with it. A holding proxy in front of it forwards sift's requests, counts
// them, and can keep back the answer of one the server carried out (a push's crash window for a
// real SIGKILL). SIFT_TEST_REDMINE=off skips the Redmine suites and says so;
// otherwise a missing Redmine fails them.

import {execFile, spawn, type ChildProcess} from 'node:child_process';
import {createHash, randomBytes} from 'node:crypto';
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {createServer as createHttpServer, type ServerResponse} from 'node:http';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, it} from 'vitest';
import {liveGroupMembers} from './processes.js';
import type {KillLoopTracker} from './push-kill-loop.js';
import {present} from './present.js';
import {waitUntil} from './wait.js';

export const REDMINE_ROOT = '/usr/share/redmine';
export const REDMINE_OFF = process.env.SIFT_TEST_REDMINE === 'off';
export const REDMINE_OFF_NOTE = 'skipped: SIFT_TEST_REDMINE=off (Redmine suites turned off on purpose)';
export const REDMINE_PROJECT = 'sift';

// Next to this file, or (compiled into dist/test/support for the benches) in the source tree.
const SEED_SCRIPT = [join(dirname(fileURLToPath(import.meta.url)), 'redmine-seed.rb'), join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'support', 'redmine-seed.rb')].find(file => existsSync(file))!;

/** What the seed made (test/support/redmine-seed.rb writes it). */
export type RedmineSeed = {
	api_key: string;
	project_id: number;
	users: Record<string, number>;
	versions: Record<string, number>;
	frozen_status_id: number;
	custom_fields: Record<string, number>;
	trackers: Record<string, number>;
	statuses: Record<string, number>;
	priorities: Record<string, number>;
};

export type RedmineServer = {
	url: string;
	apiKey: string;
	seed: RedmineSeed;
	/** The server's process group (the tests check nothing of it outlives stop()). */
	pid: number;
	/** One REST call as the admin: the parsed JSON (undefined for an empty answer); a non-2xx throws naming status and body. */
	api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
	/** Runs Ruby inside this instance (`rails runner`): bulk set-up a bench would take minutes to make over REST. Answers its stdout. */
	rails(script: string): Promise<string>;
	/** How many requests of `method` on paths matching `path` the server has logged so far (its own production.log). */
	logged(method: string, path: RegExp): number;
	/** Creates an issue in the project; answers its id. */
	createIssue(fields: Record<string, unknown>): Promise<number>;
	stop(): Promise<void>;
};

let warned = false;

/** `describe` for a suite that needs the live Redmine: skipped with a visible message when SIFT_TEST_REDMINE=off. */
export function describeRedmine(name: string, body: () => void): void {
	if (REDMINE_OFF) {
		describe(`${name} [${REDMINE_OFF_NOTE}]`, () => {
			if (!warned) {
				warned = true;
				console.warn(`\n*** Redmine suites ${REDMINE_OFF_NOTE} ***\n`);
			}

			it.skip(REDMINE_OFF_NOTE, () => {});
		});
		return;
	}

	describe(name, body);
}

const run = async (command: string, args: string[], env: NodeJS.ProcessEnv, what: string): Promise<string> => new Promise((resolve, reject) => {
	execFile(command, args, {cwd: REDMINE_ROOT, env, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000}, (error, stdout, stderr) => {
		// The message, not Ruby's backtrace (its lines start with "from").
		if (error) reject(new Error(`Redmine test kit: ${what} failed: ${String(stderr || stdout).trim().split('\n').filter(line => !/^\s+from /.test(line)).slice(-15).join('\n')}`, {cause: error}));
		else resolve(stdout);
	});
});

function packageVersion(): string {
	if (!existsSync(join(REDMINE_ROOT, 'config', 'environment.rb')) || !existsSync('/usr/bin/rackup')) {
		throw new Error('Redmine for the tests is not installed: `apt-get install -y redmine redmine-sqlite ruby-webrick` (.ci/run does it), or skip the Redmine suites with SIFT_TEST_REDMINE=off');
	}

	const source = readFileSync(join(REDMINE_ROOT, 'lib', 'redmine', 'version.rb'), 'utf8');
	return ['MAJOR', 'MINOR', 'TINY'].map(part => new RegExp(`${part}\\s*=\\s*(\\d+)`).exec(source)?.[1] ?? 'x').join('.');
}

/**
 * The files of an instance at `dir`, and the environment that runs Redmine from the package's
 * code against it: REDMINE_INSTANCE climbs from the package's instances folder to `dir` (five
 * levels up reaches / both through the instances symlink and lexically).
 */
function instanceAt(dir: string): NodeJS.ProcessEnv {
	for (const sub of ['config', 'db', 'files', 'log', 'tmp/cache', 'tmp/pids', 'tmp/sessions', 'public/plugin_assets']) mkdirSync(join(dir, sub), {recursive: true});
	writeFileSync(join(dir, 'config', 'database.yml'), `production:\n  adapter: sqlite3\n  database: ${join(dir, 'db', 'redmine.sqlite3')}\n  timeout: 15000\n  encoding: utf8\n`);
	writeFileSync(join(dir, 'config', 'configuration.yml'), `production:\n  attachments_storage_path: ${join(dir, 'files')}\n  email_delivery:\n    delivery_method: :test\n`);
	writeFileSync(join(dir, 'config', 'secret_key.txt'), randomBytes(32).toString('hex'));
	// WEBrick is installed but not in the package's Gemfile: this bundle adds it.
	writeFileSync(join(dir, 'Gemfile'), `eval_gemfile '${REDMINE_ROOT}/Gemfile'\ngem 'webrick'\n`);
	writeFileSync(join(dir, 'config.ru'), `require '${REDMINE_ROOT}/config/environment'\nuse Rack::Lock\nrun Rails.application\n`);
	const {SIFT_TEST_PG_URL: _pg, ...rest} = process.env;
	return {
		...rest, TZ: 'UTC', RAILS_ENV: 'production', REDMINE_LANG: 'en', REDMINE_INSTANCE: `../../../../..${dir}`,
		BUNDLE_GEMFILE: join(dir, 'Gemfile'), SCHEMA: join(dir, 'schema.rb'), HOME: dir,
	};
}

/** The migrated, seeded template (db file and seed JSON), made once per package version and seed. */
async function template(): Promise<string> {
	const key = createHash('sha256').update(readFileSync(SEED_SCRIPT)).digest('hex').slice(0, 12);
	const final = join(tmpdir(), `sift-redmine-template-${packageVersion()}-${key}`);
	if (existsSync(join(final, 'seed.json'))) return final;
	const build = mkdtempSync(join(tmpdir(), 'sift-redmine-build-'));
	try {
		const env = instanceAt(build);
		// Two runs: the default data loaded in the migration's own process finds stale models.
		await run('rake', ['-f', join(REDMINE_ROOT, 'Rakefile'), 'db:migrate'], env, 'the migration of a fresh Redmine database');
		await run('rake', ['-f', join(REDMINE_ROOT, 'Rakefile'), 'redmine:load_default_data'], env, 'loading Redmine\'s default data');
		await run('ruby', [join(REDMINE_ROOT, 'bin', 'rails'), 'runner', SEED_SCRIPT], {...env, SIFT_REDMINE_SEED_OUT: join(build, 'seed.json')}, 'seeding Redmine');
		mkdirSync(join(build, 'template'));
		copyFileSync(join(build, 'db', 'redmine.sqlite3'), join(build, 'template', 'redmine.sqlite3'));
		copyFileSync(join(build, 'seed.json'), join(build, 'template', 'seed.json'));
		try {
			renameSync(join(build, 'template'), final);
		} catch (error) {
			// Another suite made it first: theirs stands.
			if (!existsSync(join(final, 'seed.json'))) throw error;
		}

		return final;
	} finally {
		rmSync(build, {recursive: true, force: true});
	}
}

async function sparePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const {port} = server.address() as {port: number};
			server.close(() => resolve(port));
		});
	});
}

const running = new Set<ChildProcess>();

/** Kills every server this process started (their whole process groups). */
function killAll(): void {
	for (const child of running) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// Gone already.
		}
	}
}

process.once('exit', killAll);
// A run interrupted (Ctrl+C, a timeout's SIGTERM) takes its servers with it, then ends as the signal asks.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		killAll();
		process.kill(process.pid, signal);
	});
}

/** Starts a fresh Redmine (a copy of the template) on a spare loopback port; stop() kills it and removes its folder. */
export async function startRedmine(): Promise<RedmineServer> {
	const source = await template();
	const dir = mkdtempSync(join(tmpdir(), 'sift-redmine-'));
	const env = instanceAt(dir);
	copyFileSync(join(source, 'redmine.sqlite3'), join(dir, 'db', 'redmine.sqlite3'));
	const seed = JSON.parse(readFileSync(join(source, 'seed.json'), 'utf8')) as RedmineSeed;
	const port = await sparePort();
	const child = spawn('rackup', ['-s', 'webrick', '-o', '127.0.0.1', '-p', String(port), '-E', 'production', join(dir, 'config.ru')], {cwd: REDMINE_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe']});
	running.add(child);
	let output = '';
	let exited: number | null | undefined;
	child.stdout!.on('data', (chunk: Buffer) => output += chunk.toString());
	child.stderr!.on('data', (chunk: Buffer) => output += chunk.toString());
	child.on('exit', code => {
		exited = code;
		running.delete(child);
	});
	const url = `http://127.0.0.1:${port}`;

	const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${url}${path}`, {method, headers: {'X-Redmine-API-Key': seed.api_key, ...(body === undefined ? {} : {'Content-Type': 'application/json'})}, body: body === undefined ? undefined : JSON.stringify(body)});
		const text = await response.text();
		if (!response.ok) throw new Error(`Redmine ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
		return (text.trim() === '' ? undefined : JSON.parse(text)) as T;
	};

	const stop = async () => {
		if (exited === undefined) {
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				// Gone already.
			}

			await waitUntil(() => exited !== undefined || liveGroupMembers(child.pid!).length === 0, 'Redmine to stop', {timeoutMs: 20_000}).catch(() => {
				process.kill(-child.pid!, 'SIGKILL');
			});
			await waitUntil(() => liveGroupMembers(child.pid!).length === 0, 'Redmine\'s processes to end', {timeoutMs: 20_000});
		}

		rmSync(dir, {recursive: true, force: true});
	};

	try {
		await waitUntil(async () => {
			if (exited !== undefined) throw new Error(`Redmine exited (${exited}) before answering: ${output.trim().split('\n').slice(-15).join('\n')}`);
			try {
				return (await fetch(`${url}/projects/${REDMINE_PROJECT}.json`, {headers: {'X-Redmine-API-Key': seed.api_key}})).ok;
			} catch {
				return false;
			}
		}, 'Redmine to answer on its port', {timeoutMs: 180_000, intervalMs: 200});
	} catch (error) {
		await stop();
		throw error;
	}

	return {
		url, apiKey: seed.api_key, seed, pid: child.pid!, api, stop,
		async rails(script) {
			const file = join(dir, `script-${randomBytes(4).toString('hex')}.rb`);
			writeFileSync(file, script);
			return run('ruby', [join(REDMINE_ROOT, 'bin', 'rails'), 'runner', file], env, 'a Ruby script in the test instance');
		},
		logged(method, path) {
			const log = readFileSync(join(dir, 'log', 'production.log'), 'utf8');
			let count = 0;
			for (const match of log.matchAll(/Started (\w+) "([^"]+)"/g)) if (match[1] === method && path.test(match[2]!)) count++;
			return count;
		},
		async createIssue(fields) {
			const answer = await api<{issue: {id: number}}>('POST', '/issues.json', {issue: {project_id: seed.project_id, ...fields}});
			return answer.issue.id;
		},
	};
}

/** This suite's Redmine, started before its tests and stopped after them (call inside a describeRedmine body). */
export function useRedmine(): {readonly server: RedmineServer} {
	let server: RedmineServer | undefined;
	beforeAll(async () => {
		server = await startRedmine();
	}, 20 * 60_000);
	afterAll(async () => server?.stop(), 60_000);
	return {
		get server() {
			return present(server, 'Redmine is started in beforeAll');
		},
	};
}

/** A proxy in front of a Redmine: what sift sent through it, and a write's answer held back. */
export type RedmineProxy = {
	url: string;
	/** Every request forwarded, in order. */
	readonly requests: Array<{method: string; path: string}>;
	/** Resolves once the next request `match` takes was carried out by Redmine; its answer is never sent. */
	holdNext(match: (method: string, path: string) => boolean): Promise<void>;
	stop(): Promise<void>;
};

/** Starts a holding proxy on a spare loopback port in front of `server`. */
export async function startRedmineProxy(server: RedmineServer): Promise<RedmineProxy> {
	const requests: Array<{method: string; path: string}> = [];
	const holds: Array<{match: (method: string, path: string) => boolean; reached: () => void}> = [];
	const held: ServerResponse[] = [];
	const proxy = createHttpServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			void (async () => {
				const method = request.method ?? 'GET';
				const path = request.url ?? '/';
				requests.push({method, path});
				const headers: Record<string, string> = {};
				for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
				const answer = await fetch(`${server.url}${path}`, {method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined, redirect: 'manual'});
				const body = Buffer.from(await answer.arrayBuffer());
				const hold = holds.findIndex(candidate => candidate.match(method, path.split('?')[0]!));
				if (hold >= 0) {
					// Carried out by Redmine; the answer stays here until the client is gone.
					held.push(response);
					holds.splice(hold, 1)[0]!.reached();
					return;
				}

				const out: Record<string, string> = {};
				answer.headers.forEach((value, name) => {
					if (!['content-encoding', 'transfer-encoding', 'content-length', 'connection'].includes(name)) out[name] = value;
				});
				response.writeHead(answer.status, out).end(body);
			})().catch((error: unknown) => {
				response.writeHead(502).end(String(error));
			});
		});
	});
	await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(proxy.address() as {port: number}).port}`,
		requests,
		holdNext: match => new Promise(resolve => holds.push({match, reached: resolve})),
		async stop() {
			for (const response of held.splice(0)) response.destroy();
			proxy.closeAllConnections();
			await new Promise(resolve => proxy.close(resolve));
		},
	};
}

/**
 * Issues `ids` of the live Redmine as a kill loop's tracker, sift reaching it through `proxy`: a
 * title taken twice shows as a second PUT through the proxy or a second journal entry setting it.
 */
export function redmineKillTracker(server: RedmineServer, proxy: RedmineProxy, ids: number[]): KillLoopTracker {
	type Journal = {details: Array<{name: string; new_value: string | null}>};
	const issue = async (id: string) => (await server.api<{issue: {subject: string; journals: Journal[]}}>('GET', `/issues/${id}.json?include=journals`)).issue;
	return {
		ids: ids.map(String),
		write: 'PUT',
		holdNext: match => proxy.holdNext(match),
		async writes(id, title) {
			const puts = proxy.requests.filter(request => request.method === 'PUT' && request.path.split('?')[0] === `/issues/${id}.json`).length;
			const journaled = (await issue(id)).journals.filter(journal => journal.details.some(detail => detail.name === 'subject' && detail.new_value === title)).length;
			return Math.max(puts, journaled);
		},
		title: async id => (await issue(id)).subject,
	};
}
