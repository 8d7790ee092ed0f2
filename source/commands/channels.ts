// `sift channels`: channels with item and open follow-up counts.

import {withStore, output} from './common.js';
import type {Command} from './context.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {counted} from '../text/format.js';

const command: Command = async context => withStore(context, async store => {
	const channels = await Promise.all((await store.listChannels()).map(async channel => ({...channel, open_followups: await store.countOpenFollowUps(channel.id)})));
	output(context, channels, () => channels.length === 0
		? 'No channels yet. Import one with `sift import FILE`, or create the demo with `sift demo`.'
		: channels.map(channel => `${sanitize(channel.id)}  ${sanitizeValue(channel.name)}  ${counted(channel.item_count, 'item')}  sequence ${channel.latest_sequence}  ${counted(channel.open_followups, 'open follow-up')}`).join('\n'));
	return 0;
});

export default command;
