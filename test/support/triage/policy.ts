// The scripted triage agent: given the conversation so far, what does it do next?
//
// It is a pure function of the history Codex replays: no state is kept between
// requests, so a test can hand it any history and check the next move. The plan:
// 1. list_granted_resources (unless the channel is configured) and pick the granted channel the
//    prompt names, else the first one;
// 2. list_record_items on that channel: the page brings the schema with option labels;
// 3. for each target item (configured ids, else an "item ids: a, b" list in the prompt, else
//    listed ids the prompt names, else listed `new` items): read_record_item, then edit_record_item with the reporter's wishes mapped to values;
// 4. on validation_failed, fix what the rejection's `allowed` labels allow, drop the rest and
//    retry once; on version_conflict, re-read and retry without the fields someone else changed;
// 5. answer with a summary of what it set and what it could not set.
// Only the first page is listed: a test that wants more items names them in `itemIds`.
// It follows two economies only when the prompt asks for them, as a real model would: "parallel
// calls" puts every item's next call (all reads, then all edits) in one response, and
// "list_record_items with limit N" lists a page of N items (the schema is what it needs).
//
// With `catchUp`, a run that sift tells where the last run stopped (its agent cursor) catches up
// instead: poll_resource_events from the sequence the prompt gives (following has_more), read the
// items those events name, answer with what changed. It never lists the channel.

import {createHash} from 'node:crypto';
import {type Conversation, type Exchange, isObject} from './history.js';
import {
	correctValues, type FieldProblem, type FirstAttempt, planValues, type SchemaField, schemaFields, type Values,
} from './wishes.js';

export interface PolicyConfig {
	/** The channel to triage; else the granted channel the prompt names, else the first granted. */
	channelId?: string;
	/** The items to triage; else the prompt's "item ids:" list, else listed ids it names, else listed `new` items. */
	itemIds?: string[];
	/** 'as_written' sends select words unmapped first, to exercise the correction from `allowed`. */
	firstAttempt?: FirstAttempt;
	/** A safety stop: answer instead of calling once this many tool calls are in the history. */
	maxCalls?: number;
	/** Follow the agent cursor in the prompt (poll from it, never list); with none there, say so and stop. */
	catchUp?: boolean;
	/** Economies not taken even when the prompt asks for them (to measure each one alone). */
	unasked?: ReadonlyArray<Economy>;
	/**
	 * A model with known answers (the accuracy loop's test): what it proposes for an item it read,
	 * with how sure it says it is, instead of the reporter's wishes. Undefined: nothing to propose.
	 */
	answers?: (item: {id: string; values: Values}) => {values: Values; confidence?: number} | undefined;
}

/** What sift's prompt may ask of the agent to spend fewer tokens. */
export type Economy = 'parallel calls' | 'list limit';

export type ToolCall = {tool: string; args: Record<string, unknown>};

export type Action =
	| ({kind: 'call'} & ToolCall)
	/** Several calls in one response (parallel tool calls), when the prompt asks for them. */
	| {kind: 'calls'; calls: ToolCall[]}
	| {kind: 'answer'; text: string};

export interface ItemOutcome {
	itemId: string;
	/** The ticket when the item has one (what a person recognises), else the id. */
	name: string;
	set: Values;
	refused: Array<{key: string; attempted: unknown; message: string}>;
	note?: string;
	error?: string;
}

/** Either the next action, or the value a stage settled on. */
type Step<T> = {next: Action} | {value: T};

const GRANTED = 'list_granted_resources';
const POLL = 'poll_resource_events';
const LIST = 'list_record_items';
const READ = 'read_record_item';
const EDIT = 'edit_record_item';
const DEFAULT_MAX_CALLS = 400;
const MAX_CONFLICT_RETRIES = 2;

