// A styled line drawn as one <Text> of pre-styled text (source/ui/components/styled-text.ts) is the frame
// Ink draws for the same line as a <Text> per span, byte for byte: every style, theme colours
// (named and #rrggbb), NO_COLOR's theme, every chalk colour level, empty spans, wide text.

import chalk from 'chalk';
import {renderToString, Text} from '#ink';
import {afterEach, describe, expect, it} from 'vitest';
import type {StyledLine} from '../../source/ui/spans.js';
import {styledText} from '../../source/ui/components/styled-text.js';
import {makeTheme, type Theme} from '../../source/ui/theme.js';

const savedLevel = chalk.level;
afterEach(() => {
	chalk.level = savedLevel;
});

/** The line as the app drew it before: a <Text> per span inside the line's <Text>. */
const perSpan = (line: StyledLine, theme: Theme, inverse: boolean) => (
	<Text wrap="truncate-end" inverse={inverse}>
		{line.map((span, index) => (
			<Text key={index} bold={span.bold} italic={span.italic} underline={span.underline} strikethrough={span.strikethrough} dimColor={span.dim} inverse={span.inverse} color={theme.color(span.color)}>{span.text}</Text>
		))}
	</Text>
);

function randomLines(count: number): StyledLine[] {
	let seed = 5;
	const random = (below: number) => {
		seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
		return seed % below;
	};

	const texts = ['BUG-0042', ' ', 'Login form ignores retries', '', '日本語', '●', '~', 'olu@example.org', '2026-12-01', '  339', 'a\u001B[31mb', '👩‍💻'];
	const colors = [undefined, 'yellow', 'cyan', 'gray', 'redBright', '#ff8800', 'not-a-colour'];
	const flag = () => random(4) === 0;
	return Array.from({length: count}, () => Array.from({length: random(9)}, () => ({
		text: texts[random(texts.length)]!, color: colors[random(colors.length)], bold: flag(), italic: flag(), underline: flag(), strikethrough: flag(), dim: flag(), inverse: flag(),
	})));
}

describe('styledText', () => {
	it('draws what a <Text> per span draws, at every colour level, in colour and without', () => {
		const lines = randomLines(400);
		for (const level of [0, 1, 2, 3] as const) {
			chalk.level = level;
			for (const theme of [makeTheme({}), makeTheme({NO_COLOR: '1'}), makeTheme({}, {mono: true})]) {
				for (const [index, line] of lines.entries()) {
					const inverse = index % 3 === 0;
					const drawn = renderToString(<Text wrap="truncate-end" inverse={inverse}>{styledText(line, theme)}</Text>, {columns: 80});
					expect(drawn).toBe(renderToString(perSpan(line, theme, inverse), {columns: 80}));
				}
			}
		}

		chalk.level = 3;
		expect(renderToString(<Text>{styledText([{text: 'late', color: 'red', bold: true}], makeTheme({}))}</Text>)).toContain('\u001B[');
	});
});
