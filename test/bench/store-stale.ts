// Stale versions: 1,000 agent edits; for 1 item in 8 a person changes the same field between the
// agent's read and its write. Sending the version from the read, against re-reading just before
// writing (which only refreshes the version, not the agent's decision).

import {StoreError} from '../../store/index.js';
import {agent, cleanScratch, freshBugStore, human, printTable, type Row} from './support.js';

const STATUSES = ['new', 'triaged', 'in_progress', 'fixed', 'wont_fix'];
const next = (status: unknown, step: number) => STATUSES[(STATUSES.indexOf(status as string) + step) % STATUSES.length]!;

function pass(strategy: 'version from the read' | 're-read just before writing'): Row {
	const store = freshBugStore(400);
	const ids = (store.db.prepare('SELECT id FROM items ORDER BY seq').all() as Array<{id: string}>).map(row => row.id);
	let conflicts = 0;
	let overwrites = 0;
	let personChanges = 0;
	let written = 0;
	for (let n = 0; n < 1000; n++) {
		const itemId = ids[(n * 7) % ids.length]!;
		const read = store.readItem('bugs', itemId);
		// The agent decides from what it read.
		const agentStatus = next(read.values.status, 1);
		let personStatus: string | undefined;
		if (n % 8 === 0) {
			personStatus = next(read.values.status, 2);
			store.editItem({channelId: 'bugs', itemId, values: {status: personStatus}, actor: human});
			personChanges++;
		}

		const expectedVersion = strategy === 'version from the read' ? read.version : store.readItem('bugs', itemId).version;
		try {
			store.editItem({channelId: 'bugs', itemId, values: {status: agentStatus}, actor: agent(), expectedVersion});
			written++;
		} catch (error) {
			if (!(error instanceof StoreError && error.body.error === 'version_conflict')) {
				throw error;
			}

			conflicts++;
		}

		if (personStatus !== undefined && store.readItem('bugs', itemId).values.status !== personStatus) {
			overwrites++;
		}
	}

	store.close();
	return {'expected_version': strategy, 'agent edits': 1000, 'person changes in between': personChanges, written, conflicts, "overwrites of the person's change": overwrites};
}

export function benchStaleVersions(): Row[] {
	const rows = [pass('version from the read'), pass('re-read just before writing')];
	printTable('Stale versions: 1,000 agent edits of status; a person changes status of 1 item in 8 between the agent\'s read and write', rows, [
		'A conflict carries changed_since, so the agent can merge; a re-read version turns every one of them into a silent overwrite.',
	]);
	cleanScratch();
	return rows;
}
