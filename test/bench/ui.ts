// The TUI's figures (issue 5), measured on the BUILT app in a real pseudo-terminal, the screen read
// back through a headless xterm: a frame counts once the terminal shows it.
//   launch to first frame           spawn → the header and the first rows on screen (10k items)
//   one page step through 10k rows  PgDn → the screen showing the next page, paging on through 10k
//   keypress to frame               j → the header's row number moved, at 1k and at 1M items
//   RSS at 1M vs 1k                 resident memory after paging 200 pages deep
//   event to row                    another process edits a visible row while a Codex run is active
//                                   (the fake codex, hanging) → the row showing the new value
//   sorted and filtered view        at 1M: `/status:new sort:due` → its first rows on screen; then
//                                   j → the next row of that order under the cursor; and r → every
//                                   view's match count on the tabs

import {copyFileSync, existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {openStore} from '../../store/index.js';
import {alive, KEYS, repoRoot, type PtyApp} from '../support/pty.js';
import {close, firstFrame, openSift, pause, rowNumber, selectedTicket} from './pty-bench.js';
import {cachedBugDatabase, cleanScratch, median, percentile, printTable, type Row} from './support.js';

const FAKE_CODEX = () => path.join(repoRoot(), 'test', 'support', 'fake-codex.mjs');

function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const open = (dbPath: string, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): PtyApp => openSift(dbPath, {args: ['--codex', FAKE_CODEX()], env, nodeArgs});

async function launchTimes(dbPath: string, repeats: number): Promise<number[]> {
	const times: number[] = [];
	for (let index = 0; index < repeats; index++) {
		const started = performance.now();
		const app = open(dbPath);
		await app.waitFor(firstFrame, 20_000);
		times.push(app.lastOutputAt - started);
		await close(app);
	}

	return times;
}

const totalOf = (screen: string) => Number(/([\d,]+) items/.exec(screen)?.[1]?.replaceAll(',', '') ?? 0);

/** The ticket of the n-th row (1-based) of the unfiltered demo listing, newest first. */
function ticketAt(total: number, n: number): string {
	return `BUG-${String(total - n + 1).padStart(Math.max(4, String(total).length), '0')}`;
}

/** Presses `key` and waits until the header's row number is `next` and that row is drawn. */
async function step(app: PtyApp, key: string, next: number): Promise<number> {
	const total = totalOf(app.screen());
	return app.timeKeys(key, screen => rowNumber(screen) === next && screen.includes(ticketAt(total, next)), 10_000);
}

async function pageSteps(app: PtyApp, count: number): Promise<number[]> {
	const times: number[] = [];
	let at = rowNumber(app.screen());
	const pageHeight = rowNumber(await (async () => {
		await app.timeKeys(KEYS.pageDown, screen => rowNumber(screen) > at, 10_000);
		return app.screen();
	})()) - at;
	at += pageHeight;
	for (let index = 0; index < count; index++) {
		times.push(await step(app, KEYS.pageDown, at + pageHeight));
		at += pageHeight;
		await pause(20);
	}

	return times;
}

async function keySteps(app: PtyApp, count: number): Promise<number[]> {
	const times: number[] = [];
	let at = rowNumber(app.screen());
	for (let index = 0; index < count; index++) {
		times.push(await step(app, 'j', at + 1));
		at++;
		await pause(30);
	}

	return times;
}

const HEAP_CAP_MB = Number(process.env.SIFT_BENCH_HEAP_CAP_MB ?? 48);

async function deepRss(dbPath: string, pages: number, nodeArgs: string[] = []): Promise<{start: number; deep: number}> {
	const app = open(dbPath, {}, nodeArgs);
	await app.waitFor(firstFrame, 20_000);
	await pause(300);
	const start = rssMb(app.pid);
	let at = rowNumber(app.screen());
	const total = totalOf(app.screen());
	for (let index = 0; index < pages && at < total; index++) {
		app.press(KEYS.pageDown);
		await app.waitFor(screen => rowNumber(screen) > at, 10_000);
		at = rowNumber(app.screen());
	}

	await pause(500);
	const deep = rssMb(app.pid);
	await close(app);
	return {start, deep};
}

/** While a (hanging) fake Codex run is active, another connection edits visible rows. */
async function eventToRow(dbPath: string, repeats: number): Promise<number[]> {
	const pidFile = `${dbPath}.pids`;
	const app = open(dbPath, {FAKE_CODEX_MODE: 'hang', FAKE_CODEX_PIDFILE: pidFile, SIFT_STATE_DIR: path.join(path.dirname(dbPath), 'state')});
	await app.waitFor(firstFrame, 20_000);
	app.press('c');
	await app.waitFor('Run Codex on', 10_000);
	app.press(KEYS.enter);
	await app.waitFor(/list_record_items bugs/, 20_000);
	const writer = openStore(dbPath);
	const times: number[] = [];
	try {
		const visible = writer.listPage('bugs', {limit: 20}).items.slice(2, 2 + repeats);
		for (const [index, item] of visible.entries()) {
			const ticket = String(item.preview.ticket);
			const status = index % 2 === 0 ? 'wont_fix' : 'fixed';
			const label = status === 'wont_fix' ? 'Won\'t fix' : 'Fixed';
			await pause(150 + (index * 37) % 100);
			const started = performance.now();
			writer.editItem({channelId: 'bugs', itemId: item.id, values: {status}, actor: {kind: 'agent', run_id: 'bench'}, expectedVersion: item.version});
			await app.waitFor(screen => (screen.split('\n').find(line => line.includes(ticket)) ?? '').includes(label), 10_000);
			times.push(app.lastOutputAt - started);
		}
	} finally {
		writer.close();
		app.press('x');
		await app.waitFor('Cancel the Codex run?', 5000).catch(() => undefined);
		app.press('y');
		await app.waitFor('Codex cancelled', 15_000).catch(() => undefined);
		await close(app);
	}

	const left = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number).filter(pid => alive(pid)) : [];
	if (left.length > 0) console.log(`warning: fake codex processes still alive: ${left.join(', ')}`);
	return times;
}

