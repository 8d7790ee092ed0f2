// Markdown (a bug body, a description) as styled terminal lines, wrapped to a width in cells.
// The kept library `marked` only lexes; this module decides how each token reads on a terminal
// (docs/reference.md, "Reading a record"). Untrusted: the text is sanitized before it is lexed
// and every span again after entities are decoded, so no escape sequence reaches the terminal.

import type {Token, Tokens} from 'marked';
import {sanitize} from '../text/sanitize.js';
import {cellWidth} from './width.js';
import {cutLine, mergeSpans, prefixLines, wrapSpans, type Span, type SpanStyle, type StyledLine} from './spans.js';

/** How code (spans and blocks) is told apart from prose. */
const CODE: SpanStyle = {color: 'yellow'};
const LINK: SpanStyle = {color: 'cyan', underline: true};
const QUOTE_BAR: Span = {text: '│ ', dim: true};

let lex: ((text: string) => Token[]) | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the lexer once. The first frame does not wait for it (the app's start time is mostly
 * module loading); until it is in, long text is drawn as plain wrapped lines.
 */
export function loadMarkdown(): Promise<void> {
	loading ??= import('marked').then(({Lexer}) => {
		lex = text => new Lexer({gfm: true}).lex(text);
	});
	return loading;
}

/** Whether markdown is drawn yet (loadMarkdown has finished). */
export const markdownReady = () => lex !== undefined;

const ENTITIES: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: ' ', '#39': '\''};

/** HTML entities as the characters they stand for (marked leaves them in the text it lexes). */
function decodeEntities(text: string): string {
	return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
		const lower = name.toLowerCase();
		if (lower.startsWith('#x') || lower.startsWith('#')) {
			const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
			return Number.isFinite(code) && code > 0 && code <= 0x10_ffff ? String.fromCodePoint(code) : whole;
		}

		return ENTITIES[lower] ?? whole;
	});
}

/** Text from the source as a span: entities decoded, then made inert. */
const textSpan = (text: string, style: SpanStyle): Span => ({...style, text: sanitize(decodeEntities(text), {multiline: true})});

/** Inline tokens as spans, each with the style of what encloses it. */
function inline(tokens: Token[] | undefined, style: SpanStyle): Span[] {
	const spans: Span[] = [];
	for (const token of tokens ?? []) {
		switch (token.type) {
			case 'strong': {
				spans.push(...inline(token.tokens, {...style, bold: true}));
				break;
			}

			case 'em': {
				spans.push(...inline(token.tokens, {...style, italic: true}));
				break;
			}

			case 'del': {
				spans.push(...inline(token.tokens, {...style, strikethrough: true}));
				break;
			}

			case 'codespan': {
				// Code spans keep their text as written (marked does not decode inside them).
				spans.push({...style, ...CODE, text: sanitize(token.text)});
				break;
			}

			case 'br': {
				spans.push({text: '\n'});
				break;
			}

			case 'link': {
				const link = token as Tokens.Link;
				const label = inline(link.tokens, {...style, ...LINK});
				const labelText = label.map(span => span.text).join('');
				spans.push(...label);
				// The address is shown after its text (a terminal cannot follow a hidden link), once.
				if (labelText !== sanitize(link.href) && `mailto:${labelText}` !== link.href) spans.push({...style, dim: true, text: ` <${sanitize(link.href)}>`});
				break;
			}

			case 'image': {
				const image = token as Tokens.Image;
				spans.push({...style, dim: true, text: `[image: ${sanitize(decodeEntities(image.text))}] <${sanitize(image.href)}>`});
				break;
			}

			case 'html': {
				spans.push(textSpan(token.text, {...style, dim: true}));
				break;
			}

			case 'escape': {
				spans.push(textSpan(token.text, style));
				break;
			}

			default: {
				// text (tight list items nest their inline tokens in it) and anything new.
				if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0) spans.push(...inline(token.tokens, style));
				else spans.push(textSpan(String((token as {text?: unknown}).text ?? token.raw), style));
			}
		}
	}

	return spans;
}

/** Line breaks as spaces (headings and table cells are one line). */
const softBreaks = (spans: Span[]): Span[] => spans.map(span => ({...span, text: span.text.replaceAll('\n', ' ')}));

function listLines(list: Tokens.List, width: number): StyledLine[] {
	const start = typeof list.start === 'number' ? list.start : 1;
	const bullets = list.items.map((item, index) => {
		const mark = list.ordered ? `${start + index}.` : '•';
		return item.task ? `${mark} [${item.checked ? 'x' : ' '}] ` : `${mark} `;
	});
	// Numbers line up (9. and 10.); a bullet's text starts after its own bullet.
	const widest = Math.max(...bullets.map(bullet => cellWidth(bullet)));
	const lines: StyledLine[] = [];
	for (const [index, item] of list.items.entries()) {
		const bullet = bullets[index]!;
		const indent = list.ordered ? widest : cellWidth(bullet);
		// marked gives a task its checkbox as a token of its own; the bullet already shows it.
		const body = blocks(item.tokens.filter(token => token.type !== 'checkbox'), width - indent, list.loose);
		lines.push(...prefixLines(body.length > 0 ? body : [[]], [{text: bullet + ' '.repeat(indent - cellWidth(bullet)), dim: !list.ordered}], [{text: ' '.repeat(indent)}]));
		if (list.loose && index < list.items.length - 1) lines.push([]);
	}

	return lines;
}

