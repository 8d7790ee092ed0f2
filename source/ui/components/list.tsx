import {Box, Text} from '#ink';
import {memo} from 'react';
import {formatValue, type RelationNames} from '../../text/format.js';
import type {Column} from '../format.js';
import {isOverdue, OVERDUE_STYLE, today as todayOf} from '../overdue.js';
import {sanitize} from '../../text/sanitize.js';
import {cutLine, padLine, type StyledLine} from '../spans.js';
import {styledText} from './styled-text.js';
import {syncMarkOf, type SyncMarks} from '../sync-marks.js';
import {useTheme} from '../theme.js';
import type {Row} from '../window.js';
import {fit, truncate} from '../width.js';

export type ListProps = {
	rows: Row[];
	columns: Column[];
	/** First row shown. */
	top: number;
	cursor: number;
	height: number;
	width: number;
	marks: ReadonlySet<string>;
	/** Rows that changed live a moment ago. */
	changed: ReadonlySet<string>;
	/** A synced channel's unsent and conflicted records (sync-marks.ts), marked in the gutter. */
	sync?: SyncMarks | null;
	empty: string;
	/** Today (YYYY-MM-DD), for overdue dates; the clock's day unless given. */
	today?: string;
	/** Related records' names (a duplicate_of by its target's ticket). */
	names?: RelationNames;
};

const GUTTER = 2;
/** Cut marker inside rows: ASCII keeps rows on Ink's fast width path (see width.ts). */
const CUT = '~';

/**
 * One cell: the value's segments in exactly `width` cells, ending in the cut marker when any of
 * it (a second value of a multi-select, say) did not fit. Late dates in the overdue style.
 */
export function cellLine(column: Column, value: unknown, today: string, names?: RelationNames): StyledLine {
	const late = isOverdue(column.field, value, today);
	const line: StyledLine = formatValue(column.field, value, names).map(segment => (segment.raw
		? {text: segment.text, dim: true}
		: {text: segment.text, color: segment.color, ...(late ? OVERDUE_STYLE : {})}));
	return padLine(line, column.width, CUT);
}

type SyncMark = ReturnType<typeof syncMarkOf>;

/** The gutter's second cell: an open sync conflict (`!`), else changed just now (`•`), else a change not yet sent to the tracker (`↑`). */
function gutterMark(changed: boolean, sync: SyncMark): StyledLine[number] {
	if (sync === 'conflict') return {text: '!', color: 'red'};
	if (changed) return {text: '•'};
	return sync === 'unpushed' ? {text: '↑', color: 'cyan'} : {text: ' '};
}

/** A row as one line: the gutter (mark; conflict, changed or unpushed), then its cells, cut to `width` cells. */
export function rowLine(row: Row, columns: Column[], marked: boolean, changed: boolean, width: number, today: string, sync: SyncMark = null, names?: RelationNames): StyledLine {
	const line: StyledLine = [{text: marked ? '●' : ' ', color: marked ? 'yellow' : undefined}, gutterMark(changed, sync)];
	for (const [index, column] of columns.entries()) {
		if (index > 0) line.push({text: ' '});
		line.push(...cellLine(column, row.preview[column.field.key], today, names));
	}

	// Cells are padded to their columns, so the row's width is known without measuring it.
	const used = GUTTER + columns.reduce((sum, column) => sum + column.width, 0) + Math.max(0, columns.length - 1);
	return used <= width ? line : cutLine(line, width, CUT);
}

const ListRow = memo(function ListRow({row, columns, selected, marked, changed, sync, width, today, names}: {row: Row; columns: Column[]; selected: boolean; marked: boolean; changed: boolean; sync: SyncMark; width: number; today: string; names?: RelationNames}) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end" inverse={selected} strikethrough={row.deleted} dimColor={row.deleted}>
			{styledText(rowLine(row, columns, marked, changed, width, today, sync, names), theme)}
		</Text>
	);
});

/** The list: a header line of column labels, then one line per row of the viewport. */
export function List(props: ListProps) {
	const visible = props.rows.slice(props.top, props.top + Math.max(0, props.height - 1));
	const labels = props.columns.map(column => fit(sanitize(column.field.label), column.width, CUT)).join(' ');
	const today = props.today ?? todayOf();
	return (
		<Box flexDirection="column" width={props.width} height={props.height}>
			<Text bold wrap="truncate-end">{truncate(' '.repeat(GUTTER) + labels, props.width, CUT)}</Text>
			{props.rows.length === 0 ? <Text dimColor wrap="truncate-end">{truncate(props.empty, props.width)}</Text> : null}
			{visible.map((row, index) => (
				<ListRow
					key={row.id}
					row={row}
					columns={props.columns}
					selected={props.top + index === props.cursor}
					marked={props.marks.has(row.id)}
					changed={props.changed.has(row.id)}
					sync={syncMarkOf(props.sync ?? null, row.id)}
					width={props.width}
					today={today}
					names={props.names}
				/>
			))}
		</Box>
	);
}

export const LIST_GUTTER = GUTTER;