const SORTED_QUERY = 'status:new sort:due';

/** A sorted and filtered list at the given size: `/` query → first frame, then j → next row, and launch → the tabs' counts. */
export async function sortedFiltered(dbPath: string, steps: number): Promise<{listed: number; keys: number[]; counted: number}> {
	const reader = openStore(dbPath);
	const [terms, sort] = ['status:new', 'due'];
	let tickets: string[];
	try {
		tickets = [];
		let cursor: string | null | undefined;
		while (tickets.length < steps + 1) {
			const page = reader.listPage('bugs', {where: terms, sort, limit: 50, cursor});
			tickets.push(...page.items.map(item => String(item.preview.ticket)));
			cursor = page.next_cursor;
			if (!cursor) break;
		}
	} finally {
		reader.close();
	}

	const app = open(dbPath);
	await app.waitFor(firstFrame, 30_000);
	// The tabs' counts: the four default views counted one after another (at start up to 200k
	// items, else on r, as here at 1M).
	const counted = await app.timeKeys('r', screen => /4 All [\d,]+/.test(screen), 120_000);
	app.press('/');
	await app.waitFor('/ ', 10_000);
	app.type(SORTED_QUERY);
	await app.waitFor(SORTED_QUERY, 10_000);
	const listed = await app.timeKeys(KEYS.enter, () => selectedTicket(app) === tickets[0], 30_000);
	const keys: number[] = [];
	for (let index = 1; index <= steps && index < tickets.length; index++) {
		keys.push(await app.timeKeys('j', () => selectedTicket(app) === tickets[index], 10_000));
		await pause(30);
	}

	await close(app);
	return {listed, keys, counted};
}

