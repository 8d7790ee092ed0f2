// Every overlay's slice, by kind: adding an overlay is its module and one line here (and, if it
// draws beside the list, its placement in layout.ts). The root reducer routes by this table.

import type {Scope} from '../keys.js';
import type {Overlay} from '../state.js';
import {BOARD} from './board.js';
import {CONFIRM} from './confirm.js';
import {FIELD_EDIT} from './field-edit.js';
import {FILTER} from './filter.js';
import {FOLLOWUPS} from './followups.js';
import {HELP} from './help.js';
import {HISTORY} from './history.js';
import {LIST} from './list.js';
import {RECORD} from './record.js';
import {PROBLEMS} from './problems.js';
import {REVIEW} from './review.js';
import {INSTRUCTION} from './run.js';
import {SEARCH} from './search.js';
import type {AnySlice, OverlayKind} from './slice.js';
import {COMMAND} from './views.js';

export const OVERLAYS = {
	none: LIST,
	help: HELP,
	search: SEARCH,
	filter: FILTER,
	fieldEdit: FIELD_EDIT,
	instruction: INSTRUCTION,
	queue: FOLLOWUPS,
	history: HISTORY,
	confirm: CONFIRM,
	command: COMMAND,
	board: BOARD,
	record: RECORD,
	problems: PROBLEMS,
	review: REVIEW,
} as const satisfies {[K in OverlayKind]: AnySlice<K>};

/** The slice of an overlay, seen through its own kind. */
export const sliceOf = <K extends OverlayKind>(kind: K) => OVERLAYS[kind] as unknown as AnySlice<K>;

/** Where keys go while this overlay is open. */
export function scopeOf(overlay: Overlay): Scope {
	return sliceOf(overlay.kind).scope(overlay as never);
}