export function nextAction(conversation: Conversation, config: PolicyConfig = {}): Action {
	const limit = config.maxCalls ?? DEFAULT_MAX_CALLS;
	if (conversation.exchanges.length >= limit) {
		return answer(`I stopped after ${limit} tool calls without finishing the triage.`);
	}
	const channel = chooseChannel(conversation, config);
	if ('next' in channel) {
		return channel.next;
	}
	if (config.catchUp) {
		return catchUp(conversation, channel.value);
	}
	const page = listChannel(conversation, channel.value, config);
	if ('next' in page) {
		return page.next;
	}
	const outcomes: ItemOutcome[] = [];
	const pending: ToolCall[] = [];
	const batched = asksForParallelCalls(conversation.prompt) && !config.unasked?.includes('parallel calls');
	for (const itemId of chooseTargets(conversation, config, page.value)) {
		const step = itemStep(conversation, channel.value, page.value.schema, itemId, config);
		if ('next' in step) {
			if (!batched || step.next.kind !== 'call') {
				return step.next;
			}
			pending.push({tool: step.next.tool, args: step.next.args});
			continue;
		}
		outcomes.push(step.value);
	}
	if (pending.length > 0) {
		return pending.length === 1 ? {kind: 'call', ...pending[0]} : {kind: 'calls', calls: pending};
	}
	return answer(summarize(channel.value, outcomes));
}

/** Whether the prompt asks for parallel calls: then every item's next call goes in one response. */
export function asksForParallelCalls(prompt: string): boolean {
	return /\bparallel calls\b/i.test(prompt);
}

/** The page size the prompt asks for ("list_record_items with limit N"), or undefined for the default. */
export function promptListLimit(prompt: string): number | undefined {
	const match = /\blist_record_items with limit (\d+)/.exec(prompt);
	return match ? Number(match[1]) : undefined;
}

function call(tool: string, args: Record<string, unknown>): {next: Action} {
	return {next: {kind: 'call', tool, args}};
}

function answer(text: string): Action {
	return {kind: 'answer', text};
}

function last(conversation: Conversation, match: (e: Exchange) => boolean): Exchange | undefined {
	return conversation.exchanges.filter(match).at(-1);
}

function failure(exchange: Exchange): string | undefined {
	if (!exchange.answered) {
		return 'no answer from the tool';
	}
	if (exchange.isError || !isObject(exchange.result)) {
		const error = isObject(exchange.result) ? exchange.result['error'] : undefined;
		return typeof error === 'string' ? error : (exchange.text || 'an unreadable answer');
	}
	return undefined;
}

// --- 1. the channel --------------------------------------------------------------------------

function chooseChannel(conversation: Conversation, config: PolicyConfig): Step<string> {
	if (config.channelId) {
		return {value: config.channelId};
	}
	const granted = last(conversation, e => e.tool === GRANTED);
	if (!granted) {
		return call(GRANTED, {});
	}
	const problem = failure(granted);
	const ids = problem ? [] : grantedChannelIds(granted.result);
	if (ids.length === 0) {
		return {next: answer(`I found no channel I may work on (${problem ?? 'none granted'}), so I changed nothing.`)};
	}
	return {value: ids.find(id => mentions(conversation.prompt, id)) ?? ids[0]};
}

function grantedChannelIds(result: unknown): string[] {
	const list = isObject(result) ? (result['channels'] ?? result['resources'] ?? result['granted']) : result;
	if (!Array.isArray(list)) {
		return [];
	}
	return list.map(entry => (isObject(entry) ? entry['id'] : entry)).filter((id): id is string => typeof id === 'string');
}

/** Whether `token` occurs in `text` as a whole word (ids may contain '-' and '_'). */
export function mentions(text: string, token: string): boolean {
	const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`(?:^|[^\\w-])${escaped}(?:$|[^\\w-])`).test(text);
}

// --- 2. the first page, with the schema ------------------------------------------------------

interface Page {
	schema: SchemaField[];
	items: Array<{id: string; status: unknown}>;
}

function listChannel(conversation: Conversation, channel: string, config: PolicyConfig): Step<Page> {
	const listed = last(conversation, e => e.tool === LIST && e.args['record_channel_id'] === channel);
	if (!listed) {
		const limit = config.unasked?.includes('list limit') ? undefined : promptListLimit(conversation.prompt);
		return call(LIST, {record_channel_id: channel, ...(limit === undefined ? {} : {limit})});
	}
	const problem = failure(listed);
	// Codex cuts a long answer in its middle: a page that no longer parses did not fail, and the
	// items named up front need no page (their values go as written, without the schema).
	if (problem && listed.answered && !listed.isError && listed.result === undefined && config.itemIds) {
		return {value: {schema: [], items: []}};
	}
	if (problem) {
		return {next: answer(`I could not list channel ${channel} (${problem}), so I changed nothing.`)};
	}
	return {value: readPage(listed.result as Record<string, unknown>)};
}

