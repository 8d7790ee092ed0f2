// `C`: the sync conflicts, each its record, its field and three values: base (the last both sides
// agreed on), ours and theirs. The chosen one shows them in full; tracker text is sanitised.

import {Box, Text} from '#ink';
import type {Field} from '../../../../store/index.js';
import {sanitize, sanitizeValue} from '../../../text/sanitize.js';
import {TextField} from '../../components/text-field.js';
import type {TextState} from '../../text-input.js';
import {useTheme} from '../../theme.js';
import type {FeatureView} from '../feature.js';
import type {ConflictRow} from './slice.js';

/** A value as one line: empty said, a set's elements by commas, text as it is; escaped for the terminal. */
export function shownValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	if (Array.isArray(value)) return value.length === 0 ? '(none)' : sanitizeValue(value.map(each => (typeof each === 'string' ? each : JSON.stringify(each))).join(', '));
	return sanitizeValue(typeof value === 'string' ? value : JSON.stringify(value));
}

export type ConflictsProps = {rows: ConflictRow[] | null; fields: Field[]; cursor: number; typing: TextState | null; problem: string | null; width: number; height: number};

/** Lines a conflict takes: its title line, and for the chosen one its base, ours and theirs. */
const CHOSEN_ROWS = 4;

export function SyncConflicts({rows, fields, cursor, typing, problem, width, height}: ConflictsProps) {
	const theme = useTheme();
	if (rows === null) return <Box width={width} height={height}><Text dimColor>Reading the sync conflicts…</Text></Box>;
	if (rows.length === 0) {
		return (
			<Box flexDirection="column" width={width} height={height}>
				<Text bold>Sync conflicts</Text>
				<Text color={theme.color('green')}>No open sync conflicts: both sides agree on every synced field.</Text>
				<Text dimColor>Esc closes.</Text>
			</Box>
		);
	}

	const below = (typing ? 2 : 0) + (problem ? 1 : 0);
	const room = Math.max(1, height - 1 - CHOSEN_ROWS + 1 - below);
	const start = Math.min(Math.max(0, cursor - Math.floor(room / 2)), Math.max(0, rows.length - room));
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate-end">{`Sync conflicts: ${rows.length} · o ours · t theirs · v type a value · Esc closes`}</Text>
			{rows.slice(start, start + room).map((row, index) => {
				const at = start + index;
				const {followUp} = row;
				const label = fields.find(field => field.key === followUp.key)?.label ?? followUp.key;
				const title = <Text key={followUp.id} inverse={at === cursor} wrap="truncate-end">{`${at === cursor ? '› ' : '  '}#${followUp.id} ${sanitize(row.name)} · ${sanitize(label)}`}</Text>;
				if (at !== cursor) return title;
				return (
					<Box key={followUp.id} flexDirection="column">
						{title}
						<Text wrap="truncate-end"><Text dimColor>{'    base:   '}</Text>{shownValue(followUp.base)}</Text>
						<Text wrap="truncate-end"><Text dimColor>{'    ours:   '}</Text><Text color={theme.color('cyan')}>{shownValue(followUp.ours)}</Text></Text>
						<Text wrap="truncate-end"><Text dimColor>{'    theirs: '}</Text><Text color={theme.color('yellow')}>{shownValue(followUp.theirs)}</Text></Text>
					</Box>
				);
			})}
			{typing ? <TextField label="Value: " state={typing} placeholder="type a value, Enter sets it on both sides"/> : null}
			{typing ? <Text dimColor>Enter writes it here and sends it to the tracker; Esc goes back.</Text> : null}
			{problem ? <Text color={theme.color('red')} wrap="truncate-end">{sanitize(problem)}</Text> : null}
		</Box>
	);
}

/** The sync conflicts take the body. */
export const SYNC_CONFLICTS_VIEW = {
	place: 'body',
	render: (overlay, {state, layout}) => <SyncConflicts rows={state.syncConflicts.rows} fields={state.fields} cursor={overlay.cursor} typing={overlay.typing} problem={overlay.problem} width={layout.columns} height={layout.bodyHeight}/>,
} satisfies FeatureView<'syncConflicts'>;
