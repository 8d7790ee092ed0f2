import type {ImportCase} from '../harness.js';

type Field = {key: string; label: string; type: string; is_required: boolean; is_unique: boolean; config: Record<string, unknown>};

const field = (key: string, type: string, config: Record<string, unknown> = {}, extra: Partial<Field> = {}): Field =>
	({key, label: key, type, is_required: false, is_unique: false, config, ...extra});

const fields = (): Field[] => [
	field('name', 'text', {max_length: 50}, {is_required: true, is_unique: true}),
	field('n', 'number', {min: 0, max: 10}),
	field('state', 'select', {options: [{value: 'open', label: 'Open', color: 'gray'}]}),
	field('data', 'json'),
];

/** A valid import document; each case breaks one thing in it. */
const doc = (change: {channel?: Record<string, unknown>; fields?: Field[]; items?: unknown[]} = {}) => ({
	channel: {id: 'imp', name: 'Imported', fields: change.fields ?? fields(), ...change.channel},
	items: change.items ?? [{values: {name: 'one', n: 1, state: 'open'}}],
});

const text = (value: unknown) => JSON.stringify(value);
const withFields = (...extra: Field[]) => doc({fields: [...fields(), ...extra]});
const refused = (message: RegExp) => ({exit: 1, message});

type Row = [name: string, file: unknown, expect: ImportCase['expect'], options?: {raw?: boolean; into?: ImportCase['into']}];

const deepValue = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const validText = text(doc());

