import {channelOf, onlyArgument, output, withStore, wholeNumber} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withStore(context, store => {
	const itemId = onlyArgument(context, 'ITEM id');
	const channelId = channelOf(store, context);
	const result = store.deleteItem(channelId, itemId, {kind: 'human'}, wholeNumber(context.flags.expectVersion, '--expect-version', 1));
	output(context, result, () => `deleted ${itemId} (event ${result.sequence})`);
	return 0;
});

export default command;
