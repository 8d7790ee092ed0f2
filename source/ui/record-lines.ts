// The record pane's content as styled lines: the record's head, each short field on a line of its
// own (label, follow-up flag, value), then each long text rendered as markdown, then the tracker's
// comments pulled by sync (read-only: author, date, body as markdown). Pure and cut to the pane's
// width, so the pane draws exactly these lines and the scroll math (record-scroll.ts) counts the
// same ones.

import type {Field, Item} from '../../store/index.js';
import {formatValue, type RelationNames} from '../text/format.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {markdownLines, markdownReady} from './markdown.js';
import {isOverdue, OVERDUE_STYLE} from './overdue.js';
import {cutLine, prefixLines, wrapSpans, type StyledLine} from './spans.js';
import type {DetailComments} from './state.js';
import {fit} from './width.js';

export type RecordView = {
	fields: Field[];
	item: Item;
	/** Keys with an open follow-up on this record. */
	flagged: ReadonlySet<string>;
	/** The pane's width in cells. */
	width: number;
	/** Today (YYYY-MM-DD): dates before it are overdue. */
	today: string;
	/** Related records' names (a duplicate_of shows its target's ticket). */
	names?: RelationNames;
	/** The tracker's comments on the record (absent: not read yet, or none to show). */
	comments?: DetailComments;
};

/** Long text and JSON go after the short fields, each under its label. */
const isLong = (field: Field) => Boolean(field.config.long) || field.type === 'json';

function valueLine(field: Field, value: unknown, today: string, names?: RelationNames): StyledLine {
	const segments = formatValue(field, value, names);
	if (segments.length === 0) return [{text: '—', dim: true}];
	const late = isOverdue(field, value, today);
	const line: StyledLine = segments.map(segment => (segment.raw ? {text: segment.text, dim: true} : {text: segment.text, color: segment.color, ...(late ? OVERDUE_STYLE : {})}));
	if (late) line.push({text: ' overdue', ...OVERDUE_STYLE});
	if (field.type === 'formula') line.push({text: ' (computed)', dim: true});
	return line;
}

function build(view: RecordView): StyledLine[] {
	const {fields, item, flagged, width, today, names} = view;
	const labelWidth = Math.min(14, Math.max(0, ...fields.map(field => field.label.length)) + 1);
	const lines: StyledLine[] = [[{text: `${sanitize(item.id)} · v${item.version} · updated ${sanitize(item.updated_at.slice(0, 19).replace('T', ' '))}`, bold: true}]];
	const ordered = [...fields.filter(field => !isLong(field)), ...fields.filter(field => isLong(field))];
	for (const field of ordered) {
		const value = item.values[field.key];
		const label = {text: fit(sanitize(field.label), labelWidth), dim: true};
		const flag = flagged.has(field.key) ? {text: '⚑', color: 'yellow'} : {text: ' '};
		if (!isLong(field)) {
			lines.push([label, flag, ...valueLine(field, value, today, names)]);
			continue;
		}

		lines.push([label, flag]);
		const body = field.type === 'json'
			? wrapSpans([{text: sanitizeValue(value)}], width - 2)
			: markdownLines(typeof value === 'string' ? value : sanitizeValue(value, {multiline: true}), width - 2);
		lines.push(...prefixLines(body, [{text: '  '}]));
	}

	lines.push(...commentLines(view.comments, width));
	return lines.map(line => cutLine(line, width));
}

/** "Comments (N)" under the fields, each comment's author and time, then its body as markdown; nothing when there are none. */
function commentLines(comments: DetailComments | undefined, width: number): StyledLine[] {
	if (!comments) return [];
	if ('error' in comments) return [[], [{text: `Comments could not be read: ${sanitize(comments.error)}`, dim: true}]];
	if (comments.total === 0) return [];
	const shown = comments.comments.length;
	const head = shown < comments.total ? `Comments (${comments.total}, the newest ${shown} shown)` : `Comments (${comments.total})`;
	const lines: StyledLine[] = [[], [{text: head, bold: true}]];
	for (const comment of comments.comments) {
		const when = sanitize(comment.created_at.slice(0, 16).replace('T', ' '));
		lines.push([{text: sanitize(comment.author ?? 'unknown'), color: 'cyan'}, {text: ` · ${when}`, dim: true}]);
		lines.push(...prefixLines(markdownLines(comment.body, width - 2), [{text: '  '}]));
	}

	return lines;
}

/** A build, and whether its long text was drawn as markdown (the lexer loads after the first frame). */
type Built = {view: RecordView; markdown: boolean; lines: StyledLine[]};

/** The last builds of each item: the pane draws one, the scroll math counts another (record-scroll.ts). */
const cache = new WeakMap<Item, Built[]>();
const KEPT_BUILDS = 2;

const sameView = (a: RecordView, b: RecordView) => a.fields === b.fields && a.flagged === b.flagged && a.width === b.width && a.today === b.today && a.names === b.names && a.comments === b.comments;

/** Every line of the record pane, at most `width` cells each (built once per item and view). */
export function recordLines(view: RecordView): StyledLine[] {
	const builds = cache.get(view.item) ?? [];
	const markdown = markdownReady();
	const hit = builds.find(built => built.markdown === markdown && sameView(built.view, view));
	if (hit) return hit.lines;
	const lines = build({...view, width: Math.max(4, view.width)});
	cache.set(view.item, [{view, markdown, lines}, ...builds].slice(0, KEPT_BUILDS));
	return lines;
}
