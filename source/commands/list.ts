import type {Field, Page} from '../../store/index.js';
import {formatValue, shortFields} from '../text/format.js';
import {channelOf, output, withStore, wholeNumber} from './common.js';
import {UsageError, type Command} from './context.js';

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

		const raw = entry.slice(split + 1);
		filter[entry.slice(0, split)] = raw === 'true' ? true : (raw === 'false' ? false : raw);
	}

	return filter;
}

const pad = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

function renderPage(page: Page): string {
	const fields: Field[] = shortFields(page.schema).slice(0, 6);
	const widths = fields.map(field => (field.key === 'title' ? 48 : 14));
	const header = ['id'.padEnd(13), 'v'.padEnd(3), ...fields.map((field, index) => pad(field.label, widths[index]!))].join(' ');
	const rows = page.items.map(item => [item.id, String(item.version).padEnd(3), ...fields.map((field, index) => {
		// A value no option matches is shown raw and marked, never as a label.
		const text = formatValue(field, item.preview[field.key]).map(segment => (segment.raw ? `?${segment.text}` : segment.text)).join('');
		return pad(text, widths[index]!);
	})].join(' '));
	const next = page.next_before_id ? `next page: --before ${page.next_before_id}` : 'end of channel';
	return [header, ...rows, `${page.items.length} items; ${next}`].join('\n');
}

const command: Command = async context => withStore(context, store => {
	const channelId = channelOf(store, context);
	const page = store.listPage(channelId, {
		beforeId: context.flags.before,
		limit: wholeNumber(context.flags.limit, '--limit', 1),
		filter: parseFilters(context.flags.filter),
	});
	output(context, page, () => renderPage(page));
	return 0;
});

export default command;
