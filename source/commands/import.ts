// `sift import FILE`: the format detected or given; a sift file streamed into a new channel; other
// formats streamed: a survey pass for the schema, a check pass that stages the rows, then one
// import (or, `--into --key`, one upsert) from the staged rows; `--dry-run`, `--schema-out`;
// removes a database it created if the import fails.

import {basename, extname} from 'node:path';
import {writeFileSync} from 'node:fs';
import {checkChannel, checkNewRows, NewRowsCheck, removeStoreFiles, StoreError, type AsyncStore, type Channel, type UpsertRefusal} from '../../store/index.js';
import {channelOfMap, checkMapColumns, columnMapYaml, mapOfChannel, mapWithOptions, readColumnMap, rowOfMap, type ColumnMap} from '../import/column-map.js';
import {detectFormat} from '../import/detect-format.js';
import {readGithubFile} from '../import/github.js';
import {inferColumnMap} from '../import/infer.js';
import {readImportFile} from '../import/read-import-file.js';
import {IMPORT_FORMATS, RecordFileError, type ImportFormat, type RecordFile, type RecordRow} from '../import/records.js';
import {removeOrphanedStaging, StagedRows} from '../import/staged-rows.js';
import {surveyTable} from '../import/survey.js';
import {csvFile, csvHeader, firstJsonLine, jsonLinesFile, type TableFile} from '../import/tabular.js';
import {channelOfJsonlHead, typedHeaderOf} from '../import/typed-header.js';
import {mapOfTypedChannel, mapOfTypedHeader, rowOfChannel, withEmptyChoicesAsText} from '../import/typed-map.js';
import {reapAbandonedRuns} from '../codex/reap.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {databasePath, onlyArgument, openExistingStore, openOrCreateStore, output} from './common.js';
import {describeRefusal} from '../text/refusal.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {counted} from '../text/format.js';
import {boundHeap} from './bounded-heap.js';

/** Removes a database file this command created, with its WAL companions. */
export function removeDatabase(path: string): void {
	removeStoreFiles(path);
}

/** The channel id a file name suggests: `support-tickets.csv` → `support-tickets`. */
export function channelIdOf(file: string): string {
	const slug = basename(file, extname(file)).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+|-+$/g, '').slice(0, 64);
	return slug === '' ? 'records' : slug;
}

