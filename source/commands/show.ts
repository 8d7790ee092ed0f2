// `sift show ITEM`: one item with every field.

import {plainValue} from '../text/format.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, onlyArgument, output, resolveItem, withStore} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withStore(context, async store => {
	const name = onlyArgument(context, 'ITEM (an id or a unique value)');
	const channelId = await channelOf(store, context);
	const item = await store.readItem(channelId, await resolveItem(store, channelId, name));
	const {fields} = await store.getChannel(channelId);
	output(context, item, () => [
		sanitize(`${item.id}  version ${item.version}  created ${item.created_at}  updated ${item.updated_at}`),
		...fields.map(field => {
			const value = item.values[field.key];
			const text = field.config.long && typeof value === 'string' ? sanitize(value, {multiline: true}) : sanitize(plainValue(field, value));
			return `${sanitize(field.label)} (${sanitize(field.key)}): ${text}`;
		}),
	].join('\n'));
	return 0;
});

export default command;