function readPage(result: Record<string, unknown>): Page {
	const schema = schemaFields(result['schema']);
	const items = (Array.isArray(result['items']) ? result['items'] : []).filter(isObject).map(item => {
		const shown = isObject(item['preview']) ? item['preview'] : (isObject(item['values']) ? item['values'] : {});
		return {id: String(item['id']), status: shown['status']};
	});
	return {schema, items};
}

function chooseTargets(conversation: Conversation, config: PolicyConfig, page: Page): string[] {
	if (config.itemIds) {
		return config.itemIds;
	}
	const listed = promptItemIds(conversation.prompt);
	if (listed.length > 0) {
		return listed;
	}
	const named = page.items.filter(item => mentions(conversation.prompt, item.id));
	return (named.length > 0 ? named : page.items.filter(item => item.status === 'new')).map(item => item.id);
}

/**
 * Ids the prompt lists explicitly, as sift's runner writes them: `... (item ids): it_1, it_2.`
 * They are read directly, so items beyond the first page are found too.
 */
export function promptItemIds(prompt: string): string[] {
	const match = /\bitem ids\)?\s*:\s*([^\n]+)/i.exec(prompt);
	if (!match) {
		return [];
	}
	return match[1].split(/[\s,]+/).map(token => token.replace(/[.;:]+$/, ''))
		.filter(token => token !== '' && !['and', 'or'].includes(token.toLowerCase()));
}

// --- catching up from the agent cursor ------------------------------------------------------

/** The sequence sift's prompt says to poll from (`after_sequence N`), or undefined. */
export function promptCursor(prompt: string): number | undefined {
	const match = /\bafter_sequence (\d+)/.exec(prompt);
	return match ? Number(match[1]) : undefined;
}

interface PolledEvent {
	sequence: number;
	type: string;
	item_id: string;
}

function catchUp(conversation: Conversation, channel: string): Action {
	const from = promptCursor(conversation.prompt);
	if (from === undefined) {
		return answer('The prompt gave me no sequence to catch up from, so I did nothing.');
	}
	const polls = conversation.exchanges.filter(e => e.tool === POLL);
	const events: PolledEvent[] = [];
	for (const poll of polls) {
		const problem = failure(poll);
		if (problem) {
			return answer(`I could not poll channel ${channel} for changes (${problem}), so I changed nothing.`);
		}
		events.push(...polledEvents(poll.result));
	}
	const lastPoll = polls.at(-1);
	if (!lastPoll || (isObject(lastPoll.result) && lastPoll.result['has_more'] === true)) {
		const after = lastPoll && isObject(lastPoll.result) ? Number(lastPoll.result['next_after_sequence']) : from;
		return call(POLL, {resource_type: 'record_channel', resource_id: channel, after_sequence: after}).next;
	}
	const changed = [...new Set(events.filter(event => event.type !== 'item.deleted').map(event => event.item_id))];
	const names = new Map<string, string>();
	for (const itemId of changed) {
		const read = conversation.exchanges.find(e => e.tool === READ && e.args['item_id'] === itemId);
		if (!read) {
			return call(READ, {record_channel_id: channel, item_id: itemId}).next;
		}
		const {values} = readItem(read.result);
		names.set(itemId, typeof values['ticket'] === 'string' ? values['ticket'] : itemId);
	}
	const last = events.at(-1)?.sequence ?? from;
	return answer(`Caught up on channel ${channel} from sequence ${from} to ${last}: ${events.length} change${events.length === 1 ? '' : 's'}`
		+ `${changed.length > 0 ? `, to ${changed.map(id => names.get(id) ?? id).join(', ')}` : ''}.`);
}

function polledEvents(result: unknown): PolledEvent[] {
	const list = isObject(result) && Array.isArray(result['events']) ? result['events'] : [];
	return list.filter(isObject).map(event => ({sequence: Number(event['sequence']), type: String(event['type']), item_id: String(event['item_id'])}));
}

