import {Box, Text} from '#ink';
import type {View} from '../../config/schema.js';
import {sanitize} from '../../text/sanitize.js';
import {thousands} from '../../text/format.js';
import {sortLabel} from '../model/views.js';
import {cellWidth} from '../width.js';
import {useTheme} from '../theme.js';

export type TabsProps = {
	width: number;
	views: View[];
	/** The active view's name, if the list shows one. */
	active: string | undefined;
	/** Match counts by view name; a view not counted yet shows none. */
	counts: ReadonlyMap<string, number>;
	sort: string | undefined;
};


/** Marks that tabs before the first one shown were left out. */
export const TABS_CUT = '‹ ';

/**
 * The first tab to draw so that the active one fits in `width` cells: 0 when it fits as it is,
 * else the fewest tabs left out in front (a marker takes their place). A tab bar longer than the
 * terminal would otherwise hide the very view the list shows.
 */
export function firstTabShown(labelWidths: readonly number[], active: number, width: number): number {
	if (active < 0) return 0;
	const end = (from: number) => labelWidths.slice(from, active + 1).reduce((sum, each) => sum + each, from > 0 ? TABS_CUT.length : 0);
	let first = 0;
	while (first < active && end(first) > width) first++;
	return first;
}

/** The header's second line: the views as tabs (key, name, match count), then the list's order. */
export function Tabs({width, views, active, counts, sort}: TabsProps) {
	const theme = useTheme();
	const labels = views.map((view, index) => {
		const count = counts.get(view.name);
		return ` ${index < 9 ? `${index + 1} ` : ''}${sanitize(view.name)}${count === undefined ? '' : ` ${thousands(count)}`} `;
	});
	const first = firstTabShown(labels.map(label => cellWidth(label)), views.findIndex(view => view.name === active), width);
	return (
		<Box width={width} height={1}>
			<Text wrap="truncate-end">
				{first > 0 ? <Text dimColor>{TABS_CUT}</Text> : null}
				{views.slice(first).map((view, index) => {
					const label = labels[first + index]!;
					return view.name === active
						? <Text key={view.name} inverse bold color={theme.color('cyan')}>{label}</Text>
						: <Text key={view.name} dimColor>{label}</Text>;
				})}
				<Text dimColor>{views.length > 0 ? ' · ' : ''}{sanitize(sortLabel(sort))}</Text>
			</Text>
		</Box>
	);
}
