import {syncChannelOf, onlyArgument, output, resolveItem, withSyncStore} from './common.js';
import type {Command} from './context.js';

/** `sift delete ITEM [--expect-version N]`: without the version, whatever is current is deleted. */
const command: Command = async context => withSyncStore(context, store => {
	const name = onlyArgument(context, 'ITEM (an id or a unique value)');
	const channelId = syncChannelOf(store, context);
	const itemId = resolveItem(store, channelId, name);
	const result = store.deleteItem(channelId, itemId, {kind: 'human'}, context.flags.expectVersion);
	output(context, result, () => `deleted ${itemId} (event ${result.sequence})`);
	return 0;
});

export default command;
