import type {Changes, Field, FieldProblem, Values} from '../../store/index.js';
import type {TextState} from './text-input.js';

export type Tone = 'info' | 'ok' | 'warn' | 'error';
export type Message = {text: string; tone: Tone};

/** Editing one field of one record: choose the field, then pick an option or type a value. */
export type EditOverlay = {
	kind: 'edit';
	itemId: string;
	/** The record's name for messages (its ticket, or the id). */
	name: string;
	/** The version the edit expects, and the values at that version; refreshed after a conflict. */
	version: number;
	values: Values;
	stage: 'field' | 'options' | 'text';
	fieldCursor: number;
	field: Field | null;
	optionCursor: number;
	/** multi_select: the values ticked so far. */
	chosen: string[];
	text: TextState;
	/** The store's refusal of the last attempt, shown inline. */
	problem: FieldProblem | null;
	/** A version conflict: what changed since the version we had. */
	conflict: Changes | null;
};

export type Overlay =
	| {kind: 'none'}
	| {kind: 'help'}
	| {kind: 'search'; text: TextState}
	| {kind: 'filter'; stage: 'field' | 'value'; cursor: number; field: Field | null}
	| EditOverlay
	| {kind: 'instruction'; text: TextState; itemIds: string[]}
	| {kind: 'queue'; index: number; optionCursor: number; typing: TextState | null; problem: string | null; confirmDismiss: boolean}
	| {kind: 'history'; cursor: number; open: boolean}
	| {kind: 'confirm'; question: string; action: 'quit' | 'cancelRun'};

export type Pane = 'none' | 'detail' | 'run';

/** One edit of this session that `u` can take back. */
export type UndoEntry = {itemId: string; name: string; key: string; before: unknown; after: unknown; version: number};

export const NONE: Overlay = {kind: 'none'};
