// `sift add key=value...`: create an item.

import {channelOf, output, parseAssignments, withStore} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withStore(context, async store => {
	const channelId = await channelOf(store, context);
	const result = await store.createItem(channelId, parseAssignments(context.input), {kind: 'human'});
	output(context, result, () => `created ${result.item.id} (event ${result.sequence})`);
	return 0;
});

export default command;
