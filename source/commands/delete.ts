// `sift delete ITEM [--expect-version N]`.

import {channelOf, onlyArgument, output, resolveItem, withStore} from './common.js';
import type {Command} from './context.js';

/** `sift delete ITEM [--expect-version N]`: without the version, whatever is current is deleted. */
const command: Command = async context => withStore(context, async store => {
	const name = onlyArgument(context, 'ITEM (an id or a unique value)');
	const channelId = await channelOf(store, context);
	const itemId = await resolveItem(store, channelId, name);
	const result = await store.deleteItem(channelId, itemId, {kind: 'human'}, context.flags.expectVersion);
	output(context, result, () => `deleted ${itemId} (event ${result.sequence})`);
	return 0;
});

export default command;