function tableLines(table: Tokens.Table, width: number): StyledLine[] {
	const cell = (entry: Tokens.TableCell, header: boolean) => mergeSpans(softBreaks(inline(entry.tokens, header ? {bold: true} : {})));
	const head = table.header.map(entry => cell(entry, true));
	const rows = table.rows.map(row => row.map(entry => cell(entry, false)));
	const count = head.length;
	const natural = Array.from({length: count}, (_, column) => Math.max(1, ...[head, ...rows].map(row => (row[column] ? row[column].reduce((sum, span) => sum + cellWidth(span.text), 0) : 0))));
	// Columns share what the width leaves after the ` │ ` separators; the widest give way first.
	const room = Math.max(count, width - (count - 1) * 3);
	const widths = [...natural];
	while (widths.reduce((sum, w) => sum + w, 0) > room) {
		const widest = widths.indexOf(Math.max(...widths));
		if (widths[widest]! <= 1) break;
		widths[widest]! -= 1;
	}

	const render = (row: StyledLine[]) => {
		const out: StyledLine = [];
		for (let column = 0; column < count; column++) {
			if (column > 0) out.push({text: ' │ ', dim: true});
			const content = cutLine(row[column] ?? [], widths[column]!);
			const pad = widths[column]! - content.reduce((sum, span) => sum + cellWidth(span.text), 0);
			out.push(...content, {text: ' '.repeat(Math.max(0, pad))});
		}

		return mergeSpans(out);
	};

	const rule: StyledLine = [{text: widths.map(w => '─'.repeat(w)).join('─┼─'), dim: true}];
	return [render(head), rule, ...rows.map(row => render(row))];
}

/** One block token as lines of at most `width` cells. */
function block(token: Token, width: number): StyledLine[] {
	switch (token.type) {
		case 'heading': {
			const heading = token as Tokens.Heading;
			return wrapSpans(softBreaks(inline(heading.tokens, {bold: true, underline: heading.depth <= 2})), width);
		}

		case 'paragraph': {
			// A line break in the source stays one, as GitHub shows issue bodies: plain-text bodies keep their lines.
			return wrapSpans(inline(token.tokens, {}), width);
		}

		case 'text': {
			// A tight list item's text: its inline tokens.
			return wrapSpans('tokens' in token && token.tokens ? inline(token.tokens, {}) : [textSpan(token.text, {})], width);
		}

		case 'code': {
			const code = token as Tokens.Code;
			const lines = sanitize(code.text, {multiline: true}).split('\n');
			const label: StyledLine[] = code.lang ? [[{text: sanitize(code.lang), dim: true}]] : [];
			return [...label, ...lines.flatMap(line => prefixLines(wrapSpans([{...CODE, text: line}], width - 2, {keepSpaces: true}), [{text: '  '}]))];
		}

		case 'blockquote': {
			const quote = token as Tokens.Blockquote;
			return prefixLines(blocks(quote.tokens, width - 2, true), [QUOTE_BAR]).map(line => line.map(span => ({...span, dim: true})));
		}

		case 'list': {
			return listLines(token as Tokens.List, width);
		}

		case 'table': {
			return tableLines(token as Tokens.Table, width);
		}

		case 'hr': {
			return [[{text: '─'.repeat(Math.max(1, width)), dim: true}]];
		}

		case 'html': {
			return wrapSpans([textSpan(token.text.replace(/\n+$/, ''), {dim: true})], width);
		}

		case 'space':
		case 'def': {
			return [];
		}

		default: {
			return wrapSpans([textSpan(token.raw, {})], width);
		}
	}
}

/** Block tokens as lines; `spaced`: a blank line between blocks (else only where the source had one). */
function blocks(tokens: Token[], width: number, spaced: boolean): StyledLine[] {
	const room = Math.max(1, width);
	const lines: StyledLine[] = [];
	for (const token of tokens) {
		const rendered = block(token, room);
		if (rendered.length === 0) continue;
		if (lines.length > 0 && spaced) lines.push([]);
		lines.push(...rendered);
	}

	return lines;
}

/**
 * Markdown text as styled lines, none wider than `width` cells: headings bold, emphasis, code in
 * its own color, lists with bullets, quotes behind a bar, links as their text and address, tables
 * with aligned columns. Any text is accepted: what is not markdown reads as paragraphs. Before
 * loadMarkdown() has finished, the text as plain wrapped lines.
 */
export function markdownLines(text: string, width: number): StyledLine[] {
	const safe = sanitize(text, {multiline: true});
	let tokens: Token[];
	try {
		if (!lex) throw new Error('the markdown lexer is not loaded yet');
		tokens = lex(safe);
	} catch {
		return wrapSpans([{text: safe}], width).map(line => cutLine(line, Math.max(1, width)));
	}

	return blocks(tokens, width, true).map(line => cutLine(line, Math.max(1, width)));
}
