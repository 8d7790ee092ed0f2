// Catching up: after a pass over 400 items, people make 30 edits, 12 creates and 3 deletes.
// Re-listing every page and comparing versions, against one poll from the sequence saved on the
// first page of the pass. Bytes are what the agent receives: the pages and events in their agent
// forms (source/mcp/agent-shapes.ts), the schema held by its version after the first page.

import {agentEventPage, agentPage} from '../../source/mcp/agent-shapes.js';
import type {Page} from '../../store/index.js';
import {cleanScratch, freshBugStore, peopleMeanwhile, printTable, seeded, type Row} from './support.js';

export function benchCatchingUp(): Row[] {
	const store = freshBugStore(400);
	const random = seeded(3);

	// The pass: versions by id, and the sequence the first page reported.
	const versions = new Map<string, number>();
	let saved: number | undefined;
	let beforeId: string | null = null;
	do {
		const page: Page = store.listPage('bugs', {beforeId});
		saved ??= page.latest_sequence;
		for (const item of page.items) {
			versions.set(item.id, item.version);
		}

		beforeId = page.next_before_id;
	} while (beforeId !== null);

	peopleMeanwhile(store, [...versions.keys()], random);

	// A: list every page again and compare versions.
	let listCalls = 0;
	let listBytes = 0;
	const seen = new Map<string, number>();
	let schemaVersion: string | undefined;
	beforeId = null;
	do {
		const page: Page = store.listPage('bugs', {beforeId});
		listCalls++;
		const answer = agentPage(page, schemaVersion);
		schemaVersion = answer.schema_version;
		listBytes += JSON.stringify(answer).length;
		for (const item of page.items) {
			seen.set(item.id, item.version);
		}

		beforeId = page.next_before_id;
	} while (beforeId !== null);

	const listed = {
		edits: [...seen].filter(([id, version]) => versions.has(id) && versions.get(id) !== version).length,
		creates: [...seen.keys()].filter(id => !versions.has(id)).length,
		deletes: [...versions.keys()].filter(id => !seen.has(id)).length,
	};

	// B: poll the events after the saved sequence.
	let pollCalls = 0;
	let pollBytes = 0;
	let after = saved!;
	const updated = new Set<string>();
	const created = new Set<string>();
	const removed = new Set<string>();
	for (;;) {
		const page = store.pollEvents('bugs', {afterSequence: after});
		pollCalls++;
		pollBytes += JSON.stringify(agentEventPage(page)).length;
		for (const event of page.events) {
			const target = event.type === 'item.created' ? created : (event.type === 'item.deleted' ? removed : updated);
			target.add(event.item_id);
		}

		after = page.next_after_sequence;
		if (!page.has_more) {
			break;
		}
	}

	const polled = {
		edits: [...updated].filter(id => !created.has(id) && !removed.has(id)).length,
		creates: [...created].filter(id => !removed.has(id)).length,
		deletes: [...removed].filter(id => versions.has(id)).length,
	};
	const row = (approach: string, calls: number, bytes: number, found: typeof listed): Row => ({
		approach,
		calls,
		'bytes returned': bytes,
		'changes found': found.edits + found.creates + found.deletes,
		'edits/creates/deletes': `${found.edits}/${found.creates}/${found.deletes}`,
	});
	const rows = [
		row('re-list every page, compare versions', listCalls, listBytes, listed),
		row(`one poll from the saved sequence (${saved})`, pollCalls, pollBytes, polled),
	];
	printTable('Catching up after a pass over 400 items: people made 30 edits, 12 creates, 3 deletes (45 changes)', rows, [
		`both found all 45: ${rows.every(entry => entry['changes found'] === 45) ? 'yes' : 'NO'}; bytes ratio list/poll: ${(listBytes / pollBytes).toFixed(1)}×`,
	]);
	store.close();
	cleanScratch();
	return rows;
}
