// Styled text as data: a line is a list of spans, each a piece of text with its style. Wrapping
// and cutting count terminal cells (width.ts), so CJK and emoji take the two cells they draw in.
// Pure: the components turn spans into Ink <Text>, the tests read them as they are.

import {cellWidth, codeWidth} from './width.js';

export type SpanStyle = {
	bold?: boolean;
	italic?: boolean;
	underline?: boolean;
	strikethrough?: boolean;
	dim?: boolean;
	inverse?: boolean;
	/** A theme color name (theme.tsx decides whether and how it shows). */
	color?: string;
};

export type Span = SpanStyle & {text: string};
export type StyledLine = Span[];

/** A line's text without its styles. */
export const plainLine = (line: StyledLine) => line.map(span => span.text).join('');

/** A line's width in terminal cells. */
export const lineWidth = (line: StyledLine) => line.reduce((sum, span) => sum + cellWidth(span.text), 0);

const sameStyle = (a: SpanStyle, b: SpanStyle) => a.bold === b.bold && a.italic === b.italic && a.underline === b.underline
	&& a.strikethrough === b.strikethrough && a.dim === b.dim && a.inverse === b.inverse && a.color === b.color;

/** Adjacent spans of one style joined, empty ones dropped. */
export function mergeSpans(spans: StyledLine): StyledLine {
	const out: StyledLine = [];
	for (const span of spans) {
		if (span.text === '') continue;
		const last = out.at(-1);
		if (last && sameStyle(last, span)) out[out.length - 1] = {...last, text: last.text + span.text};
		else out.push(span);
	}

	return out;
}

/**
 * The line cut to at most `width` cells; when something was cut, the last cell is `marker`
 * (in the style of what it replaces). A wide character that would straddle the edge is dropped.
 */
export function cutLine(line: StyledLine, width: number, marker = '…'): StyledLine {
	if (lineWidth(line) <= width) return line;
	if (width <= 0) return [];
	const room = width - cellWidth(marker);
	const out: StyledLine = [];
	let used = 0;
	let lastStyle: SpanStyle = {};
	for (const span of line) {
		let text = '';
		for (const character of span.text) {
			const w = codeWidth(character.codePointAt(0)!);
			if (used + w > room) break;
			text += character;
			used += w;
		}

		lastStyle = span;
		if (text) out.push({...span, text});
		if (text.length < span.text.length) break;
	}

	const {text: _text, ...style} = lastStyle as Span;
	out.push({...style, text: marker});
	return mergeSpans(out);
}

/** The line padded with spaces to exactly `width` cells (cut first when wider). */
export function padLine(line: StyledLine, width: number, marker = '…'): StyledLine {
	const used = lineWidth(line);
	const cut = used > width ? cutLine(line, width, marker) : line;
	const left = width - (used > width ? lineWidth(cut) : used);
	return left > 0 ? [...cut, {text: ' '.repeat(left)}] : cut;
}

type Cell = {character: string; width: number; style: SpanStyle};

const toLine = (cells: Cell[]): StyledLine => mergeSpans(cells.map(cell => ({...cell.style, text: cell.character})));

/**
 * Spans wrapped to lines of at most `width` cells: at spaces where it can, mid-word where a word
 * is wider than the line (and anywhere in CJK text, which has no spaces). `\n` breaks a line.
 * `keepSpaces` (code): no word wrap, every space kept, lines cut hard at the width.
 */
export function wrapSpans(spans: StyledLine, width: number, options: {keepSpaces?: boolean} = {}): StyledLine[] {
	const room = Math.max(1, width);
	const lines: StyledLine[] = [];
	let cells: Cell[] = [];
	let used = 0;
	// Where the last space on the line is, so the line can break there.
	let lastSpace = -1;
	// The line began at a wrap (not at a `\n`): a space that lands at its start is dropped.
	let wrapped = false;
	const breakLine = (soft: boolean) => {
		lines.push(toLine(cells));
		cells = [];
		used = 0;
		lastSpace = -1;
		wrapped = soft;
	};

	for (const span of spans) {
		const {text, ...style} = span;
		for (const character of text) {
			if (character === '\n') {
				breakLine(false);
				continue;
			}

			const w = codeWidth(character.codePointAt(0)!);
			if (used + w > room) {
				if (!options.keepSpaces && character === ' ') {
					// A space at the edge: the line ends here, the space goes.
					breakLine(true);
					continue;
				}

				if (!options.keepSpaces && lastSpace >= 0) {
					const rest = cells.slice(lastSpace + 1);
					cells = cells.slice(0, lastSpace);
					breakLine(true);
					cells = rest;
					used = rest.reduce((sum, cell) => sum + cell.width, 0);
				} else {
					breakLine(true);
				}
			}

			if (!options.keepSpaces && wrapped && character === ' ' && cells.length === 0) continue;

			if (character === ' ') lastSpace = cells.length;
			cells.push({character, width: w, style});
			used += w;
		}
	}

	lines.push(toLine(cells));
	return lines;
}

/** Lines with `first` before the first and `rest` before every other (bullets, quote bars, indents). */
export function prefixLines(lines: StyledLine[], first: StyledLine, rest: StyledLine = first): StyledLine[] {
	return lines.map((line, index) => mergeSpans([...(index === 0 ? first : rest), ...line]));
}
