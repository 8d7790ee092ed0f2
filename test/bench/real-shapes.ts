// First pages of real-shaped queries at 1M items (100k with --quick), on SQLite and PostgreSQL: the
// GitHub fixtures (test/fixtures/github) replicated with unique numbers, each item's labels,
// assignees, author, state, title and body drawn from a random fixture issue (so every value keeps
// its real frequency), created over the three years before BENCH_NOW. For each query: the first
// page's median and p95 in-process (store.listPage through the async interface), the match count's
// time (counts are read apart from the page), and `sift list --where` as a person runs it, over a
// bare `node -e 0`. The generated stores are cached: the SQLite file under SIFT_BENCH_CACHE (else
// os.tmpdir()/sift-bench), the PostgreSQL one as the database sift_shapes_<size>_v<N> on the bench
// server (kept between runs; drop it to rebuild).

import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, renameSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {githubChannel, issueOf, issueValues, type GithubIssue} from '../../source/import/github.js';
import {siftEntry} from '../../source/codex/paths.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {openStore, type Store} from '../../store/index.js';
import {parseQuery} from '../../store/query/parse.js';
import {whereSql, type Dialect} from '../../store/query/sql.js';
import type {Query} from '../../store/query/types.js';
import {orderOf, pageStatements, sqliteDialect} from '../../store/sqlite/query.js';
import {pgServerUrl, withPgClient} from './pg-support.js';
import {BENCH_NOW, median, percentile, printTable, seeded, type Row} from './support.js';

/** Bumped when the generator changes, so stale caches are not reused. */
const SHAPES_VERSION = 1;
const CHANNEL = 'issues';
/** How long a match count may run (PostgreSQL; SQLite counts to the end). */
const COUNT_WAIT_MS = 20_000;
const FIXTURES = join(process.cwd(), 'test/fixtures/github');

/** Every issue of the fixtures, in the fields sift keeps. */
export function fixtureIssues(): GithubIssue[] {
	const raws: unknown[] = [];
	for (const name of ['anysoftkeyboard-gh-issue-list.json', 'freecad-rest-page.json']) raws.push(...(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as unknown[]));
	for (const line of readFileSync(join(FIXTURES, 'rust-lang-rest-issues.jsonl'), 'utf8').split('\n')) if (line.trim()) raws.push(JSON.parse(line));
	return raws.map(raw => issueOf(raw)).filter((issue): issue is GithubIssue => typeof issue !== 'string');
}

/** The channel every fixture issue fits (the options of all of them). */
function shapesChannel(issues: GithubIssue[]) {
	const seen = {states: new Set<string>(), reasons: new Set<string>(), labels: new Map<string, {color?: string; description?: string}>(), assignees: new Set<string>(), milestones: new Set<string>()};
	for (const issue of issues) {
		if (issue.state) seen.states.add(issue.state);
		if (issue.state_reason) seen.reasons.add(issue.state_reason);
		if (issue.milestone) seen.milestones.add(issue.milestone);
		for (const label of issue.labels) if (!seen.labels.has(label)) seen.labels.set(label, {});
		for (const login of issue.assignees) seen.assignees.add(login);
	}

	return githubChannel(CHANNEL, 'Issues', seen);
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** `count` items, oldest first, each part drawn from a random fixture issue. */
function* shapedItems(issues: GithubIssue[], count: number): Generator<{values: Record<string, unknown>; created_at: string; updated_at: string}> {
	const random = seeded(7);
	const pick = () => issues[Math.floor(random() * issues.length)]!;
	const start = BENCH_NOW.getTime() - 3 * YEAR_MS;
	for (let n = 0; n < count; n++) {
		const created = start + ((n + random()) / count) * 3 * YEAR_MS;
		const updated = Math.min(BENCH_NOW.getTime() - 1000, created + random() * random() * YEAR_MS);
		const base = pick();
		const issue: GithubIssue = {
			...base,
			number: n + 1,
			title: pick().title,
			body: pick().body,
			state: pick().state,
			state_reason: undefined,
			labels: pick().labels,
			assignees: pick().assignees,
			author: pick().author,
			milestone: undefined,
			created_at: new Date(created).toISOString(),
			updated_at: new Date(updated).toISOString(),
			closed_at: undefined,
		};
		yield {values: issueValues(issue), created_at: issue.created_at!, updated_at: issue.updated_at!};
	}
}

/** The value of `of` that the most (`most`) or the fewest issues have, ties by name. */
function byCount(issues: GithubIssue[], of: (issue: GithubIssue) => string[], most: boolean): string {
	const counts = new Map<string, number>();
	for (const issue of issues) for (const value of of(issue)) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts].sort((a, b) => (most ? b[1] - a[1] : a[1] - b[1]) || a[0].localeCompare(b[0]))[0]![0];
}

