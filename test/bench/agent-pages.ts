// What an agent reads (docs/reference.md#agent-tools): a page of 50 previews and one catch-up
// poll, in bytes, through sift's real MCP tools in process. "Full forms" are the store's own
// page and event log (what the TUI, `sift list --json` and `sift events` show, and what the tools
// returned before the agent forms); "agent forms" are what list_record_items and
// poll_resource_events return now. The catch-up is the store-catchup bench's: a pass over 400
// items, then people make 30 edits, 12 creates and 3 deletes.

import {SqliteAsyncStore} from '../../store/index.js';
import {callerFor, connectInProcess, textOf} from '../mcp/fixtures.js';
import {agent, cleanScratch, freshBugStore, peopleMeanwhile, printTable, seeded, type Row} from './support.js';

const KIB = 1024;
const GOALS = {pageBytes: 12 * KIB, schemaShare: 0.1, pollBytes: Math.round(4.6 * KIB), ratio: 20};

type Forms = {page: string; schema: number; relist: number; poll: string};

const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export async function benchAgentPages(): Promise<Row[]> {
	const store = freshBugStore(400);
	const session = await connectInProcess(new SqliteAsyncStore(store), agent('bench-pages'));
	const call = callerFor(session.client);
	const tool = async (name: string, args: Record<string, unknown>) => textOf(await call(name, args));
	try {
		// A page of 50, as the agent gets it and as the store has it.
		const pageText = await tool('list_record_items', {record_channel_id: 'bugs'});
		const agentPage = JSON.parse(pageText) as {schema: unknown[]; items: Array<{id: string; preview: Record<string, unknown>}>; latest_sequence: number};
		const storePage = store.listPage('bugs');
		// When the page's items store no empty value and no shown value over 120 characters, the
		// full page's previews are byte for byte what the tool returned before previews were compacted.
		const shown = storePage.schema.filter(field => !field.config.long && field.type !== 'json');
		const stored = store.db.prepare('SELECT data FROM items WHERE id = ?');
		const untouched = storePage.items.every(item => {
			const values = JSON.parse((stored.get(item.id) as {data: string}).data) as Record<string, unknown>;
			return shown.every(field => values[field.key] !== null && (values[field.key] === undefined || JSON.stringify(values[field.key]) === JSON.stringify(item.preview[field.key])));
		});

		// The pass: every id, and the sequence the first page reported.
		const ids: string[] = [];
		for (let before: string | null = null; ;) {
			const page = store.listPage('bugs', {beforeId: before});
			ids.push(...page.items.map(item => item.id));
			before = page.next_before_id;
			if (before === null) break;
		}

		peopleMeanwhile(store, ids, seeded(3));

		// Catching up by re-listing every page, both forms.
		let relistAgent = 0;
		let relistFull = 0;
		for (let before: string | undefined; ;) {
			const text = await tool('list_record_items', {record_channel_id: 'bugs', ...(before ? {before_id: before} : {})});
			const page = JSON.parse(text) as {next_before_id: string | null};
			relistAgent += text.length;
			relistFull += JSON.stringify(store.listPage('bugs', {beforeId: before})).length;
			before = page.next_before_id ?? undefined;
			if (before === undefined) break;
		}

		// Catching up by one poll from the saved sequence, both forms.
		const pollText = await tool('poll_resource_events', {resource_type: 'record_channel', resource_id: 'bugs', after_sequence: agentPage.latest_sequence});
		const polled = JSON.parse(pollText) as {events: unknown[]; has_more: boolean};
		const storePoll = store.pollEvents('bugs', {afterSequence: agentPage.latest_sequence});
		if (polled.events.length !== 45 || polled.has_more) {
			throw new Error(`agent-pages bench: expected one poll of 45 events, got ${polled.events.length} (has_more ${polled.has_more})`);
		}

		const forms: Record<'full' | 'agent', Forms> = {
			full: {page: JSON.stringify(storePage), schema: JSON.stringify(storePage.schema).length, relist: relistFull, poll: JSON.stringify(storePoll)},
			agent: {page: pageText, schema: JSON.stringify(agentPage.schema).length, relist: relistAgent, poll: pollText},
		};
		const row = (name: string, form: Forms): Row => ({
			form: name,
			'page of 50 (B)': form.page.length,
			'schema (B)': form.schema,
			'schema share': percent(form.schema / form.page.length),
			'poll, 45 changes (B)': form.poll.length,
			're-listing (B)': form.relist,
			'poll / re-listing': `1/${(form.relist / form.poll.length).toFixed(1)}`,
		});
		const rows = [
			row(`full forms (the store's; the tools' before)${untouched ? '' : ' *'}`, forms.full),
			row('agent forms (the tools\' now)', forms.agent),
			{form: 'goal', 'page of 50 (B)': `≤ ${GOALS.pageBytes}`, 'schema share': `≤ ${percent(GOALS.schemaShare)}`, 'poll, 45 changes (B)': `≤ ${GOALS.pollBytes}`, 'poll / re-listing': `≤ 1/${GOALS.ratio}`},
		];

		// The floors: what the contract's own members cost on this data, with nothing else sent.
		const itemsBytes = JSON.stringify(agentPage.items).length;
		const pageFloor = forms.agent.page.length;
		const perEvent = (forms.agent.poll.length - JSON.stringify({...polled, events: []}).length) / polled.events.length;
		const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
		printTable('What an agent reads: a page of 50 previews, and catching up on 45 changes (400 demo items)', rows, [
			...(untouched ? [] : ['* some previews held empty or over-long values: the full forms\' previews are already compacted']),
			`page ${kib(pageFloor)} (${met(pageFloor <= GOALS.pageBytes)}), schema ${percent(forms.agent.schema / pageFloor)} (${met(forms.agent.schema / pageFloor <= GOALS.schemaShare)}); `
				+ `poll ${kib(forms.agent.poll.length)} (${met(forms.agent.poll.length <= GOALS.pollBytes)}), 1/${(forms.agent.relist / forms.agent.poll.length).toFixed(1)} of re-listing (${met(forms.agent.relist / forms.agent.poll.length >= GOALS.ratio)})`,
			`floors on this data: the 50 items alone (id, version, updated_at, non-empty previews) are ${itemsBytes} B = ${kib(itemsBytes)}, `
				+ `so with the ${forms.agent.schema} B agent schema the page cannot go under ${kib(itemsBytes + forms.agent.schema)} nor the share under ${percent(forms.agent.schema / (itemsBytes + forms.agent.schema))}`,
			`an event with only sequence, type, item_id, version, actor (and changed keys on updates) averages ${perEvent.toFixed(0)} B here: 45 of them are ${kib(perEvent * 45)}`,
		]);
		return rows;
	} finally {
		await session.close();
		store.close();
		cleanScratch();
	}
}
