import {Box, Text} from '#ink';
import {BINDINGS, SCOPE_TITLES, type Scope} from '../keys.js';
import {fit} from '../width.js';

const ORDER: Scope[] = ['list', 'picker', 'text', 'queue', 'history', 'confirm'];

/** Every key, straight from the key table, in columns when the screen is wide enough. */
export function Help({width, height}: {width: number; height: number}) {
	const lines: Array<{key: string; text: string; bold?: boolean}> = [];
	for (const scope of ORDER) {
		lines.push({key: `${scope}-title`, text: SCOPE_TITLES[scope], bold: true});
		for (const binding of BINDINGS.filter(candidate => candidate.scope === scope)) {
			lines.push({key: `${scope}-${binding.action}`, text: `  ${fit(binding.label, 7)} ${binding.description}`});
		}
	}

	const room = Math.max(1, height - 1);
	const columnCount = Math.min(3, Math.max(1, Math.ceil(lines.length / room)));
	const columnWidth = Math.floor(width / columnCount);
	const columns = Array.from({length: columnCount}, (_, index) => lines.slice(index * room, (index + 1) * room));
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold>Keys — Esc or ? closes</Text>
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