/** The value of `of` most issues have: the label, assignee or author a reader filters by first. */
const mostCommon = (issues: GithubIssue[], of: (issue: GithubIssue) => string[]) => byCount(issues, of, true);

/** The value of `of` fewest issues have (once): a rare label, whose matches lie far apart. */
const rarest = (issues: GithubIssue[], of: (issue: GithubIssue) => string[]) => byCount(issues, of, false);

/** The queries, with the values the fixtures' distributions make most common (and one rare label). */
export function shapeQueries(issues: GithubIssue[]): string[] {
	const quoted = (value: string) => (/[\s,":]/.test(value) ? `"${value}"` : value);
	const label = quoted(mostCommon(issues, issue => issue.labels));
	return [
		`labels:${label}`,
		`labels:${quoted(rarest(issues, issue => issue.labels))}`,
		`assignees:${quoted(mostCommon(issues, issue => issue.assignees))}`,
		`author:${quoted(mostCommon(issues, issue => (issue.author ? [issue.author] : [])))}`,
		// The exact match, through the author's index (a substring reads every item it passes).
		`author:=${quoted(mostCommon(issues, issue => (issue.author ? [issue.author] : [])))}`,
		`labels:${label} state:open sort:-updated`,
		'compiler',
		'"expected behavior"',
		'created:>-30d sort:-created',
	];
}

/**
 * What main measured before the membership indexes and the words' hashed matches (commit 1dc4cc2,
 * `--quick --only benchRealShapes`, 2026-12-07 on a shared 2-core machine at a load of 15-24, so
 * read them as rough): first-page median and p95 ms by size, backend and query, and the CLI's ms
 * over bare node (which took 1.2 s itself then).
 */
const BEFORE: Record<string, {median: number; p95: number; cli?: number}> = {
	"100000 sqlite labels:T-compiler": {median: 31.2, p95: 106, cli: 666},
	"100000 sqlite labels:A-closures": {median: 140, p95: 286, cli: -141},
	"100000 sqlite assignees:alexcrichton": {median: 16.3, p95: 45.6, cli: -362},
	"100000 sqlite author:steveklabnik": {median: 10.2, p95: 27.0, cli: -318},
	"100000 sqlite labels:T-compiler state:open sort:-updated": {median: 93.4, p95: 232, cli: 1214},
	"100000 sqlite compiler": {median: 50.0, p95: 94.4, cli: 896},
	"100000 sqlite \"expected behavior\"": {median: 93.0, p95: 191, cli: 50.8},
	"100000 sqlite created:>-30d sort:-created": {median: 20.6, p95: 35.4, cli: 91.4},
	"100000 postgres labels:T-compiler": {median: 80.4, p95: 144, cli: 1477},
	"100000 postgres labels:A-closures": {median: 222, p95: 271, cli: 3021},
	"100000 postgres assignees:alexcrichton": {median: 92.0, p95: 163, cli: 2039},
	"100000 postgres author:steveklabnik": {median: 53.6, p95: 127, cli: 1002},
	"100000 postgres labels:T-compiler state:open sort:-updated": {median: 126, p95: 176, cli: 1541},
	"100000 postgres compiler": {median: 467, p95: 546, cli: 657},
	"100000 postgres \"expected behavior\"": {median: 1888, p95: 2638, cli: 1981},
	"100000 postgres created:>-30d sort:-created": {median: 39.3, p95: 63.1, cli: 697},
	// 1M on PostgreSQL before the exact text indexes (main at 2c6e336, 2026-12-07, load 24-30 on 2 cores; 5 pages
	// and 3 CLI runs each, so the p95 is the slowest; author:= was then a substring "=…", read through every item).
	"1000000 postgres labels:T-compiler": {median: 302.5, p95: 327.4, cli: 9395},
	"1000000 postgres labels:A-closures": {median: 508.3, p95: 640.7, cli: 8097},
	"1000000 postgres assignees:alexcrichton": {median: 272.3, p95: 423.5, cli: 9628},
	"1000000 postgres author:steveklabnik": {median: 242.3, p95: 337.4, cli: 6531},
	"1000000 postgres author:=steveklabnik": {median: 24_074.5, p95: 27_005.7, cli: 33_696},
	"1000000 postgres labels:T-compiler state:open sort:-updated": {median: 342.2, p95: 476.4, cli: 7607},
	"1000000 postgres compiler": {median: 3910.0, p95: 4330.0, cli: 11_834},
};

const beforeKey = (size: number, backend: string, query: string) => `${size} ${backend} ${query}`;

/** The cached SQLite store of `size` shaped items, built when missing (under a temporary name, then renamed). */
export async function sqliteShapes(issues: GithubIssue[], size: number): Promise<{location: string; note: string}> {
	const dir = process.env.SIFT_BENCH_CACHE || join(tmpdir(), 'sift-bench');
	mkdirSync(dir, {recursive: true});
	const path = join(dir, `github-shapes-${size}-v${SHAPES_VERSION}.db`);
	if (existsSync(path)) return {location: path, note: `sqlite ${size}: cached ${path}`};
	const building = `${path}.building-${process.pid}`;
	const started = Date.now();
	const store = await openAsyncStore(building, {create: true});
	try {
		await store.importChannel({channel: shapesChannel(issues), items: shapedItems(issues, size)});
	} finally {
		await store.close();
	}

	for (const suffix of ['-wal', '-shm']) rmSync(building + suffix, {force: true});
	renameSync(building, path);
	return {location: path, note: `sqlite ${size}: built ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`};
}

/** The cached PostgreSQL store of `size` shaped items (its own database, kept between runs), or null without a server. */
export async function postgresShapes(issues: GithubIssue[], size: number): Promise<{location: string; note: string} | null> {
	const name = `sift_shapes_${size}_v${SHAPES_VERSION}`;
	const url = new URL(pgServerUrl());
	url.pathname = `/${name}`;
	let exists: boolean;
	try {
		exists = await withPgClient(pgServerUrl(), async client => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
	} catch (error) {
		console.log(`benchRealShapes: PostgreSQL left out, no server at ${new URL(pgServerUrl()).host} (${(error as Error).message})`);
		return null;
	}

	if (exists) {
		const store = await openAsyncStore(url.toString());
		try {
			const summary = await store.channelSummary(CHANNEL).catch(() => undefined);
			if (summary?.item_count === size) return {location: url.toString(), note: `postgres ${size}: cached database ${name}`};
		} finally {
			await store.close();
		}

		await withPgClient(pgServerUrl(), client => client.query(`DROP DATABASE ${name} WITH (FORCE)`));
	}

	const started = Date.now();
	await withPgClient(pgServerUrl(), client => client.query(`CREATE DATABASE ${name}`));
	const store = await openAsyncStore(url.toString(), {create: true});
	try {
		await store.importChannel({channel: shapesChannel(issues), items: shapedItems(issues, size)});
	} catch (error) {
		await store.close();
		await withPgClient(pgServerUrl(), client => client.query(`DROP DATABASE ${name} WITH (FORCE)`));
		throw error;
	}

	await store.close();
	// The statistics autovacuum would gather on a live store, gathered now.
	await withPgClient(url.toString(), client => client.query('VACUUM ANALYZE items'));
	return {location: url.toString(), note: `postgres ${size}: built database ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`};
}

/** Milliseconds of each run of `work`, after one to warm up. */
async function timesMs(work: () => Promise<unknown>, repeats: number): Promise<number[]> {
	await work();
	const times: number[] = [];
	for (let n = 0; n < repeats; n++) {
		const start = process.hrtime.bigint();
		await work();
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}

	return times;
}

/** Median ms of `sift list --where` over `node -e 0`, as a person runs it (the built CLI). */
function cliOverNodeMs(location: string, where: string, nodeMs: number): number {
	const times = Array.from({length: 5}, () => {
		const start = process.hrtime.bigint();
		const run = spawnSync(process.execPath, [siftEntry(), 'list', '--db', location, '--channel', CHANNEL, '--where', where, '--json', '--statement-timeout', '0'], {encoding: 'utf8', env: {...process.env, COLUMNS: '120'}});
		if (run.status !== 0) throw new Error(`sift list --where ${where} failed: ${run.stderr.trim().split('\n')[0]}`);
		return Number(process.hrtime.bigint() - start) / 1e6;
	});
	return median(times) - nodeMs;
}

function bareNodeMs(): number {
	return median(Array.from({length: 5}, () => {
		const start = process.hrtime.bigint();
		spawnSync(process.execPath, ['-e', '0']);
		return Number(process.hrtime.bigint() - start) / 1e6;
	}));
}

async function measure(store: AsyncStore, location: string, backend: string, size: number, queries: string[], nodeMs: number): Promise<Row[]> {
	const rows: Row[] = [];
	const repeats = size >= 500_000 ? 11 : 21;
	for (const where of queries) {
		const times = await timesMs(() => store.listPage(CHANNEL, {where, now: BENCH_NOW}), repeats);
		// A count reads every match (a bare word on PostgreSQL: every item's text): shown, not waited for past COUNT_WAIT_MS.
		const countStart = process.hrtime.bigint();
		const matches = await store.countMatches(CHANNEL, where, BENCH_NOW).catch(() => `> ${COUNT_WAIT_MS / 1000} s`);
		const countMs = typeof matches === 'number' ? Number(process.hrtime.bigint() - countStart) / 1e6 : '';
		const before = BEFORE[beforeKey(size, backend, where)];
		const cli = cliOverNodeMs(location, where, nodeMs);
		rows.push({
			items: size,
			backend,
			query: where,
			matches,
			'before median': before?.median ?? '',
			'before p95': before?.p95 ?? '',
			'median ms': median(times),
			'p95 ms': percentile(times, 0.95),
			'count ms': countMs,
			'before CLI': before?.cli ?? '',
			'CLI over node ms': cli,
		});
	}

	return rows;
}

/** SQLite's membership test before item_members: each row's list opened with json_each until a page is full. */
const jsonEachDialect = (dialect: Dialect): Dialect => ({
	...dialect,
	listHasAny: (key, count) => `EXISTS (SELECT 1 FROM json_each(items.data, '$.${key}') WHERE json_each.value IN (${Array.from({length: count}, () => '?').join(', ')}))`,
	listValue: value => value,
});

/** Reads a first page's rows (51, as listPage does) through the statements of `dialect`, in one transaction. */
function firstPageRows(store: Store, query: Query, dialect: Dialect): number {
	const channel = store.loadedChannel(CHANNEL);
	const statements = pageStatements(channel, whereSql(dialect, channel, query.terms), orderOf(channel, query.sort, query.terms), true, null, 51);
	return store.db.transaction(() => {
		let read = 0;
		for (const statement of statements) {
			if (read >= 51) break;
			statement.params[statement.params.length - 1] = 51 - read;
			read += store.db.prepare(statement.sql).all(...statement.params).length;
		}

		return read;
	})();
}

/**
 * The membership queries' first-page statements on SQLite before (json_each) and after
 * (item_members), on the same file, in alternating turns: the machine's load weighs on both alike.
 */
function sqliteMembershipRows(location: string, size: number, queries: string[]): Row[] {
	const store = openStore(location);
	try {
		const channel = store.loadedChannel(CHANNEL);
		const now = sqliteDialect(channel);
		const before = jsonEachDialect(now);
		const rows: Row[] = [];
		for (const text of queries.filter(query => /(labels|assignees):/.test(query))) {
			const query = parseQuery(text, channel, {now: BENCH_NOW}) as Query;
			const times: [number[], number[]] = [[], []];
			for (let turn = -1; turn < 11; turn++) {
				for (const [index, dialect] of [before, now].entries()) {
					const start = process.hrtime.bigint();
					firstPageRows(store, query, dialect);
					if (turn >= 0) times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
				}
			}

			rows.push({items: size, query: text, 'json_each median ms': median(times[0]), 'item_members median ms': median(times[1]), 'before/after': (median(times[0]) / median(times[1])).toFixed(1)});
		}

		return rows;
	} finally {
		store.close();
	}
}

export async function benchRealShapes(quick: boolean): Promise<Row[]> {
	const size = quick ? 100_000 : 1_000_000;
	const issues = fixtureIssues();
	const queries = shapeQueries(issues);
	const nodeMs = bareNodeMs();
	const rows: Row[] = [];
	const notes: string[] = [];
	const sqlite = await sqliteShapes(issues, size);
	printTable(`SQLite membership, first page's statements (51 rows), before and after, alternating turns: ${size} items`, sqliteMembershipRows(sqlite.location, size, queries));
	for (const made of [sqlite, await postgresShapes(issues, size)]) {
		if (!made) continue;
		notes.push(made.note);
		const store = await openAsyncStore(made.location, {statementTimeoutMs: COUNT_WAIT_MS});
		try {
			const measured = await measure(store, made.location, made.location.startsWith('postgres') ? 'postgres' : 'sqlite', size, queries, nodeMs);
			// Each backend's table as soon as it is measured: a failure of the next keeps these.
			printTable(`Real-shaped first pages (${measured[0]?.backend}): ${size} GitHub-shaped items`, measured);
			rows.push(...measured);
		} finally {
			await store.close();
		}
	}

	const worst = Math.max(...rows.map(row => Number(row['median ms'])));
	const worstCli = Math.max(...rows.map(row => Number(row['CLI over node ms'])));
	notes.push(`bare node -e 0: ${nodeMs.toFixed(0)} ms; goals at ${size}: first page ≤ 50 ms (worst median ${worst.toFixed(1)}: ${worst <= 50 ? 'met' : 'NOT met'}), CLI ≤ 100 ms over node (worst ${worstCli.toFixed(0)}: ${worstCli <= 100 ? 'met' : 'NOT met'})`);
	printTable(`Real-shaped first pages: ${size} GitHub-shaped items, 50 a page through listPage(where); before = main before these indexes`, rows, notes);
	return rows;
}
