import {plainValue} from '../text/format.js';
import {sanitize} from '../text/sanitize.js';
import {syncChannelOf, onlyArgument, output, resolveItem, withSyncStore} from './common.js';
import type {Command} from './context.js';

const command: Command = async context => withSyncStore(context, store => {
	const name = onlyArgument(context, 'ITEM (an id or a unique value)');
	const channelId = syncChannelOf(store, context);
	const item = store.readItem(channelId, resolveItem(store, channelId, name));
	const {fields} = store.getChannel(channelId);
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
