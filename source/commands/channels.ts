import {withStore, output} from './common.js';
import type {Command} from './context.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';

const command: Command = async context => withStore(context, async store => {
	const channels = await Promise.all((await store.listChannels()).map(async channel => ({...channel, open_followups: await store.countOpenFollowUps(channel.id)})));
	output(context, channels, () => channels.length === 0
		? 'No channels yet. Import one with `sift import FILE`, or create the demo with `sift demo`.'
		: channels.map(channel => `${sanitize(channel.id)}  ${sanitizeValue(channel.name)}  ${channel.item_count} items  sequence ${channel.latest_sequence}  ${channel.open_followups} open follow-ups`).join('\n'));
	return 0;
});

export default command;