function formatOf(context: CommandContext, file: string): ImportFormat {
	const given = context.flags.format;
	if (given === undefined) return detectFormat(file);
	if (!(IMPORT_FORMATS as readonly string[]).includes(given)) {
		throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(', ')}; got ${JSON.stringify(given)}`);
	}

	return given as ImportFormat;
}

const tableFile = (file: string, format: 'csv' | 'jsonl'): TableFile => (format === 'csv' ? csvFile(file) : jsonLinesFile(file));

/** The first streamed pass (source/import/survey.ts); a file without rows is refused (there is nothing to import, nor to infer a schema from). */
async function surveyed(table: TableFile, map?: ColumnMap) {
	const survey = await surveyTable(table, map);
	if (survey.rows === 0) {
		throw new RecordFileError(`${table.path}: read as ${table.format === 'csv' ? 'CSV' : 'JSON Lines'}, the file has no rows to import${table.format === 'csv' ? ' (only a header row)' : ''}; give --format if it is another format`);
	}

	return survey;
}

/** sift's own typed first line, when the file has one: a CSV's typed header, or the channel a JSON Lines head gives. */
async function typedOf(table: TableFile): Promise<{csv?: {map: ColumnMap}; channel?: Channel}> {
	if (table.format === 'csv') {
		const head = await csvHeader(table.path);
		const csv = head && typedHeaderOf(table.path, head.header, head.line);
		return csv ? {csv: {map: mapOfTypedHeader(csv)}} : {};
	}

	const head = channelOfJsonlHead(await firstJsonLine(table.path));
	return head === undefined ? {} : {channel: checkChannel(head)};
}

/** A channel given by a file (a sift file, a JSON Lines head) under the --channel id, when one is given. */
function channelNamed(context: CommandContext, channel: unknown): unknown {
	const id = context.flags.channel;
	return id !== undefined && typeof channel === 'object' && channel !== null && !Array.isArray(channel) ? {...channel, id} : channel;
}

/** A table's rows under a map, streamed. */
async function* mappedRows(table: TableFile, map: ColumnMap): AsyncGenerator<RecordRow> {
	for await (const row of table.rows()) yield rowOfMap(map, row);
}

/** sift's own JSON Lines rows as the values of its head's channel, streamed. */
async function* channelRows(table: TableFile, channel: Channel): AsyncGenerator<RecordRow> {
	for await (const row of table.rows()) yield rowOfChannel(channel, row);
}

/**
 * The file read as records, with the column map behind them (CSV and JSON Lines) for --schema-out.
 * A CSV or JSON Lines file is read once here for the schema (its types inferred over every row, or
 * a map's options gathered), and its rows stream again on each call of rows().
 */
async function recordsOf(context: CommandContext, file: string, format: Exclude<ImportFormat, 'sift'>): Promise<{records: RecordFile; map?: ColumnMap}> {
	const id = context.flags.channel ?? channelIdOf(file);
	const fallback = {id, name: context.flags.channel ?? basename(file)};
	if (format === 'github') {
		if (context.flags.map !== undefined) throw new UsageError('--map applies to csv and jsonl files; a GitHub file has its own mapping (docs/records.md#github-issues)');
		return {records: readGithubFile(file, fallback.id, fallback.name)};
	}

	const table = tableFile(file, format);
	const typed = context.flags.map === undefined ? await typedOf(table) : {};
	if (typed.channel) {
		// sift's own JSON Lines: its head's channel, whole, and each row's values as written.
		const channel = checkChannel(channelNamed(context, typed.channel));
		if (context.flags.schemaOut !== undefined) throw new UsageError('--schema-out writes an inferred map; this file is sift\'s own JSON Lines, whose first line holds its whole channel');
		return {records: {format, channel, rows: () => channelRows(table, channel)}};
	}

	const given = context.flags.map === undefined ? typed.csv?.map : readColumnMap(context.flags.map);
	const survey = await surveyed(table, given);
	// sift's own CSV: a select none of whose rows has a value has no options to make, so it comes back as text.
	const map = typed.csv ? withEmptyChoicesAsText(typed.csv.map, survey) : given ?? inferColumnMap(survey, fallback);
	checkMapColumns(map, survey.columns);
	if (context.flags.channel !== undefined) map.channel = {...map.channel, id: context.flags.channel};
	// Options a given map lacks grow only with --grow-options; inferred options are the data's own, and so are a typed header's.
	const channel = channelOfMap(map, survey, fallback, context.flags.growOptions === true || given === undefined || typed.csv !== undefined);
	return {records: {format, channel, rows: () => mappedRows(table, map)}, map};
}

/**
 * The rows for --into: a GitHub file maps as always; a CSV or JSON Lines file by --map, else by
 * the target channel's own fields (each column to the field of its label or key; its columns
 * read in a first pass).
 */
async function intoRows(context: CommandContext, file: string, format: Exclude<ImportFormat, 'sift'>): Promise<(channel: Channel) => Iterable<RecordRow> | AsyncIterable<RecordRow>> {
	if (format === 'github') {
		if (context.flags.map !== undefined) throw new UsageError('--map applies to csv and jsonl files; a GitHub file has its own mapping (docs/records.md#github-issues)');
		return () => readGithubFile(file, 'github', 'github').rows();
	}

	const table = tableFile(file, format);
	const given = context.flags.map === undefined ? undefined : readColumnMap(context.flags.map);
	// sift's own export names its fields by key (a CSV's typed header, a JSON Lines head's channel).
	const typed = given === undefined ? await typedOf(table) : {};
	const typedMap = typed.csv?.map ?? (typed.channel && mapOfTypedChannel(typed.channel));
	const {columns} = await surveyed(table, given ?? {columns: {}});
	if (given) checkMapColumns(given, columns);
	return channel => mappedRows(table, given ?? mapOfChannel(channel, columns, typedMap));
}

/** The rows of a sift file, for --into: its items' values. */
function* siftRows(file: string): Generator<RecordRow> {
	const source = readImportFile(file);
	try {
		let index = 0;
		for (const item of source.items) {
			const raw = item as {values?: Record<string, unknown>; created_at?: string; updated_at?: string};
			yield {values: raw.values ?? {}, created_at: raw.created_at, updated_at: raw.updated_at, at: `items[${index}]`};
			index++;
		}
	} finally {
		source.close();
	}
}

const refusalText = (refusal: UpsertRefusal) => `${sanitize(refusal.at)}${refusal.key === undefined ? '' : ` (key ${sanitizeValue(JSON.stringify(refusal.key))})`}: ${describeRefusal(refusal.error, 'line')}`;

/** A value outside a select's options refused, without --grow-options: the line saying how to let the options grow. */
function growHint(context: CommandContext, refusals: UpsertRefusal[]): string[] {
	const outsideOptions = refusals.some(refusal => refusal.error.error === 'validation_failed' && refusal.error.fields.some(problem => 'allowed' in problem));
	return outsideOptions && context.flags.growOptions !== true ? ['a value outside a select\'s options is refused; --grow-options adds such values to the field\'s options'] : [];
}

/** `C conflicts`: fields a person changed since the last import that the file changes too, kept as the person's (docs/records.md). */
const summaryLine = (counts: {created: number; updated: number; unchanged: number; conflicts?: number; refused: number}) => `${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.conflicts ?? 0} conflicts, ${counts.refused} refused`;

/** The schema as lines for --dry-run: each field with its type and, for a choice, its options. */
function schemaLines(channel: Channel): string[] {
	return [`channel ${sanitize(channel.id)} (${sanitizeValue(channel.name)}):`, ...channel.fields.map(field => {
		const options = field.config.options?.map(option => option.value);
		const flags = [field.is_unique ? 'unique' : '', field.is_required ? 'required' : '', field.config.long ? 'long' : ''].filter(Boolean).join(', ');
		return `  ${sanitize(field.key)}  ${field.type}${flags ? ` (${flags})` : ''}${options ? `  options: ${sanitizeValue(options.slice(0, 12).join(', '))}${options.length > 12 ? `, … (${options.length})` : ''}` : ''}`;
	})];
}

/** The values for the store: keys with no value that the target channel does not have are left out. */
const valuesFor = (row: RecordRow, fields: Set<string>): RecordRow => ({...row, values: Object.fromEntries(Object.entries(row.values).filter(([key, value]) => value !== null || fields.has(key)))});

/** --grow-options: the values of the target channel's choice fields that its options lack, gathered row by row. */
class MissingOptions {
	private readonly missing: Record<string, Set<string>> = {};
	private readonly choice: Array<{key: string; known: Set<string>}>;

	constructor(channel: Channel) {
		this.choice = channel.fields.filter(field => field.type === 'select' || field.type === 'multi_select').map(field => ({key: field.key, known: new Set((field.config.options ?? []).map(option => option.value))}));
	}

	see(row: RecordRow): void {
		for (const {key, known} of this.choice) {
			const value = row.values[key];
			for (const part of Array.isArray(value) ? value : [value]) {
				if (typeof part === 'string' && part !== '' && !known.has(part)) (this.missing[key] ??= new Set()).add(part);
			}
		}
	}

	get added(): Record<string, string[]> {
		return Object.fromEntries(Object.entries(this.missing).map(([key, values]) => [key, [...values]]));
	}
}

/**
 * The rows of a CSV, JSON Lines or GitHub file staged as they stream (with --grow-options, the
 * options they lack gathered on the way), then upserted in one transaction from the staged file.
 */
async function upsertStaged(context: CommandContext, store: AsyncStore, channel: Channel, key: string, rows: Iterable<RecordRow> | AsyncIterable<RecordRow>, fields: Set<string>) {
	const staged = new StagedRows();
	try {
		const missing = context.flags.growOptions ? new MissingOptions(channel) : undefined;
		for await (const row of rows) {
			const shaped = valuesFor(row, fields);
			missing?.see(shaped);
			staged.write(shaped);
		}

		staged.finish();
		return await store.upsertItems({channelId: channel.id, key, rows: staged.rows(), addOptions: missing?.added, dryRun: context.flags.dryRun === true});
	} finally {
		staged.remove();
	}
}

/** `--into CHANNEL --key FIELD`: append and update an existing channel, all or nothing. */
async function upsert(context: CommandContext, rows: (channel: Channel) => Iterable<RecordRow> | AsyncIterable<RecordRow>, format: ImportFormat): Promise<number> {
	const into = context.flags.into!;
	const key = context.flags.key;
	if (key === undefined) throw new UsageError('--into needs --key FIELD: the unique field rows are matched on');
	const store = await openExistingStore(context);
	try {
		await reapAbandonedRuns(store, context.env);
		const channel = await store.getChannel(into);
		const fields = new Set(channel.fields.map(field => field.key));
		const result = format === 'sift'
			? await store.upsertItems({channelId: into, key, rows: rows(channel) as Iterable<RecordRow>, dryRun: context.flags.dryRun === true})
			: await upsertStaged(context, store, channel, key, rows(channel), fields);
		output(context, {format, channel_id: into, dry_run: context.flags.dryRun === true, ...result}, () => [
			...result.refusals.map(refusal => `refused ${refusalText(refusal)}`),
			...(result.refused > result.refusals.length ? [`… and ${counted(result.refused - result.refusals.length, 'more refused row')}`] : []),
			...growHint(context, result.refusals),
			...Object.entries(result.options_added).map(([field, values]) => `${result.written ? 'added' : 'would add'} options to ${sanitize(field)}: ${sanitizeValue(values.join(', '))}`),
			`${summaryLine(result)}${result.written ? '' : result.refused > 0 ? ' — nothing was written' : ' (dry run: nothing was written)'}`,
		].join('\n'));
		return result.refused > 0 ? 1 : 0;
	} finally {
		await store.close();
	}
}

/** The times a row gives its new item (the source's own), those it has. */
const itemTimes = (row: Pick<RecordRow, 'created_at' | 'updated_at'>) => ({...(row.created_at === undefined ? {} : {created_at: row.created_at}), ...(row.updated_at === undefined ? {} : {updated_at: row.updated_at})});

/** A new channel from a CSV, JSON Lines or GitHub file: every row checked first, then one import. */
async function create(context: CommandContext, file: string, records: RecordFile, map: ColumnMap | undefined): Promise<number> {
	const channel = checkChannel(records.channel);
	if (context.flags.schemaOut !== undefined) {
		if (map === undefined) throw new UsageError('--schema-out writes the column map of a csv or jsonl file');
		writeFileSync(context.flags.schemaOut, columnMapYaml(mapWithOptions(map, channel)), {mode: 0o644});
	}

	// The check pass stages each row as it goes; the import then reads the staged rows back.
	const check = new NewRowsCheck(channel);
	const staged = context.flags.dryRun ? undefined : new StagedRows();
	try {
		for await (const row of records.rows()) {
			check.see(row);
			if (check.result.refused === 0) staged?.write({values: Object.fromEntries(Object.entries(row.values).filter(([, value]) => value !== null)), ...itemTimes(row), at: row.at});
		}

		const counts = {created: check.result.refused === 0 ? check.result.count : 0, updated: 0, unchanged: 0, refused: check.result.refused};
		if (!staged || check.result.refused > 0) {
			output(context, {format: records.format, channel_id: channel.id, dry_run: context.flags.dryRun === true, written: false, schema: channel, rows: check.result.count, ...counts, refusals: check.result.refusals}, () => [
				...(context.flags.dryRun ? schemaLines(channel) : []),
				...(context.flags.dryRun && map?.created_at !== undefined ? [`  (each item's created_at from the column ${sanitizeValue(JSON.stringify(map.created_at))})`] : []),
				...check.result.refusals.map(refusal => `refused ${refusalText(refusal)}`),
				...(check.result.refused > check.result.refusals.length ? [`… and ${check.result.refused - check.result.refusals.length} more refused rows`] : []),
				...growHint(context, check.result.refusals),
				`${context.flags.dryRun ? `${check.result.count - check.result.refused} would be created, 0 updated, 0 unchanged, 0 conflicts, ${check.result.refused} refused` : summaryLine(counts)} — nothing was written`,
			].join('\n'));
			return check.result.refused > 0 ? 1 : 0;
		}

		staged.finish();
		check.release();
		const items = function * () {
			for (const row of staged.rows()) yield {values: row.values, ...itemTimes(row)};
		};

		return await importInto(context, {channel, items: items()}, (result, store) => output(context, {format: records.format, channel_id: result.channel.id, db: store.location, ...counts, refusals: [], written: true}, () => `imported channel ${result.channel.id} (${sanitizeValue(result.channel.name)}) into ${sanitizeValue(store.location)}\n${summaryLine(counts)}`), index => staged.at(index));
	} finally {
		check.release();
		staged?.remove();
	}
}

