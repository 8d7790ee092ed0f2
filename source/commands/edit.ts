// `sift edit ITEM... key=value...`: one versioned write per item, a summary line per item.

import {StoreError, type AsyncStore, type Changes, type EditResult, type Item} from '../../store/index.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {channelOf, output, parseAssignments, resolveItem, withStore} from './common.js';
import {describeRefusal} from '../text/refusal.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {WHERE_CONFIRM_LIMIT} from './flags.js';
import {pages} from '../../store/page-stream.js';
import {counted} from '../text/format.js';

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

/** `--where QUERY key=value...`: only assignments, no names. */
function whereArguments(context: CommandContext): Record<string, unknown> {
	const name = context.input.find(argument => !argument.includes('='));
	if (name !== undefined) throw new UsageError(`with --where, give only key=value arguments, not item names (got ${JSON.stringify(name)})`);
	if (context.flags.expectVersion !== undefined) throw new UsageError('--where edits each item at the version it had when matched; leave out --expect-version');
	return parseAssignments(context.input);
}

/**
 * An item to edit: its name (its id when a query matched it), and the version it must still have
 * (else the version read just before).
 */
export type Target = {name: string; itemId?: string; expectedVersion?: number};

/**
 * The items the query matches, with the versions they have now. More than WHERE_CONFIRM_LIMIT
 * without --yes is a usage error, raised before anything is written.
 */
async function matchingTargets(store: AsyncStore, context: CommandContext, channelId: string, where: string): Promise<Target[]> {
	const targets: Target[] = [];
	for await (const page of pages(store, channelId, {where})) {
		targets.push(...page.items.map(item => ({name: item.id, itemId: item.id, expectedVersion: item.version})));
		if (!context.flags.yes && targets.length > WHERE_CONFIRM_LIMIT) {
			throw new UsageError(`--where matches more than ${WHERE_CONFIRM_LIMIT} items; add --yes to edit them all`);
		}
	}

	return targets;
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

/**
 * One item, in its own transaction. With a version to expect (--expect-version, or the one a
 * --where match had) the store checks it; without one the store applies the values to whatever
 * version is current when it holds the item, so a write that lands between the read here and the
 * edit (another person, an accept, a retire's migration) is no conflict. The read is only for
 * showing what changed: when another write landed in between, the edit's own event says it.
 */
export async function editNamed(store: AsyncStore, channelId: string, target: Target, values: Record<string, unknown>, expectVersion?: number): Promise<EditResult & {before: Item}> {
	const itemId = target.itemId ?? await resolveItem(store, channelId, target.name);
	const before = await store.readItem(channelId, itemId);
	const expectedVersion = target.expectedVersion ?? expectVersion;
	const result = await store.editItem({channelId, itemId, values, expectedVersion, actor: {kind: 'human'}});
	if (result.item.version <= before.version + 1 || result.proposed) return {...result, before};
	const {events} = await store.pollEvents(channelId, {afterSequence: result.sequence - 1, limit: 1});
	const own = events.find(event => event.sequence === result.sequence && event.item_id === itemId && event.version === result.item.version);
	// No event of its own: the values were already set when the edit held the item.
	if (!own) return {...result, before: result.item};
	const justBefore = {...result.item.values, ...Object.fromEntries(Object.entries(own.changes).map(([key, change]) => [key, change.from]))};
	return {...result, before: {...result.item, version: result.item.version - 1, values: justBefore}};
}

const editOne = async (store: AsyncStore, context: CommandContext, channelId: string, target: Target, values: Record<string, unknown>) => editNamed(store, channelId, target, values, context.flags.expectVersion);

async function attempt(store: AsyncStore, context: CommandContext, channelId: string, target: Target, values: Record<string, unknown>): Promise<Outcome> {
	const {name} = target;
	try {
		const {before, ...result} = await editOne(store, context, channelId, target, values);
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

	return `${outcome.status.padEnd(10)} ${name}: ${describeRefusal(outcome.error.body, 'line')}`;
}

const summaryJson = (outcome: Outcome) => (outcome.status === 'ok'
	? {name: outcome.name, status: outcome.status, item_id: outcome.result.item.id, version: outcome.result.item.version, sequence: outcome.result.sequence}
	: {name: outcome.name, status: outcome.status, ...outcome.error.body});

/** Edits each target on its own and prints the summary; exit 1 if any failed. */
async function editEach(store: AsyncStore, context: CommandContext, channelId: string, targets: Target[], values: Record<string, unknown>): Promise<number> {
	// One after another: each item is its own write, in the order given.
	const outcomes: Outcome[] = [];
	for (const target of targets) outcomes.push(await attempt(store, context, channelId, target, values));
	const failed = outcomes.filter(outcome => outcome.status !== 'ok').length;
	const counts = {ok: outcomes.length - failed, failed};
	output(context, {...counts, items: outcomes.map(summaryJson)}, () => [...outcomes.map(summaryLine), `${counts.ok} ok, ${failed} failed`].join('\n'));
	if (failed > 0) context.stderr.write(`sift: ${failed} of ${counted(outcomes.length, 'edit')} failed\n`);
	return failed > 0 ? 1 : 0;
}

/**
 * `sift edit ITEM... key=value... [--expect-version N]` or `sift edit --where QUERY key=value...
 * [--yes]`. One named item prints its result (or its refusal, exit 1); several, or --where, print
 * a line each, ok / refused / conflict / not_found, and exit 1 if any failed. Each item is written
 * on its own: one refusal does not undo the others.
 */
const command: Command = async context => {
	const {where} = context.flags;
	if (where === undefined && context.flags.yes) throw new UsageError('--yes only goes with --where');
	const {names, values: given} = where === undefined ? splitEditArguments(context.input) : {names: [], values: whereArguments(context)};
	const keys = Object.keys(given);
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		// Each value as its field reads it, the way the TUI reads what is typed (an option's label, `friday`).
		const {fields} = await store.getChannel(channelId);
		const values = parseAssignments(context.input.slice(names.length), fields);
		if (where !== undefined) return editEach(store, context, channelId, await matchingTargets(store, context, channelId, where), values);
		if (names.length === 1) {
			const {before, ...result} = await editOne(store, context, channelId, {name: names[0]!}, values);
			output(context, result, () => singleText({name: names[0]!, status: 'ok', before, result}, keys));
			return 0;
		}

		return editEach(store, context, channelId, names.map(name => ({name})), values);
	});
};

export default command;