export async function benchUi(quick = false): Promise<Row[]> {
	const small = cachedBugDatabase(1000).path;
	const mid = cachedBugDatabase(quick ? 20_000 : 100_000).path;
	const large = quick ? mid : cachedBugDatabase(1_000_000).path;
	const largeLabel = quick ? '20k' : '1M';
	const rows: Row[] = [];
	const fmt = (values: number[]) => `${median(values).toFixed(1)} (p90 ${percentile(values, 0.9).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`;

	// A writable 10k copy for the live-edit figure (the cached files stay read-only).
	const tenK = cachedBugDatabase(quick ? 1000 : 20_000).path;
	const scratchDb = path.join(path.dirname(tenK), `ui-bench-${process.pid}.db`);
	copyFileSync(tenK, scratchDb);

	const launches = await launchTimes(mid, quick ? 3 : 7);
	rows.push({figure: 'launch to first frame (ms)', measured: fmt(launches), goal: '≤ 500'});

	const pager = open(mid);
	await pager.waitFor(firstFrame, 20_000);
	const pages = await pageSteps(pager, quick ? 20 : 60);
	await close(pager);
	rows.push({figure: 'one page step through 10k+ rows (ms)', measured: fmt(pages), goal: '≤ 20'});

	for (const [label, dbPath] of [['1k', small], [largeLabel, large]] as const) {
		const app = open(dbPath);
		await app.waitFor(firstFrame, 30_000);
		await pause(300);
		const keys = await keySteps(app, quick ? 20 : 60);
		await close(app);
		rows.push({figure: `keypress to frame at ${label} items (ms)`, measured: fmt(keys), goal: '—'});
	}

	const sorted = await sortedFiltered(large, quick ? 20 : 60);
	rows.push({figure: `${SORTED_QUERY} at ${largeLabel}: / Enter to its first rows (ms)`, measured: sorted.listed.toFixed(1), goal: '—'});
	rows.push({figure: `${SORTED_QUERY} at ${largeLabel}: keypress to frame (ms)`, measured: fmt(sorted.keys), goal: '—'});
	rows.push({figure: `views counted at ${largeLabel}: r to every tab's count (ms)`, measured: sorted.counted.toFixed(0), goal: '— (blocks keys on SQLite)'});

	// The same 25 pages (about 850 rows) at both sizes, then on to 400 pages at the large size.
	const rssSmall = await deepRss(small, 25);
	const rssLarge = await deepRss(large, 25);
	rows.push({figure: `RSS at ${largeLabel} vs 1k (MB, 25 pages down)`, measured: `${rssLarge.deep.toFixed(0)} vs ${rssSmall.deep.toFixed(0)} = ${(rssLarge.deep / rssSmall.deep).toFixed(2)}× (at launch ${rssLarge.start.toFixed(0)} vs ${rssSmall.start.toFixed(0)})`, goal: '≤ 1.2×'});
	const rssDeep = await deepRss(large, quick ? 100 : 400);
	rows.push({figure: `RSS at ${largeLabel}, ${quick ? 100 : 400} pages down (MB)`, measured: `${rssDeep.deep.toFixed(0)} (at launch ${rssDeep.start.toFixed(0)}; window kept: ${8 * 50} rows)`, goal: 'flat'});
	// The same walk with V8's heap capped: if what grew above were kept rows, this would run out of
	// memory; staying flat shows the growth is garbage V8 had not yet collected.
	const rssCapped = await deepRss(large, quick ? 100 : 400, [`--max-old-space-size=${HEAP_CAP_MB}`]);
	rows.push({figure: `same, heap capped at ${HEAP_CAP_MB} MB (MB)`, measured: `${rssCapped.deep.toFixed(0)} (at launch ${rssCapped.start.toFixed(0)})`, goal: 'flat'});

	const events = await eventToRow(scratchDb, quick ? 5 : 12);
	rows.push({figure: 'event to row while a run is active (ms)', measured: fmt(events), goal: '≤ 300'});

	for (const suffix of ['', '-wal', '-shm', '.pids']) {
		try {
			(await import('node:fs')).rmSync(scratchDb + suffix, {force: true});
		} catch {}
	}

	cleanScratch();
	printTable('TUI (built app in a pseudo-terminal, screen read through a headless xterm)', rows, [
		'A frame counts when the terminal has drawn it: the time is from the keypress (or spawn, or the other',
		'process\'s commit) to the last output chunk that made the screen show it. Medians; p90 and max beside.',
	]);
	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await benchUi(process.argv.includes('--quick'));
}