/** --dry-run of a sift file into a new channel: the schema and every item checked, nothing opened or written. */
function dryRunSift(context: CommandContext, file: string): number {
	const source = readImportFile(file);
	try {
		const channel = checkChannel(channelNamed(context, source.channel));
		const check = checkNewRows(channel, siftRows(file));
		output(context, {format: 'sift', channel_id: channel.id, dry_run: true, written: false, schema: channel, rows: check.count, created: check.count - check.refused, updated: 0, unchanged: 0, refused: check.refused, refusals: check.refusals}, () => [
			...schemaLines(channel),
			...check.refusals.map(refusal => `refused ${refusalText(refusal)}`),
			`${check.count - check.refused} would be created, 0 updated, 0 unchanged, 0 conflicts, ${check.refused} refused — nothing was written`,
		].join('\n'));
		return check.refused > 0 ? 1 : 0;
	} finally {
		source.close();
	}
}

/** The store import, into a store created on demand (a SQLite file made here is removed again if the import fails). */
async function importInto(context: CommandContext, source: {channel: unknown; items: Iterable<unknown>}, report: (result: {channel: Channel; items_created: number}, store: AsyncStore) => void, rowAt?: (index: number) => string | undefined): Promise<number> {
	const path = databasePath(context);
	const store = await openOrCreateStore(context);
	try {
		await reapAbandonedRuns(store, context.env);
		const result = await store.importChannel(source);
		if (result.indexes_missing) {
			context.stderr.write(`sift: this database role may not create indexes, so channel ${result.channel.id} has none of its ${result.indexes_missing} sort and lookup indexes yet (every page is still right; big sorted pages are slower); run \`sift migrate --db ${sanitizeValue(store.location)}\` as the owner of sift's tables to build them\n`);
		}

		report(result, store);
		await store.close();
		return 0;
	} catch (error) {
		await store.close();
		if (store.created.file) {
			removeStoreFiles(path, store.created.dirs);
		}

		throw rowAt ? namedRow(error, rowAt) : error;
	}
}

