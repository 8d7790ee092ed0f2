import type {Ids} from '../template.js';
import type {McpCase} from '../harness.js';

const nested = (depth: number): unknown => {
	let value: unknown = 1;
	for (let level = 0; level < depth; level++) value = [value];
	return value;
};

const isError = (message: RegExp) => ({isError: true, message});
const list = (extra: Record<string, unknown>) => () => ({record_channel_id: 'bugs', ...extra});
const poll = (extra: Record<string, unknown>) => () => ({resource_type: 'record_channel', resource_id: 'bugs', ...extra});
/** A key of its own for every edit case, so no case meets another's idempotency record. */
let keys = 0;
const editBug = (values: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
	const key = `adv-${keys++}`;
	return (ids: Ids) => ({record_channel_id: 'bugs', item_id: ids.bug, values, expected_version: 1, idempotency_key: key, ...extra});
};

const editKitchen = (values: Record<string, unknown>) => {
	const key = `adv-${keys++}`;
	return (ids: Ids) => ({record_channel_id: 'kitchen', item_id: ids.kitchen, values, expected_version: 1, idempotency_key: key});
};

/** A tools/call line whose arguments are written as given (JSON.stringify could not write them); BUG_ITEM and KITCHEN_ITEM stand for ids. */
const rawCall = (tool: string, args: string) => (id: number, ids: Ids) =>
	`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":${args.replaceAll('BUG_ITEM', ids.bug).replaceAll('KITCHEN_ITEM', ids.kitchen)}}}`;

type Row = Omit<McpCase, 'surface'>;