// --- 3 and 4. one item: read, edit, correct, retry -------------------------------------------

interface Context {
	conversation: Conversation;
	channel: string;
	itemId: string;
	/** This item's reads and edits, oldest first. */
	mine: Exchange[];
}

function itemStep(
	conversation: Conversation, channel: string, schema: SchemaField[], itemId: string, config: PolicyConfig,
): Step<ItemOutcome> {
	const mine = conversation.exchanges.filter(e => (e.tool === READ || e.tool === EDIT) && e.args['item_id'] === itemId);
	const context: Context = {conversation, channel, itemId, mine};
	const read = mine.filter(e => e.tool === READ).at(-1);
	if (!read) {
		return call(READ, {record_channel_id: channel, item_id: itemId});
	}
	const problem = failure(read);
	if (problem) {
		return {value: {itemId, name: itemId, set: {}, refused: [], error: `could not read it: ${problem}`}};
	}
	const item = readItem(read.result);
	const base = {itemId, name: typeof item.values['ticket'] === 'string' ? item.values['ticket'] : itemId};
	const lastEdit = mine.filter(e => e.tool === EDIT).at(-1);
	if (!lastEdit && config.answers) {
		const answer = config.answers({id: itemId, values: item.values});
		return answer === undefined ? {value: {...base, set: {}, refused: [], note: 'nothing to change'}} : editCall(context, answer.values, item.version, answer.confidence);
	}
	if (!lastEdit) {
		const values = planValues(String(item.values['description'] ?? ''), item.values, schema, config.firstAttempt);
		return Object.keys(values).length === 0
			? {value: {...base, set: {}, refused: [], note: 'nothing to change'}}
			: editCall(context, values, item.version);
	}
	return afterEdit(context, base, lastEdit);
}

function readItem(result: unknown): {version: number; values: Values} {
	const item = isObject(result) && isObject(result['item']) ? result['item'] : result;
	const values = isObject(item) && isObject(item['values']) ? item['values'] : {};
	return {version: isObject(item) ? Number(item['version']) : Number.NaN, values};
}

function editCall(context: Context, values: Values, expectedVersion: number, confidence?: number): {next: Action} {
	return call(EDIT, {
		record_channel_id: context.channel,
		item_id: context.itemId,
		values,
		expected_version: expectedVersion,
		idempotency_key: idempotencyKey(context.itemId, expectedVersion, values),
		...(confidence === undefined ? {} : {confidence}),
	});
}

/**
 * The same edit (item, version, values) always gets the same key, so a replayed call is
 * deduplicated by the store, and a different edit never reuses a key.
 */
export function idempotencyKey(itemId: string, expectedVersion: number, values: Values): string {
	const digest = createHash('sha256').update(JSON.stringify([itemId, expectedVersion, values])).digest('hex');
	return `triage-${digest.slice(0, 24)}`;
}

type EditKind = 'ok' | 'validation_failed' | 'version_conflict' | 'error';

function editKind(edit: Exchange): EditKind {
	const result = isObject(edit.result) ? edit.result : {};
	if (result['ok'] === true && !edit.isError) {
		return 'ok';
	}
	if (result['error'] === 'validation_failed' && Array.isArray(result['fields'])) {
		return 'validation_failed';
	}
	return result['error'] === 'version_conflict' ? 'version_conflict' : 'error';
}

function sentValues(edit: Exchange): Values {
	return isObject(edit.args['values']) ? edit.args['values'] : {};
}

function problemsOf(edit: Exchange): FieldProblem[] {
	const fields = isObject(edit.result) ? edit.result['fields'] : undefined;
	return (Array.isArray(fields) ? fields : []).filter(isObject)
		.filter(f => typeof f['key'] === 'string') as unknown as FieldProblem[];
}

/** Every value refused so far and not fixed by a retry, latest word per field. */
function refusedSoFar(context: Context): ItemOutcome['refused'] {
	const byKey = new Map<string, ItemOutcome['refused'][number]>();
	for (const edit of context.mine.filter(e => e.tool === EDIT && editKind(e) === 'validation_failed')) {
		for (const dropped of correctValues(sentValues(edit), problemsOf(edit)).dropped) {
			byKey.set(dropped.key, dropped);
		}
	}
	return [...byKey.values()];
}

