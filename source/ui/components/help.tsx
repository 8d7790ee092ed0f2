import {Box, Text} from '#ink';
import {BINDINGS, SCOPE_TITLES, type Binding, type Scope} from '../keys.js';
import {fit} from '../width.js';

const ORDER: Scope[] = ['list', 'picker', 'text', 'queue', 'history', 'help', 'confirm'];
/** A help column is at least this wide, so descriptions are not cut (one column at 80). */
const COLUMN_MIN = 64;

type Line = {key: string; text: string; bold?: boolean};

/** Every key, straight from the key table, one line each under its scope's title. */
export const HELP_LINES: Line[] = ORDER.flatMap(scope => [
	{key: `${scope}-title`, text: SCOPE_TITLES[scope], bold: true},
	...(BINDINGS as readonly Binding[]).filter(binding => binding.scope === scope).map(binding => ({key: `${scope}-${binding.action}`, text: `  ${fit(binding.label, 7)} ${binding.description}`})),
]);

/** How the help fits a body of this size: columns, lines per column, and the furthest scroll. */
export function helpLayout(width: number, height: number): {columns: number; room: number; maxScroll: number} {
	const room = Math.max(1, height - 1);
	const columns = Math.min(3, Math.max(1, Math.floor(width / COLUMN_MIN)), Math.ceil(HELP_LINES.length / room));
	return {columns, room, maxScroll: Math.max(0, HELP_LINES.length - columns * room)};
}

/** The help: in columns when the screen is wide enough, scrolled by `scroll` lines when it does not fit. */
export function Help({width, height, scroll = 0}: {width: number; height: number; scroll?: number}) {
	const {columns: columnCount, room, maxScroll} = helpLayout(width, height);
	const from = Math.min(Math.max(0, scroll), maxScroll);
	const shown = HELP_LINES.slice(from, from + columnCount * room);
	const columnWidth = Math.floor(width / columnCount);
	const columns = Array.from({length: columnCount}, (_, index) => shown.slice(index * room, (index + 1) * room));
	const where = maxScroll > 0 ? ` · lines ${from + 1}–${from + shown.length} of ${HELP_LINES.length}, j/k scroll` : '';
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`Keys — Esc or ? closes${where}`}</Text>
			<Box flexDirection="row">
				{columns.map((column, index) => (
					<Box key={index} flexDirection="column" width={columnWidth}>
						{column.map(line => <Text key={line.key} bold={line.bold} wrap="truncate-end">{line.text}</Text>)}
					</Box>
				))}
			</Box>
		</Box>
	);
}
