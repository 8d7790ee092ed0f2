// Every overlay's slice, by kind: adding an overlay is its module and one line here (and, if it
// draws beside the list, its placement in layout.ts). The root reducer routes by this table.

import type {Scope} from './keys.js';
import type {Overlay} from './state.js';
import {BOARD} from './features/board/slice.js';
import {CONFIRM} from './features/confirm/slice.js';
import {FIELD_EDIT} from './features/field-edit/slice.js';
import {FILTER} from './features/filter/slice.js';
import {FOLLOWUPS} from './features/followups/slice.js';
import {HELP} from './features/help/slice.js';
import {HISTORY} from './features/history/slice.js';
import {LIST} from './features/list/slice.js';
import {RECORD} from './features/record/slice.js';
import {PROBLEMS} from './features/problems/slice.js';
import {REVIEW} from './features/review/slice.js';
import {INSTRUCTION} from './features/run/slice.js';
import {SEARCH} from './features/search/slice.js';
import type {AnySlice, OverlayKind} from './features/feature.js';
import {COMMAND} from './features/views/slice.js';

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
