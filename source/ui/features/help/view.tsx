// The help screen: every binding, in columns when the screen is wide enough, scrolled.

import {Box, Text} from '#ink';
import {helpLayout, type HelpLine, type HelpLinesOf} from '../../help-lines.js';
import {fit} from '../../width.js';
import type {FeatureView} from '../feature.js';

/**
 * Blank cells between two columns of the help. A column but the last is padded to its width and
 * ends in them, written out, so the next column starts where it should and a cut line never runs into it.
 */
const COLUMN_GAP = 2;

/** The help: in columns when the screen is wide enough, scrolled by `scroll` lines when it does not fit. */
export function Help({width, height, scroll = 0, lines}: {width: number; height: number; scroll?: number; lines: HelpLine[]}) {
	const {columns: columnCount, room, maxScroll} = helpLayout(width, height, lines.length);
	const from = Math.min(Math.max(0, scroll), maxScroll);
	const shown = lines.slice(from, from + columnCount * room);
	const columnWidth = Math.floor(width / columnCount);
	const columns = Array.from({length: columnCount}, (_, index) => shown.slice(index * room, (index + 1) * room));
	const where = maxScroll > 0 ? ` · lines ${from + 1}–${from + shown.length} of ${lines.length}, j/k scroll` : '';
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`Keys — Esc or ? closes${where}`}</Text>
			<Box flexDirection="row">
				{columns.map((column, index) => (
					<Box key={index} flexDirection="column" width={columnWidth}>
						{column.map(line => <Text key={line.key} bold={line.bold} wrap="truncate-end">{index < columnCount - 1 ? `${fit(line.text, columnWidth - COLUMN_GAP)}${' '.repeat(COLUMN_GAP)}` : line.text}</Text>)}
					</Box>
				))}
			</Box>
		</Box>
	);
}

/** `?` takes the body: every binding's line, with this channel's field hotkeys. */
export const helpView = (helpLinesOf: HelpLinesOf): FeatureView<'help'> => ({
	place: 'body',
	render: (overlay, {state, layout}) => <Help width={layout.columns} height={layout.bodyHeight} scroll={overlay.scroll} lines={helpLinesOf(state)}/>,
});
