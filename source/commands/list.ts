// `sift list`: pages of items newest first, `--filter`, `--all` (JSON Lines with `--json`)

import {once} from 'node:events';
import type {Writable} from 'node:stream';
import type {AsyncStore, Field, ItemPreview, Page, PageQuery} from '../../store/index.js';
import {counted, formatValue, shortFields} from '../text/format.js';
import {cellWidth, fit, truncate} from '../text/width.js';
import {safeJson, sanitize} from '../text/sanitize.js';
import {pages} from '../../store/page-stream.js';
import {channelOf, output, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

/** `--filter key=value`: booleans as true/false, everything else as the option value typed. */
function parseFilters(filters: string[]): Record<string, unknown> | undefined {
	if (filters.length === 0) {
		return undefined;
	}

	const filter: Record<string, unknown> = {};
	for (const entry of filters) {
		const split = entry.indexOf('=');
		if (split <= 0) {
			throw new UsageError(`--filter expects key=value, got ${JSON.stringify(entry)}`);
		}

		const key = entry.slice(0, split);
		if (Object.hasOwn(filter, key)) {
			throw new UsageError(`--filter names ${JSON.stringify(key)} twice`);
		}

		const raw = entry.slice(split + 1);
		// An own property even for keys such as __proto__, so the store sees (and refuses) the key as typed.
		Object.defineProperty(filter, key, {value: raw === 'true' ? true : (raw === 'false' ? false : raw), enumerable: true, writable: true, configurable: true});
	}

	return filter;
}

/** The store query the flags ask for: the selection (--where, --filter), the order and where to start. */
export function queryOf(context: CommandContext): PageQuery {
	const {before, cursor, where, sort, limit, filter} = context.flags;
	return {beforeId: before, cursor, where, sort, limit, filter: parseFilters(filter)};
}

/** Where the next page starts, as the flag to type. */
function nextHint(page: Page): string {
	if (page.next_cursor !== undefined) {
		return page.next_cursor ? `next page: --cursor ${page.next_cursor} (with the same --where and --sort)` : 'end of the list';
	}

	return page.next_before_id ? `next page: --before ${page.next_before_id}` : 'end of channel';
}

/** The terminal's width: the TTY's, else $COLUMNS, else 80. */
export function terminalWidth(stdout: Writable, env: NodeJS.ProcessEnv): number {
	const tty = (stdout as Writable & {columns?: number}).columns;
	if (tty !== undefined && tty > 0) return tty;
	const columns = Number(env.COLUMNS);
	return Number.isInteger(columns) && columns > 0 ? columns : 80;
}

type Column = {title: string; width: number; field?: Field};

const ID_WIDTH = 13;
const VERSION_WIDTH = 3;

/** The fields a table may show, in schema order. */
const tableFields = (schema: Field[]) => shortFields(schema).slice(0, 8);

/** The most cells a field's column ever wants: a title may take 60, the rest 16. */
const widestWanted = (field: Field) => (field.key === 'title' ? 60 : 16);

/** The widest cell each column would need, by field key: labels, then every item measured. */
export type ColumnWidths = Map<string, number>;

/**
 * Widens `widths` to fit `items` (terminal cells, so CJK and emoji count double), each up to its
 * column's cap. True once every column is at its cap: nothing more can change the layout.
 */
export function measureColumns(schema: Field[], items: ItemPreview[], widths: ColumnWidths): boolean {
	let settled = true;
	for (const field of tableFields(schema)) {
		const cap = widestWanted(field);
		let widest = widths.get(field.key) ?? cellWidth(sanitize(field.label));
		const column: Column = {title: field.label, width: 0, field};
		for (const item of items) {
			if (widest >= cap) break;
			widest = Math.max(widest, cellWidth(sanitize(cell(column, item))));
		}

		widths.set(field.key, Math.min(cap, widest));
		if (widest < cap) settled = false;
	}

	return settled;
}

/**
 * The columns that fit `width`: id and version, then the short fields in schema order while each
 * still fits at its least width; the room left widens the title first, then the rest, up to what
 * their labels and the measured items need.
 */
export function layoutColumns(schema: Field[], width: number, widths: ColumnWidths): Column[] {
	const columns: Column[] = [{title: 'id', width: ID_WIDTH}, {title: 'v', width: VERSION_WIDTH}];
	const wanted = new Map<Column, number>();
	let used = ID_WIDTH + 1 + VERSION_WIDTH;
	for (const field of tableFields(schema)) {
		const column: Column = {title: field.label, width: 0, field};
		const natural = widths.get(field.key) ?? cellWidth(sanitize(field.label));
		column.width = Math.min(natural, field.key === 'title' ? 20 : 10);
		if (used + 1 + column.width > width) break;
		columns.push(column);
		wanted.set(column, natural);
		used += 1 + column.width;
	}

	const widen = (column: Column) => {
		const grow = Math.max(0, Math.min(width - used, wanted.get(column)! - column.width));
		column.width += grow;
		used += grow;
	};

	const fieldColumns = columns.filter(column => column.field);
	for (const column of fieldColumns.filter(candidate => candidate.field!.key === 'title')) widen(column);
	for (const column of fieldColumns) widen(column);
	return columns;
}

/** A line cut to the terminal's width in cells, without a marker. */
const clip = (line: string, width: number) => truncate(line.trimEnd(), width, '');

function cell(column: Column, item: ItemPreview): string {
	if (!column.field) return column.title === 'id' ? item.id : String(item.version);
	// A value no option matches is shown raw and marked, never as a label.
	return formatValue(column.field, item.preview[column.field.key]).map(segment => (segment.raw ? `?${segment.text}` : segment.text)).join('');
}

const row = (columns: Column[], texts: string[], width: number) => clip(columns.map((column, index) => fit(sanitize(texts[index]!), column.width)).join(' '), width);
const headerOf = (columns: Column[], width: number) => row(columns, columns.map(column => column.title), width);
const rowsOf = (columns: Column[], items: ItemPreview[], width: number) => items.map(item => row(columns, columns.map(column => cell(column, item)), width));

function renderPage(page: Page, width: number): string {
	const widths: ColumnWidths = new Map();
	measureColumns(page.schema, page.items, widths);
	const columns = layoutColumns(page.schema, width, widths);
	const footer = `${counted(page.items.length, 'item')}; ${nextHint(page)}`;
	// A cursor is never cut: a cut one is useless.
	return [headerOf(columns, width), ...rowsOf(columns, page.items, width), page.next_cursor ? footer : clip(footer, width)].join('\n');
}

/** Writes and waits when the pipe is full, so a slow reader holds memory at one page. */
async function write(stdout: Writable, text: string): Promise<void> {
	if (!stdout.write(text)) await once(stdout, 'drain');
}

/**
 * `--all`: every page, written as it is read (JSON Lines with --json). A table is sized from every
 * row it shows: a first pass reads the pages only to measure the columns (stopping early once each
 * is as wide as it may get), then a second pass writes them, so memory stays at one page.
 */
async function streamAll(store: AsyncStore, context: CommandContext, channelId: string): Promise<void> {
	const query = queryOf(context);
	if (context.flags.json) {
		for await (const page of pages(store, channelId, query)) await write(context.stdout, page.items.map(item => `${safeJson(item)}\n`).join(''));
		return;
	}

	const width = terminalWidth(context.stdout, context.env);
	const widths: ColumnWidths = new Map();
	for await (const page of pages(store, channelId, query)) {
		if (measureColumns(page.schema, page.items, widths)) break;
	}

	let columns: Column[] | undefined;
	let count = 0;
	for await (const page of pages(store, channelId, query)) {
		const header = columns ? [] : [headerOf(columns = layoutColumns(page.schema, width, widths), width)];
		await write(context.stdout, [...header, ...rowsOf(columns, page.items, width)].map(line => `${line}\n`).join(''));
		count += page.items.length;
	}

	await write(context.stdout, `${clip(counted(count, 'item'), width)}\n`);
}

const command: Command = async context => withStore(context, async store => {
	const channelId = await channelOf(store, context);
	if (context.flags.all) {
		await streamAll(store, context, channelId);
		return 0;
	}

	const page = await store.listPage(channelId, queryOf(context));
	output(context, page, () => renderPage(page, terminalWidth(context.stdout, context.env)));
	return 0;
});

export default command;
