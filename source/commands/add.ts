import {syncChannelOf, output, parseAssignments, withSyncStore} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withSyncStore(context, store => {
	const channelId = syncChannelOf(store, context);
	const result = store.createItem(channelId, parseAssignments(context.input), {kind: 'human'});
	output(context, result, () => `created ${result.item.id} (event ${result.sequence})`);
	return 0;
});

export default command;
