// The channel the multi-process tests and the concurrent-writer bench race on (free of the test
// runner, so a bench can load it too): a counter each writer increments, and a pair written together.

import {openAsyncStore} from '../../../store/api.js';

export const raceChannel = {
	id: 'race',
	name: 'Race',
	fields: [
		{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {}},
		{key: 'counter', label: 'Counter', type: 'number', is_required: false, is_unique: false, config: {integer: true, min: 0}},
		{key: 'a', label: 'A', type: 'text', is_required: false, is_unique: false, config: {}},
		{key: 'b', label: 'B', type: 'text', is_required: false, is_unique: false, config: {}},
	],
};

/** Imports the race channel with `count` items (counter 0) into a new store at `location`; their ids, oldest first. */
export async function seedRace(location: string, count: number): Promise<string[]> {
	const store = await openAsyncStore(location, {create: true});
	try {
		await store.importChannel({channel: raceChannel, items: Array.from({length: count}, (_, index) => ({values: {title: `item ${index}`, counter: 0, a: 'start', b: 'start'}}))});
		return (await store.listPage('race', {limit: count})).items.map(item => item.id).reverse();
	} finally {
		await store.close();
	}
}
