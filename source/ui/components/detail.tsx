import {Box, Text} from '#ink';
import {useEffect, useState} from 'react';
import type {Field, Item} from '../../../store/index.js';
import type {RelationNames} from '../../text/format.js';
import {sanitize} from '../../text/sanitize.js';
import {loadMarkdown, markdownReady} from '../markdown.js';
import {today as todayOf} from '../overdue.js';
import {recordLines} from '../record-lines.js';
import {visibleWindow} from '../record-scroll.js';
import {plainLine, wrapSpans, type StyledLine} from '../spans.js';
import type {DetailComments} from '../state.js';
import {Line} from './styled-line.js';

export type DetailProps = {
	fields: Field[];
	item: Item | null;
	error: string | null;
	width: number;
	height: number;
	/** Keys with an open follow-up on this record. */
	flagged: ReadonlySet<string>;
	/** Lines scrolled past (clamped so the last line stays on the pane). */
	scroll?: number;
	/** Today (YYYY-MM-DD), for overdue dates; the clock's day unless given. */
	today?: string;
	/** Related records' names (a duplicate_of by its target's ticket). */
	names?: RelationNames;
	/** The tracker's comments on the record, under its fields. */
	comments?: DetailComments;
};

/** Wraps plain text to `width` cells per line, at spaces where it can (spans.ts wraps). */
export const wrapLines = (text: string, width: number): string[] => wrapSpans([{text}], width).map(line => plainLine(line));

/** The full record: every field with its label, formulas computed, long text as markdown, the tracker's comments (record-lines.ts). */
export function Detail(props: DetailProps) {
	const {item} = props;
	// The markdown lexer loads when a record is first shown; drawn again once it is in.
	const [, setMarkdown] = useState(markdownReady());
	useEffect(() => {
		if (!markdownReady()) void loadMarkdown().then(() => setMarkdown(true), () => undefined);
	}, []);
	if (!item) {
		return (
			<Box flexDirection="column" width={props.width} height={props.height}>
				<Text dimColor wrap="truncate-end">{props.error ? sanitize(props.error) : 'No record selected.'}</Text>
			</Box>
		);
	}

	const lines = recordLines({fields: props.fields, item, flagged: props.flagged, comments: props.comments, width: props.width, today: props.today ?? todayOf(), names: props.names});
	const height = Math.max(1, props.height);
	const {start, end, above, below} = visibleWindow(lines.length, height, props.scroll ?? 0);
	const shown: StyledLine[] = lines.slice(start, end);
	if (above > 0) shown[0] = [{text: `↑ ${above} more lines (K)`, dim: true}];
	if (below > 0) shown[shown.length - 1] = [{text: `↓ ${below} more lines (J)`, dim: true}];
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			{shown.map((line, index) => <Line key={start + index} line={line}/>)}
		</Box>
	);
}
