import {Box, Text} from '#ink';
import type {View} from '../../config/schema.js';
import {sanitize} from '../../text/sanitize.js';
import {sortLabel} from '../model/views.js';
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

const n = (value: number) => value.toLocaleString('en-US');

/** The header's second line: the views as tabs (key, name, match count), then the list's order. */
export function Tabs({width, views, active, counts, sort}: TabsProps) {
	const theme = useTheme();
	return (
		<Box width={width} height={1}>
			<Text wrap="truncate-end">
				{views.map((view, index) => {
					const count = counts.get(view.name);
					const label = ` ${index < 9 ? `${index + 1} ` : ''}${sanitize(view.name)}${count === undefined ? '' : ` ${n(count)}`} `;
					return view.name === active
						? <Text key={view.name} inverse bold color={theme.color('cyan')}>{label}</Text>
						: <Text key={view.name} dimColor>{label}</Text>;
				})}
				<Text dimColor>{views.length > 0 ? ' · ' : ''}{sanitize(sortLabel(sort))}</Text>
			</Text>
		</Box>
	);
}
