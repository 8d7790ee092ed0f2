import {plainValue} from '../text/format.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, onlyArgument, output, withStore} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withStore(context, store => {
	const itemId = onlyArgument(context, 'ITEM id');
	const channelId = channelOf(store, context);
	const item = store.readItem(channelId, itemId);
	const {fields} = store.getChannel(channelId);
	output(context, item, () => [
		`${item.id}  version ${item.version}  created ${item.created_at}  updated ${item.updated_at}`,
		...fields.map(field => {
			const value = item.values[field.key];
			const text = field.config.long && typeof value === 'string' ? sanitize(value, {multiline: true}) : plainValue(field, value);
			return `${sanitize(field.label)} (${field.key}): ${text}`;
		}),
	].join('\n'));
	return 0;
});

export default command;
