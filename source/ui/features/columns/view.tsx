// `|`: the column chooser, in the pane: each field checked when the view shows it, the cursor's
// row marked, the shown ones in the order the list draws them.

import {Box, Text} from '#ink';
import {sanitize} from '../../../text/sanitize.js';
import type {FeatureView} from '../feature.js';
import type {ColumnEntry} from './slice.js';

export type ColumnChooserProps = {view: string; entries: readonly ColumnEntry[]; cursor: number; width: number; height: number};

/** The fields of the view, checked when shown; the window scrolls to keep the cursor in sight. */
export function ColumnChooser({view, entries, cursor, width, height}: ColumnChooserProps) {
	const room = Math.max(1, height - 2);
	const from = Math.min(Math.max(0, cursor - room + 1), Math.max(0, entries.length - room));
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`Columns of ${sanitize(view)}`}</Text>
			<Text dimColor wrap="truncate-end">Space show/hide · J/K move · Enter keep · Esc cancel</Text>
			{entries.slice(from, from + room).map((entry, index) => (
				<Text key={entry.key} inverse={from + index === cursor} wrap="truncate-end">{`${entry.shown ? '[x]' : '[ ]'} ${sanitize(entry.label)} (${entry.key})`}</Text>
			))}
		</Box>
	);
}

/** The chooser takes the pane beside the list, so the columns it changes stay in sight. */
export const COLUMNS_VIEW = {
	place: 'pane',
	render: (overlay, {layout}) => <ColumnChooser view={overlay.view} entries={overlay.entries} cursor={overlay.cursor} width={layout.paneWidth} height={layout.paneHeight}/>,
} satisfies FeatureView<'columns'>;
