import {Box, Text} from '#ink';
import {memo} from 'react';
import {formatValue, type Segment} from '../../text/format.js';
import type {Column} from '../format.js';
import {sanitize} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';
import type {Row} from '../window.js';
import {cellWidth, fit, truncate} from '../width.js';

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
	empty: string;
};

const GUTTER = 2;
/** Cut marker inside rows: ASCII keeps rows on Ink's fast width path (see width.ts). */
const CUT = '~';

/** Segments cut to exactly `width` cells. */
function fitSegments(segments: Segment[], width: number): Segment[] {
	const out: Segment[] = [];
	let left = width;
	for (const segment of segments) {
		if (left <= 0) break;
		const w = cellWidth(segment.text);
		if (w <= left) {
			out.push(segment);
			left -= w;
		} else {
			out.push({...segment, text: truncate(segment.text, left, CUT)});
			left -= cellWidth(out.at(-1)!.text);
			break;
		}
	}

	if (left > 0) out.push({text: ' '.repeat(left)});
	return out;
}

const ListRow = memo(function ListRow({row, columns, selected, marked, changed}: {row: Row; columns: Column[]; selected: boolean; marked: boolean; changed: boolean}) {
	const theme = useTheme();
	const gutter = `${marked ? '●' : ' '}${changed ? '•' : ' '}`;
	return (
		<Text wrap="truncate-end" inverse={selected} strikethrough={row.deleted} dimColor={row.deleted}>
			<Text color={marked ? theme.color('yellow') : undefined}>{gutter}</Text>
			{columns.map((column, index) => {
				const segments = fitSegments(formatValue(column.field, row.preview[column.field.key]), column.width);
				return (
					<Text key={column.field.key}>
						{index > 0 ? ' ' : ''}
						{segments.map((segment, at) => (
							<Text key={at} color={segment.raw ? undefined : theme.color(segment.color)} dimColor={segment.raw}>{segment.text}</Text>
						))}
					</Text>
				);
			})}
		</Text>
	);
});

/** The list: a header line of column labels, then one line per row of the viewport. */
export function List(props: ListProps) {
	const visible = props.rows.slice(props.top, props.top + Math.max(0, props.height - 1));
	const labels = props.columns.map(column => fit(sanitize(column.field.label), column.width, CUT)).join(' ');
	return (
		<Box flexDirection="column" width={props.width} height={props.height}>
			<Text bold wrap="truncate-end">{' '.repeat(GUTTER)}{labels}</Text>
			{props.rows.length === 0 ? <Text dimColor>{props.empty}</Text> : null}
			{visible.map((row, index) => (
				<ListRow
					key={row.id}
					row={row}
					columns={props.columns}
					selected={props.top + index === props.cursor}
					marked={props.marks.has(row.id)}
					changed={props.changed.has(row.id)}
				/>
			))}
		</Box>
	);
}

export const LIST_GUTTER = GUTTER;
