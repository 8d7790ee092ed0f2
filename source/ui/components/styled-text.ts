// A styled line (spans.ts) as one string for one Ink <Text>: each span styled exactly as Ink's
// <Text bold dimColor color …> styles its text (the same chalk calls, in the order Ink applies
// them), so the frame is the same, byte for byte. A row drawn as a <Text> per span made a
// component, a fiber and a text node per span: ~1,500 of each for the first frame of a 200×60
// list, a fifth of the start (docs/architecture.md#start-up).

import chalk, {type ForegroundColorName} from 'chalk';
import type {Span, StyledLine} from '../spans.js';
import type {Theme} from '../theme.js';

/** A span's text as Ink's Text styles it; `color` is the theme's (a chalk color name or #rrggbb). */
function styledSpan(span: Span, color: string | undefined): string {
	let text = span.text;
	if (span.dim) text = chalk.dim(text);
	if (color) text = color.startsWith('#') ? chalk.hex(color)(text) : chalk[color as ForegroundColorName](text);
	if (span.bold) text = chalk.bold(text);
	if (span.italic) text = chalk.italic(text);
	if (span.underline) text = chalk.underline(text);
	if (span.strikethrough) text = chalk.strikethrough(text);
	if (span.inverse) text = chalk.inverse(text);
	return text;
}

/** The line's spans styled and joined; Ink leaves an empty child unstyled, and so does this. */
export const styledText = (line: StyledLine, theme: Theme): string => line.map(span => (span.text.length === 0 ? '' : styledSpan(span, theme.color(span.color)))).join('');