const rows: Row[] = [
	// created_at must be an ISO date-time of a real day.
	['created_at 2026-02-30', doc({items: [{values: {name: 'a'}, created_at: '2026-02-30'}]}), refused(/created_at/)],
	['created_at "1"', doc({items: [{values: {name: 'a'}, created_at: '1'}]}), refused(/created_at/)],
	['created_at "Jan 1 2026 (x)"', doc({items: [{values: {name: 'a'}, created_at: 'Jan 1 2026 (x)'}]}), refused(/created_at/)],
	['created_at with escapes in a comment', doc({items: [{values: {name: 'a'}, created_at: 'Jan 1 2026 (\u001b[2J)'}]}), refused(/created_at/)],
	['created_at as a number', doc({items: [{values: {name: 'a'}, created_at: 1_700_000_000_000}]}), refused(/created_at/)],
	['created_at 2026-02-29T10:00:00Z', doc({items: [{values: {name: 'a'}, created_at: '2026-02-29T10:00:00Z'}]}), refused(/created_at/)],

	// The file itself.
	['a UTF-8 byte order mark is skipped and the rest read as usual (its bad item refused)', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text(doc({items: [{values: {n: 1}}]})))]), refused(/items\[0\][\s\S]*required/), {raw: true}],
	['duplicate keys inside an item\'s values', `{"channel":${text(doc().channel)},"items":[{"values":{"name":"a","n":1,"n":2}}]}`, refused(/duplicate|twice/i), {raw: true}],
	['duplicate keys inside the channel', `{"channel":{"id":"imp","id":"other","name":"x","fields":${text(fields())}},"items":[]}`, refused(/duplicate|twice/i), {raw: true}],
	['an empty file', '', refused(/empty|JSON|expected/i), {raw: true}],
	['not JSON (read as a CSV with only a header)', 'hello', refused(/no rows to import/), {raw: true}],
	['a JSON array at the top (read as GitHub issues, none)', '[]', refused(/no issues to import/), {raw: true}],
	['a truncated file', validText.slice(0, validText.length - 3), refused(/end|expected|JSON/i), {raw: true}],
	['text after the document', `${validText} trailing`, refused(/after/i), {raw: true}],
	['no items', `{"channel":${text(doc().channel)}}`, refused(/items/), {raw: true}],
	['an unknown top-level key', `{"channel":${text(doc().channel)},"items":[],"extra":1}`, refused(/extra/), {raw: true}],
	['items not an array', `{"channel":${text(doc().channel)},"items":{}}`, refused(/items|\[/), {raw: true}],

	// Nesting and numbers the JSON reader must refuse clearly, without a stack overflow.
	['values nested 1000 deep', `{"channel":${text(doc().channel)},"items":[{"values":{"name":"a","data":${deepValue(1000)}}}]}`, refused(/nest|deep/i), {raw: true}],
	['values nested 5000 deep', `{"channel":${text(doc().channel)},"items":[{"values":{"name":"a","data":${deepValue(5000)}}}]}`, refused(/nest|deep/i), {raw: true}],
	['channel nested 5000 deep', `{"channel":{"id":"imp","name":"x","fields":${deepValue(5000)}},"items":[]}`, refused(/nest|deep|fields/i), {raw: true}],
	['1e309 in a number field', `{"channel":${text(doc().channel)},"items":[{"values":{"name":"a","n":1e309}}]}`, refused(/1e309|Infinity/), {raw: true}],
	['1e309 in a json field', `{"channel":${text(doc().channel)},"items":[{"values":{"name":"a","data":1e309}}]}`, refused(/1e309|Infinity/), {raw: true}],

	// The schema.
	['long: "yes" on a text field', withFields(field('body', 'text', {long: 'yes'})), refused(/long/)],
	['options on a text field', withFields(field('body', 'text', {options: [{value: 'a', label: 'A'}]})), refused(/options/)],
	['max_length on a number field', withFields(field('count', 'number', {max_length: 5})), refused(/max_length/)],
	['max_length -1', withFields(field('body', 'text', {max_length: -1})), refused(/max_length/)],
	['max_length "20"', withFields(field('body', 'text', {max_length: '20'})), refused(/max_length/)],
	['min above max', withFields(field('count', 'number', {min: 5, max: 1})), refused(/min|max/)],
	['integer: "true"', withFields(field('count', 'number', {integer: 'true'})), refused(/integer/)],
	['max_stars 0', withFields(field('rate', 'rating', {max_stars: 0})), refused(/max_stars/)],
	['currency code not ISO', withFields(field('cost', 'currency', {currency: 'euros'})), refused(/currency/)],
	['an unknown field type', withFields(field('hue', 'colour')), refused(/colour/)],
	['a duplicate field key', withFields(field('name', 'text')), refused(/duplicate|name/)],
	['a field key with spaces', withFields(field('two words', 'text')), refused(/key/)],
	['a field key with control characters', withFields(field('k\u001b[2J', 'text')), refused(/key/)],
	['a field key __proto__', withFields(field('__proto__', 'text')), refused(/__proto__|key/)],
	['a select without options', withFields(field('kind', 'select')), refused(/options/)],
	['an option without a value', withFields(field('kind', 'select', {options: [{label: 'A'}]})), refused(/value/)],
	['an option without a label', withFields(field('kind', 'select', {options: [{value: 'a'}]})), refused(/label/)],
	['repeated option values', withFields(field('kind', 'select', {options: [{value: 'a', label: 'A'}, {value: 'a', label: 'B'}]})), refused(/a/)],
	['a bad formula', withFields(field('calc', 'formula', {expression: 'n +'})), refused(/formula|expression/)],
	['a formula calling code', withFields(field('calc', 'formula', {expression: 'process.exit(1)'})), refused(/formula|expression/)],
	['a formula on an unknown key', withFields(field('calc', 'formula', {expression: 'missing * 2'})), refused(/missing/)],
	['a relation to no channel', withFields(field('link', 'relation', {channel_id: 'nowhere'})), refused(/nowhere/)],
	['a channel id that is not a slug', doc({channel: {id: 'Bad Id!'}}), refused(/id/)],
	['a channel id that exists', doc({channel: {id: 'bugs'}}), refused(/already exists/)],
	['a channel without fields', doc({fields: []}), refused(/field/)],
	['is_required as "yes"', doc({fields: [field('name', 'text', {}, {is_required: 'yes' as unknown as boolean})]}), refused(/is_required/)],

	// Items.
	['an item that is not an object', doc({items: ['name=a']}), refused(/items\[0\]/)],
	// id, version, created_at and updated_at are what sift export writes (read back, the id replaced); any other key is refused.
	['an item with an unknown key', doc({items: [{values: {name: 'a'}, colour: 'x'}]}), refused(/items\[0\]/)],
	['an item missing a required field', doc({items: [{values: {n: 1}}]}), refused(/required/)],
	['an item with a select label', doc({items: [{values: {name: 'a', state: 'Open'}}]}), refused(/items\[0\][\s\S]*state/)],
	['the second item breaks uniqueness', doc({items: [{values: {name: 'a'}}, {values: {name: 'a'}}]}), refused(/items\[1\]/)],
	['an item with a formula value', doc({fields: [...fields(), field('calc', 'formula', {expression: 'n * 2'})], items: [{values: {name: 'a', calc: 3}}]}), refused(/formula/)],
	['the 3rd of 3 items is bad: nothing is imported', doc({items: [{values: {name: 'a'}}, {values: {name: 'b'}}, {values: {name: 'c', n: 11}}]}), refused(/items\[2\]/)],

	// A failed import into a new database leaves nothing behind: no file, no folder.
	['a failed import into a new path', doc({items: [{values: {n: 1}}]}), refused(/required/), {into: 'new'}],
	['an unreadable file into a new path', 'not json', refused(/no rows to import/), {raw: true, into: 'new'}],
];

export const importCases: ImportCase[] = rows.map(([name, file, expect, options]) => ({surface: 'import', name, file, expect, raw: options?.raw, into: options?.into}));
