import type {Changes, EditResult} from '../../store/index.js';
import {sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, parseAssignments, withStore, wholeNumber} from './common.js';
import {UsageError, type Command} from './context.js';

export const describeChanges = (changes: Changes) =>
	Object.entries(changes).map(([key, change]) => `  ${key}: ${sanitizeValue(change.from)} → ${sanitizeValue(change.to)}`).join('\n');

const command: Command = async context => withStore(context, store => {
	const [itemId, ...assignments] = context.input;
	if (itemId === undefined) {
		throw new UsageError('expected ITEM key=value...');
	}

	const channelId = channelOf(store, context);
	const values = parseAssignments(assignments);
	const before = store.readItem(channelId, itemId);
	const expectedVersion = wholeNumber(context.flags.expectVersion, '--expect-version', 1) ?? before.version;
	const result: EditResult = store.editItem({channelId, itemId, values, expectedVersion, actor: {kind: 'human'}});
	const changes: Changes = {};
	for (const key of Object.keys(values)) {
		if (JSON.stringify(before.values[key]) !== JSON.stringify(result.item.values[key])) {
			changes[key] = {from: before.values[key], to: result.item.values[key]};
		}
	}

	output(context, result, () => result.item.version === before.version
		? `${itemId} unchanged (version ${before.version}): the values were already set`
		: `${itemId} is now version ${result.item.version} (event ${result.sequence})\n${describeChanges(changes)}`);
	return 0;
});

export default command;
