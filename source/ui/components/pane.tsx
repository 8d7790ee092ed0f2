// The list's own pane, beside or under the list: the run, or the record; an open overlay that
// draws in the pane does so through its feature's view (components/body.tsx).

import type {ReactNode} from 'react';
import type {Field, Item} from '../../../store/index.js';
import type {RelationNames} from '../../text/format.js';
import type {RunView} from '../model/runs.js';
import type {DetailComments, Pane} from '../state.js';
import {Detail} from './detail.js';
import {RunPane} from './run-pane.js';

export type PaneProps = {
	pane: Pane;
	fields: Field[];
	run: RunView | null;
	now: number;
	frame: number;
	detail: {item: Item | null; error: string | null; flagged: ReadonlySet<string>; comments?: DetailComments};
	/** Related records' names (a duplicate_of by its target's ticket). */
	names?: RelationNames;
	scroll: number;
	width: number;
	height: number;
};

/** What the list's pane shows: the run, or the record; null when closed. */
export function paneFor(props: PaneProps): ReactNode | null {
	const {pane, fields, width, height} = props;
	if (pane === 'run' && props.run) return <RunPane run={props.run} now={props.now} frame={props.frame} width={width} height={height}/>;
	if (pane === 'detail' || pane === 'run') {
		const {detail} = props;
		return <Detail fields={fields} item={detail.item} error={detail.error} flagged={detail.flagged} comments={detail.comments} names={props.names} width={width} height={height} scroll={props.scroll}/>;
	}

	return null;
}
