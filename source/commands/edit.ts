import {StoreError, type Changes, type EditResult, type Item, type Store} from '../../store/index.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, parseAssignments, refusalLine, resolveItem, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

export const describeChanges = (changes: Changes) =>
	Object.entries(changes).map(([key, change]) => `  ${sanitize(key)}: ${sanitizeValue(change.from)} → ${sanitizeValue(change.to)}`).join('\n');

/** `ITEM... key=value...`: the names come first, the assignments after them. */
export function splitEditArguments(input: string[]): {names: string[]; values: Record<string, unknown>} {
	const first = input.findIndex(argument => argument.includes('='));
	const names = first === -1 ? input : input.slice(0, first);
	if (names.length === 0) throw new UsageError('expected ITEM... key=value...: name at least one item first');
	if (first === -1) throw new UsageError('expected ITEM... key=value...: give at least one key=value');
	return {names, values: parseAssignments(input.slice(first))};
}

/** How one item's edit ended. */
type Outcome =
	| {name: string; status: 'ok'; before: Item; result: EditResult}
	| {name: string; status: 'refused' | 'conflict' | 'not_found'; error: StoreError};

function changesOf(before: Item, after: Item, keys: string[]): Changes {
	const changes: Changes = {};
	for (const key of keys) {
		if (JSON.stringify(before.values[key]) !== JSON.stringify(after.values[key])) changes[key] = {from: before.values[key], to: after.values[key]};
	}

	return changes;
}

/** One item: its own transaction and version check. Without --expect-version, the version read just before. */
function editOne(store: Store, context: CommandContext, channelId: string, name: string, values: Record<string, unknown>): EditResult & {before: Item} {
	const itemId = resolveItem(store, channelId, name);
	const before = store.readItem(channelId, itemId);
	const expectedVersion = context.flags.expectVersion ?? before.version;
	return {...store.editItem({channelId, itemId, values, expectedVersion, actor: {kind: 'human'}}), before};
}

function attempt(store: Store, context: CommandContext, channelId: string, name: string, values: Record<string, unknown>): Outcome {
	try {
		const {before, ...result} = editOne(store, context, channelId, name, values);
		return {name, status: 'ok', before, result};
	} catch (error) {
		if (!(error instanceof StoreError)) throw error;
		const status = error.code === 'version_conflict' ? 'conflict' : (error.code === 'not_found' ? 'not_found' : 'refused');
		return {name, status, error};
	}
}

function singleText(outcome: Extract<Outcome, {status: 'ok'}>, keys: string[]): string {
	const {before, result} = outcome;
	return result.item.version === before.version
		? `${result.item.id} unchanged (version ${before.version}): the values were already set`
		: `${result.item.id} is now version ${result.item.version} (event ${result.sequence})\n${describeChanges(changesOf(before, result.item, keys))}`;
}

function summaryLine(outcome: Outcome): string {
	const name = sanitize(outcome.name);
	if (outcome.status === 'ok') {
		const {item} = outcome.result;
		const label = item.id === outcome.name ? name : `${name} (${item.id})`;
		return `ok         ${label}: ${item.version === outcome.before.version ? 'unchanged' : `now version ${item.version}`}`;
	}

	return `${outcome.status.padEnd(10)} ${name}: ${refusalLine(outcome.error.body)}`;
}

const summaryJson = (outcome: Outcome) => (outcome.status === 'ok'
	? {name: outcome.name, status: outcome.status, item_id: outcome.result.item.id, version: outcome.result.item.version, sequence: outcome.result.sequence}
	: {name: outcome.name, status: outcome.status, ...outcome.error.body});

/**
 * `sift edit ITEM... key=value... [--expect-version N]`. One item prints its result (or its
 * refusal, exit 1); several print a line each, ok / refused / conflict / not_found, and exit 1
 * if any failed. Each item is written on its own: one refusal does not undo the others.
 */
const command: Command = async context => {
	const {names, values} = splitEditArguments(context.input);
	const keys = Object.keys(values);
	return withStore(context, store => {
		const channelId = channelOf(store, context);
		if (names.length === 1) {
			const {before, ...result} = editOne(store, context, channelId, names[0]!, values);
			output(context, result, () => singleText({name: names[0]!, status: 'ok', before, result}, keys));
			return 0;
		}

		const outcomes = names.map(name => attempt(store, context, channelId, name, values));
		const failed = outcomes.filter(outcome => outcome.status !== 'ok').length;
		const counts = {ok: outcomes.length - failed, failed};
		output(context, {...counts, items: outcomes.map(summaryJson)}, () => [...outcomes.map(summaryLine), `${counts.ok} ok, ${failed} failed`].join('\n'));
		if (failed > 0) context.stderr.write(`sift: ${failed} of ${outcomes.length} edits failed\n`);
		return failed > 0 ? 1 : 0;
	});
};

export default command;
