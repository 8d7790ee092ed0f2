// `sift add key=value...`: create an item.

import {StoreError, type AsyncStore, type EditResult} from '../../store/index.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, output, parseAssignments, withStore} from './common.js';
import type {Command} from './context.js';
import {keyFieldOf, nextKey} from './next-key.js';

/** How often a numbered key is tried again when a concurrent add took it first. */
const KEY_ATTEMPTS = 5;

const takenKey = (error: unknown, key: string) => error instanceof StoreError && error.body.error === 'validation_failed' && error.body.fields.some(problem => problem.key === key && problem.item_id !== undefined);

/** Creates the item; without the channel's key, numbered after its items' keys when they follow a pattern. */
async function create(store: AsyncStore, channelId: string, values: Record<string, unknown>): Promise<EditResult & {numbered?: string}> {
	const field = keyFieldOf((await store.getChannel(channelId)).fields);
	if (!field || Object.hasOwn(values, field.key)) return store.createItem(channelId, values, {kind: 'human'});
	for (let attempt = 0; ; attempt++) {
		const key = await nextKey(store, channelId, field, attempt);
		if (key === null) return store.createItem(channelId, values, {kind: 'human'});
		try {
			return {...await store.createItem(channelId, {...values, [field.key]: key}, {kind: 'human'}), numbered: key};
		} catch (error) {
			if (attempt + 1 >= KEY_ATTEMPTS || !takenKey(error, field.key)) throw error;
		}
	}
}

/**
 * `sift add key=value...`: a new item. When the channel's key (its first unique text field) is
 * not given and its items' keys follow PREFIX-digits, the item gets the next one (BUG-1001).
 */
const command: Command = async context => withStore(context, async store => {
	const channelId = await channelOf(store, context);
	// Syntax first (a usage error without a read), then each value as its field reads it.
	parseAssignments(context.input);
	const {fields} = await store.getChannel(channelId);
	const {numbered, ...result} = await create(store, channelId, parseAssignments(context.input, fields));
	output(context, result, () => `created ${result.item.id}${numbered === undefined ? '' : ` ${sanitize(numbered)}`} (event ${result.sequence})`);
	return 0;
});

export default command;