function afterEdit(context: Context, base: Pick<ItemOutcome, 'itemId' | 'name'>, lastEdit: Exchange): Step<ItemOutcome> {
	const edits = context.mine.filter(e => e.tool === EDIT);
	const refused = refusedSoFar(context);
	switch (editKind(lastEdit)) {
		case 'ok': {
			return {value: {...base, set: sentValues(lastEdit), refused}};
		}
		case 'validation_failed': {
			// One retry after a rejection; a second rejection leaves the rest to a person.
			const rejections = edits.filter(e => editKind(e) === 'validation_failed').length;
			const retry = correctValues(sentValues(lastEdit), problemsOf(lastEdit)).values;
			if (rejections >= 2 || Object.keys(retry).length === 0) {
				return {value: {...base, set: {}, refused}};
			}
			return editCall(context, retry, Number(lastEdit.args['expected_version']));
		}
		case 'version_conflict': {
			return retryAfterConflict(context, base, lastEdit, refused);
		}
		default: {
			return {value: {...base, set: {}, refused, error: `the edit failed: ${failure(lastEdit) ?? 'unknown error'}`}};
		}
	}
}

function retryAfterConflict(
	context: Context, base: Pick<ItemOutcome, 'itemId' | 'name'>, conflict: Exchange, refused: ItemOutcome['refused'],
): Step<ItemOutcome> {
	const conflicts = context.mine.filter(e => e.tool === EDIT && editKind(e) === 'version_conflict').length;
	if (conflicts > MAX_CONFLICT_RETRIES) {
		return {value: {...base, set: {}, refused, error: 'the item kept changing under me (version_conflict)'}};
	}
	const reread = context.mine.filter(e => e.tool === READ && e.index > conflict.index).at(-1);
	if (!reread) {
		return call(READ, {record_channel_id: context.channel, item_id: context.itemId});
	}
	const problem = failure(reread);
	if (problem) {
		return {value: {...base, set: {}, refused, error: `could not re-read it: ${problem}`}};
	}
	// Someone changed these fields since our read: their change wins, ours is dropped.
	const changed = isObject(conflict.result) && isObject(conflict.result['changed_since']) ? conflict.result['changed_since'] : {};
	const values = Object.fromEntries(Object.entries(sentValues(conflict)).filter(([key]) => !(key in changed)));
	if (Object.keys(values).length === 0) {
		return {value: {...base, set: {}, refused, note: 'someone else changed those fields meanwhile'}};
	}
	return editCall(context, values, readItem(reread.result).version);
}

// --- 5. the answer ---------------------------------------------------------------------------

export function summarize(channel: string, outcomes: ItemOutcome[]): string {
	if (outcomes.length === 0) {
		return `I found no items to triage in channel ${channel}, so I changed nothing.`;
	}
	const lines = [`Triage of ${outcomes.length} item${outcomes.length === 1 ? '' : 's'} in channel ${channel}:`];
	lines.push(...outcomes.map(outcomeLine));
	const refused = outcomes.reduce((n, o) => n + o.refused.length, 0);
	if (refused > 0) {
		lines.push(`${refused} value${refused === 1 ? ' was' : 's were'} refused by the store and left for a person to resolve.`);
	}
	return lines.join('\n');
}

function outcomeLine(outcome: ItemOutcome): string {
	const parts: string[] = [];
	const set = Object.entries(outcome.set);
	if (set.length > 0) {
		parts.push(`set ${set.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(', ')}.`);
	}
	if (outcome.refused.length > 0) {
		const refused = outcome.refused.map(r => `${r.key} ${JSON.stringify(r.attempted)} (${r.message})`);
		parts.push(`Could not set ${refused.join('; ')}.`);
	}
	if (outcome.error) {
		parts.push(`Failed: ${outcome.error}.`);
	}
	if (outcome.note) {
		parts.push(`${outcome.note[0].toUpperCase()}${outcome.note.slice(1)}.`);
	}
	if (parts.length === 0) {
		parts.push('Nothing set.');
	}
	return `- ${outcome.name}: ${parts.join(' ')}`;
}