/** An import refusal that names items[N] names the row instead (a line, an issue number). */
function namedRow(error: unknown, rowAt: (index: number) => string | undefined): unknown {
	if (error instanceof StoreError && error.body.error === 'invalid_import') {
		const match = /^items\[(\d+)\]/.exec(error.body.message);
		const at = match ? rowAt(Number(match[1])) : undefined;
		if (at !== undefined) return new StoreError({error: 'invalid_import', message: error.body.message.replace(match![0], at)});
	}

	return error;
}

/**
 * `sift import FILE`: a new channel and its items in one transaction, or with --into an existing
 * channel appended to and updated on a key field (docs/records.md). A sift file streams into the
 * store; the other formats are read as records (source/import/) and checked row by row first.
 */
const command: Command = async context => {
	const file = onlyArgument(context, 'FILE to import');
	boundHeap();
	// The staged rows a killed import left behind go, as abandoned runs are reaped.
	removeOrphanedStaging();
	const format = formatOf(context, file);
	if (context.flags.into === undefined && context.flags.key !== undefined) throw new UsageError('--key goes with --into CHANNEL');
	if (format === 'sift') {
		if (context.flags.map !== undefined || context.flags.schemaOut !== undefined) throw new UsageError('--map and --schema-out apply to csv and jsonl files');
		if (context.flags.into !== undefined) return upsert(context, () => siftRows(file), format);
		if (context.flags.dryRun) return dryRunSift(context, file);
		// The file's head is checked before any store is opened or created.
		const source = readImportFile(file);
		try {
			return await importInto(context, {channel: channelNamed(context, source.channel), items: source.items}, (result, store) => output(context, {channel_id: result.channel.id, items_created: result.items_created, db: store.location},
				() => `imported channel ${result.channel.id} (${sanitizeValue(result.channel.name)}) with ${counted(result.items_created, 'item')} into ${sanitizeValue(store.location)}`));
		} finally {
			source.close();
		}
	}

	if (context.flags.into !== undefined) {
		if (context.flags.schemaOut !== undefined) throw new UsageError('--schema-out describes a new channel; it does not go with --into');
		return upsert(context, await intoRows(context, file, format), format);
	}

	const {records, map} = await recordsOf(context, file, format);

	return create(context, file, records, map);
};

export default command;