const rows: Row[] = [
	// Seeded: known defects.
	{name: 'filter {"__proto__": "x"} over the wire', tool: 'list_record_items', args: () => ({}), rawLine: rawCall('list_record_items', '{"record_channel_id":"bugs","filter":{"__proto__":"x"}}'), expect: isError(/filterable: status, owner, severity, area/)},
	{name: 'filter with an unknown key', tool: 'list_record_items', args: list({filter: {colour: 'red'}}), expect: isError(/filterable: status, owner, severity, area/)},
	{name: 'a message over 10 MiB', tool: 'list_record_items', args: () => ({}), rawLine: rawCall('list_record_items', `{"record_channel_id":"bugs","filter":{"status":"${'z'.repeat(11 * 1024 * 1024)}"}}`), expect: {rpcError: -32600, message: /10 MiB/}},
	{name: 'json nested 1000 deep', tool: 'edit_record_item', args: editKitchen({data: nested(1000)}), expect: isError(/nest/)},
	// Raw: the SDK client's own JSON.stringify overflows its stack at this depth.
	{name: 'json nested 5000 deep', tool: 'edit_record_item', args: () => ({}), rawLine: rawCall('edit_record_item', `{"record_channel_id":"kitchen","item_id":"KITCHEN_ITEM","values":{"data":${'['.repeat(5000)}1${']'.repeat(5000)}},"expected_version":1,"idempotency_key":"deep-5000"}`), expect: isError(/nest/)},
	{name: '1e309 in a number field', tool: 'edit_record_item', args: () => ({}), rawLine: rawCall('edit_record_item', '{"record_channel_id":"kitchen","item_id":"KITCHEN_ITEM","values":{"n":1e309},"expected_version":1,"idempotency_key":"inf-n"}'), expect: isError(/1e309|Infinity/)},
	{name: '1e309 in a json field', tool: 'edit_record_item', args: () => ({}), rawLine: rawCall('edit_record_item', '{"record_channel_id":"kitchen","item_id":"KITCHEN_ITEM","values":{"data":1e309},"expected_version":1,"idempotency_key":"inf-j"}'), expect: isError(/1e309|Infinity/)},
	{
		name: 'a relation into an ungranted channel: the same refusal for an existing and a missing item',
		tool: 'edit_record_item',
		args: ids => ({record_channel_id: 'kitchen', item_id: ids.kitchen, values: {secret: ids.secret}, expected_version: 1, idempotency_key: 'rel-secret-1'}),
		twin: {args: ids => ({record_channel_id: 'kitchen', item_id: ids.kitchen, values: {secret: ids.missing}, expected_version: 1, idempotency_key: 'rel-secret-2'}), swap: ids => [ids.secret, ids.missing]},
		// A human session: an agent's refusal would open a follow-up, a write by design.
		actor: 'human',
		expect: isError(/secrets/),
	},

	// Channels and grants.
	{name: 'an ungranted channel reads like a missing one', tool: 'list_record_items', args: () => ({record_channel_id: 'secrets'}), twin: {args: () => ({record_channel_id: 'nowhere'}), swap: () => ['secrets', 'nowhere']}, expect: isError(/not_granted/)},
	{name: 'read an ungranted item', tool: 'read_record_item', args: ids => ({record_channel_id: 'secrets', item_id: ids.secret}), expect: isError(/not_granted/)},
	{name: 'read a secrets item through a granted channel', tool: 'read_record_item', args: ids => ({record_channel_id: 'bugs', item_id: ids.secret}), expect: isError(/not_found/)},
	{name: 'edit a secrets item through a granted channel', tool: 'edit_record_item', args: ids => ({record_channel_id: 'bugs', item_id: ids.secret, values: {title: 'x'}, expected_version: 1, idempotency_key: 'cross'}), expect: isError(/not_found/)},
	{name: 'poll an ungranted channel', tool: 'poll_resource_events', args: () => ({resource_type: 'record_channel', resource_id: 'hostile'}), expect: isError(/not_granted/)},
	{name: 'channel id with control characters', tool: 'list_record_items', args: () => ({record_channel_id: 'bu\u0000gs'}), expect: isError(/not_granted/)},
	{name: 'channel id as a number', tool: 'list_record_items', args: () => ({record_channel_id: 7}), expect: isError(/record_channel_id must be a string/)},

	// Arguments.
	{name: 'limit 0', tool: 'list_record_items', args: list({limit: 0}), expect: isError(/1 to 50/)},
	{name: 'limit 51', tool: 'list_record_items', args: list({limit: 51}), expect: isError(/1 to 50/)},
	{name: 'limit 1e9', tool: 'list_record_items', args: list({limit: 1e9}), expect: isError(/1 to 50/)},
	{name: 'limit "5"', tool: 'list_record_items', args: list({limit: '5'}), expect: isError(/1 to 50/)},
	{name: 'limit null', tool: 'list_record_items', args: list({limit: null}), expect: isError(/1 to 50/)},
	{name: 'before_id garbage', tool: 'list_record_items', args: list({before_id: 'garbage'}), expect: isError(/before_id/)},
	{name: 'before_id empty', tool: 'list_record_items', args: list({before_id: ''}), expect: isError(/before_id/)},
	{name: 'before_id a number', tool: 'list_record_items', args: list({before_id: 5}), expect: isError(/before_id/)},
	{name: 'filter with a label', tool: 'list_record_items', args: list({filter: {status: 'New'}}), expect: isError(/option values/)},
	{name: 'filter with a number', tool: 'list_record_items', args: list({filter: {status: 1}}), expect: isError(/filter\.status/)},
	{name: 'filter null', tool: 'list_record_items', args: list({filter: null}), expect: isError(/filter must be an object/)},
	{name: 'filter with 21 keys', tool: 'list_record_items', args: list({filter: Object.fromEntries(Array.from({length: 21}, (_, index) => [`k${index}`, 'x']))}), expect: isError(/at most 20/)},
	{name: 'unknown argument', tool: 'list_record_items', args: list({offset: 5}), expect: isError(/offset/)},
	{name: 'an unknown argument __proto__ over the wire', tool: 'list_record_items', args: () => ({}), rawLine: rawCall('list_record_items', '{"record_channel_id":"bugs","__proto__":{"limit":1}}'), expect: {rpcError: -32602, message: /Unrecognized key: "__proto__"/}},
	{name: 'poll after_sequence -1', tool: 'poll_resource_events', args: poll({after_sequence: -1}), expect: isError(/after_sequence/)},
	{name: 'poll after_sequence 1.5', tool: 'poll_resource_events', args: poll({after_sequence: 1.5}), expect: isError(/after_sequence/)},
	{name: 'poll after_sequence huge', tool: 'poll_resource_events', args: poll({after_sequence: 2 ** 60}), expect: isError(/after_sequence/)},
	{name: 'poll limit 101', tool: 'poll_resource_events', args: poll({limit: 101}), expect: isError(/1 to 100/)},
	{name: 'poll resource_type channel', tool: 'poll_resource_events', args: poll({resource_type: 'channel'}), expect: isError(/record_channel/)},
	{name: 'read a malformed item id', tool: 'read_record_item', args: () => ({record_channel_id: 'bugs', item_id: '../../etc/passwd'}), expect: isError(/not_found|item id/)},
	{name: 'read a missing item', tool: 'read_record_item', args: ids => ({record_channel_id: 'bugs', item_id: ids.missing}), expect: isError(/not_found/)},
	{name: 'edit without values', tool: 'edit_record_item', args: ids => ({record_channel_id: 'bugs', item_id: ids.bug, expected_version: 1, idempotency_key: 'nov'}), expect: isError(/values/)},
	{name: 'edit with empty values', tool: 'edit_record_item', args: editBug({}), expect: isError(/at least one field/)},
	{name: 'edit with expected_version 1.5', tool: 'edit_record_item', args: editBug({status: 'fixed'}, {expected_version: 1.5}), expect: isError(/expected_version/)},
	{name: 'edit with expected_version -1', tool: 'edit_record_item', args: editBug({status: 'fixed'}, {expected_version: -1}), expect: isError(/expected_version/)},
	{name: 'edit with a stale expected_version', tool: 'edit_record_item', args: editBug({status: 'fixed'}, {expected_version: 5}), expect: isError(/version_conflict/)},
	{name: 'edit with a 201-character idempotency key', tool: 'edit_record_item', args: editBug({status: 'fixed'}, {idempotency_key: 'k'.repeat(201)}), expect: isError(/idempotency_key/)},
	{name: 'edit with a numeric idempotency key', tool: 'edit_record_item', args: editBug({status: 'fixed'}, {idempotency_key: 5}), expect: isError(/idempotency_key/)},
	{name: 'values key with 65 characters', tool: 'edit_record_item', args: editBug({['k'.repeat(65)]: 1}), expect: isError(/64 characters/)},
	{name: 'values key __proto__ over the wire', tool: 'edit_record_item', args: () => ({}), rawLine: rawCall('edit_record_item', '{"record_channel_id":"bugs","item_id":"BUG_ITEM","values":{"__proto__":"x"},"expected_version":1,"idempotency_key":"proto"}'), expect: isError(/values\.__proto__ is not a field/)},
	{name: 'a string of 70,000 characters', tool: 'edit_record_item', args: editKitchen({data: 'x'.repeat(70_000)}), expect: isError(/65536/)},
	{name: 'an unknown tool', tool: 'delete_record_item', args: () => ({}), expect: {isError: true, message: /delete_record_item/}},

	// Values, refused by the store (human actor: no follow-ups, so nothing is written).
	...([
		['select label', {status: 'In progress'}, /in_progress/],
		['select label with apostrophe', {status: 'Won\'t fix'}, /wont_fix/],
		['select value trimmed', {status: ' new'}, /values\.status/],
		['select value in another case', {status: 'NEW'}, /values\.status/],
		['number 20 of 0..13', {points: 20}, /between 0 and 13/],
		['number "20 points"', {points: '20 points'}, /values\.points/],
		['number 2.5 on an integer field', {points: 2.5}, /values\.points/],
		['date 2026-02-29', {due: '2026-02-29'}, /YYYY-MM-DD/],
		['date Friday', {due: 'Friday'}, /YYYY-MM-DD/],
		['email a@b', {reporter: 'a@b'}, /values\.reporter/],
		['formula write', {age_days: 3}, /formula/],
		['required null', {title: null}, /required/],
		['unknown key', {colour: 'red'}, /not a field/],
		['control characters in a key', {'sta\u0007tus': 'new'}, /not a field/],
	] as Array<[string, Record<string, unknown>, RegExp]>).map(([name, values, message]): Row => ({name, tool: 'edit_record_item', args: editBug(values), actor: 'human', expect: isError(message)})),
	{name: 'unique value held by another item', tool: 'edit_record_item', args: ids => editBug({ticket: ids.bug2Ticket})(ids), actor: 'human', expect: isError(/unique|already/)},
	...([
		['phone with 5 digits', {tel: '12345'}],
		['url mailto:', {site: 'mailto:a@b.com'}],
		['multi_select repeat', {tags: ['x', 'x']}],
		['currency 3 decimals', {price: 0.001}],
		['percentage 100.5', {pct: 100.5}],
		['rating 6', {stars: 6}],
		['boolean "false"', {flag: 'false'}],
		['file without a name', {doc: {url: 'https://x.org'}}],
		['relation to a missing bug', {bug: 'it_0000000zzz'}],
		['text over max_length', {code: 'c'.repeat(21)}],
	] as Array<[string, Record<string, unknown>]>).map(([name, values]): Row => ({name, tool: 'edit_record_item', args: editKitchen(values), actor: 'human', expect: isError(new RegExp(`values\\.${Object.keys(values)[0]}`))})),
];

/** Cases that write on purpose: each gets its own database. */
export const mcpWriteCases: McpCase[] = [
	{
		surface: 'mcp',
		name: 'an idempotency key reused on another channel is accepted (keys are per channel and actor)',
		tool: 'edit_record_item',
		args: ids => ({record_channel_id: 'tasks', item_id: ids.task, values: {state: 'done'}, expected_version: 1, idempotency_key: 'shared-key'}),
		expect: {isError: false, changes: true},
	},
];

/** What a write case runs first, on the same session. */
export const mcpWriteSetup = (ids: Ids) => ({record_channel_id: 'bugs', item_id: ids.bug, values: {status: 'fixed'}, expected_version: 1, idempotency_key: 'shared-key'});

export const mcpCases: McpCase[] = rows.map(row => ({surface: 'mcp', ...row}));
