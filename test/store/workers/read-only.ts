// A child process for the read-only store test, run as a user who may not write the file:
//   node --import tsx read-only.ts DB CHANNEL
// Prints one JSON line: whether the store opened read-only, what list/show return, and the
// refusal a write gets.

import {openStore, StoreError} from '../../../store/index.js';

const [dbPath, channelId] = process.argv.slice(2) as [string, string];
const store = openStore(dbPath);
const page = store.listPage(channelId);
const item = store.readItem(channelId, page.items[0]!.id);
let refusal: unknown;
try {
	store.editItem({channelId, itemId: item.id, values: {title: 'changed'}, actor: {kind: 'human'}});
} catch (error) {
	refusal = error instanceof StoreError ? error.body : String(error);
}

process.stdout.write(`${JSON.stringify({readOnly: store.readOnly, ids: page.items.map(entry => entry.id), item, refusal})}\n`);
store.close();
