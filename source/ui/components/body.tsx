import {Box} from '#ink';
import type {ReactNode} from 'react';
import type {Field} from '../../../store/index.js';
import type {Step} from '../../codex/steps.js';
import type {RunSummary} from '../history.js';
import type {HelpLine} from '../help-lines.js';
import type {Layout} from '../layout.js';
import type {Overlay, QueueEntry} from '../state.js';
import {Help} from './help.js';
import {History} from './history.js';
import {List, type ListProps} from './list.js';
import {Problems} from './problems.js';
import {Queue} from './queue.js';
import {Review, RunDiffLines, type ReviewProps} from './review.js';

export type BodyProps = {
	overlay: Overlay;
	layout: Layout;
	queue: {entry: QueueEntry | null; total: number; field: Field | null; nameKeys: string[]};
	history: {runs: RunSummary[]; open: {run: RunSummary; steps: Step[]; top?: number} | null; diff?: {lines: string[]} | null};
	/** The review queue's proposals and the current one's item (P). */
	review?: Pick<ReviewProps, 'proposals' | 'item' | 'fields' | 'nameOf'>;
	list: Omit<ListProps, 'height' | 'width'>;
	/** What the pane shows, or null when it is closed. */
	pane: ReactNode | null;
	/** The help's lines (the key table's and the field hotkeys). */
	helpLines: HelpLine[];
	/** The config file's problems, for `:problems`. */
	problems?: readonly string[];
};

/** The body between header and footer: a full-screen overlay (help, queue, history, the record), or the list with its pane. */
export function Body({overlay, layout, queue, history, list, pane, helpLines, problems = [], review}: BodyProps) {
	const {columns, bodyHeight} = layout;
	if (overlay.kind === 'problems') return <Problems problems={problems} scroll={overlay.scroll} width={columns} height={bodyHeight}/>;
	if (overlay.kind === 'help') return <Help width={columns} height={bodyHeight} scroll={overlay.scroll} lines={helpLines}/>;
	if (overlay.kind === 'queue') {
		return (
			<Queue
				entry={queue.entry}
				index={overlay.index}
				total={queue.total}
				field={queue.field}
				nameKeys={queue.nameKeys}
				optionCursor={overlay.optionCursor}
				typing={overlay.typing}
				now={overlay.now ?? 0}
				problem={overlay.problem}
				confirmDismiss={overlay.confirmDismiss}
				width={columns}
				height={bodyHeight}
			/>
		);
	}

	// The record full screen: the pane, laid out at the body's size (layout.ts).
	if (overlay.kind === 'record' && pane) return pane;
	if (overlay.kind === 'review' && review) return <Review overlay={overlay} {...review} width={columns} height={bodyHeight}/>;
	if (overlay.kind === 'history' && history.diff) return <RunDiffLines lines={history.diff.lines} width={columns} height={bodyHeight}/>;
	if (overlay.kind === 'history') return <History runs={history.runs} cursor={overlay.cursor} open={history.open} width={columns} height={bodyHeight}/>;
	const listNode = <List {...list} height={layout.listHeight} width={layout.listWidth}/>;
	if (!pane) return listNode;
	return (
		<Box flexDirection={layout.side ? 'row' : 'column'} height={bodyHeight}>
			{listNode}
			{layout.side ? <Box width={1}/> : null}
			{pane}
		</Box>
	);
}
