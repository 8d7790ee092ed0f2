// `sift events`: the channel's change events by sequence.

import type {StoreEvent} from '../../store/index.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, withStore} from './common.js';
import type {Command} from './context.js';
import {counted} from '../text/format.js';

const actorOf = (event: StoreEvent) => (event.actor.run_id ? `${event.actor.kind} ${event.actor.run_id}` : event.actor.kind);

function describeEvent(event: StoreEvent): string {
	const keys = Object.keys(event.changes);
	const changes = event.type === 'item.updated'
		? keys.map(key => `${key}: ${sanitizeValue(event.changes[key]!.from)} → ${sanitizeValue(event.changes[key]!.to)}`).join('; ')
		: counted(keys.length, 'field');
	// Every part comes from the database, the run id from an agent's command line: all escaped.
	return sanitize(`#${event.sequence} ${event.at} ${event.type} ${event.item_id} v${event.version} by ${actorOf(event)}  ${changes}`);
}

const command: Command = async context => withStore(context, async store => {
	const channelId = await channelOf(store, context);
	const page = await store.pollEvents(channelId, {
		afterSequence: context.flags.after,
		limit: context.flags.limit,
	});
	output(context, page, () => [
		...page.events.map(event => describeEvent(event)),
		page.has_more ? `more: --after ${page.next_after_sequence}` : `up to date at ${page.next_after_sequence}`,
	].join('\n'));
	return 0;
});

export default command;
