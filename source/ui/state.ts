import type {Key} from '#ink';
import type {Changes, Field, FieldProblem, FollowUp, Item, StoreEvent, Values} from '../../store/index.js';
import type {Step} from '../codex/steps.js';
import type {EditOutcome, UndoEntry, UndoOutcome} from './edit-outcome.js';
import type {RunSummary} from './history.js';
import type {TextState} from './text-input.js';
import type {FetchedPage, PageRequest, PageWindow} from './window.js';

export type {UndoEntry} from './edit-outcome.js';

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

export type QueueOverlay = {kind: 'queue'; index: number; optionCursor: number; typing: TextState | null; problem: string | null; confirmDismiss: boolean};

export type Overlay =
	| {kind: 'none'}
	| {kind: 'help'; scroll: number}
	| {kind: 'search'; text: TextState}
	| {kind: 'filter'; stage: 'field' | 'value'; cursor: number; field: Field | null}
	| EditOverlay
	| {kind: 'instruction'; text: TextState; itemIds: string[]}
	| QueueOverlay
	| {kind: 'history'; cursor: number; open: boolean}
	| {kind: 'confirm'; question: string; action: 'quit' | 'cancelRun'}
	/** The runs board has the keys (a fan-out's or a watch's runs). */
	| {kind: 'board'};

export type Pane = 'none' | 'detail' | 'run';

export const NONE: Overlay = {kind: 'none'};

/** The list's search and filter. */
export type ListQuery = {filter?: Record<string, unknown>; search?: string};

/** A follow-up with its record as it is now (null when the record went away). */
export type QueueEntry = {followUp: FollowUp; item: Item | null};

/** The record the detail pane shows, read for one version of the row. */
export type Detail = {id: string; item: Item | null; error: string | null; flagged: ReadonlySet<string>};

/**
 * Everything the screen shows and decides on, in one value: the reducer (reducer.ts) is its only
 * writer; hooks feed it the results of their reads and writes as events.
 */
export type ScreenState = {
	channelId: string;
	fields: Field[];
	/** The terminal, for the layout (how many rows a page key moves, how far to prefetch). */
	size: {columns: number; rows: number};
	overlay: Overlay;
	pane: Pane;
	/** Lines the record pane is scrolled by; a new record or pane starts at the top. */
	paneScroll: number;
	marks: ReadonlySet<string>;
	message: Message | null;

	window: PageWindow;
	query: ListQuery;
	/** Bumped by every relisting: a page read for an older listing is dropped when it arrives. */
	generation: number;
	/** The page read under way, if any: keys never wait for it. */
	loading: 'list' | 'after' | 'before' | null;
	/** Where a move past the loaded rows wants the cursor, once the page it needs arrives. */
	want: number | null;

	total: number;
	newItems: number;
	/** Rows changed by someone else just now, with when the marker expires (ms since the epoch). */
	changed: ReadonlyMap<string, number>;
	followUpCount: number;
	queue: {followUps: FollowUp[]; entry: QueueEntry | null};
	history: {runs: RunSummary[]; open: {run: RunSummary; steps: Step[]} | null};
	detail: Detail | null;
	/** What the last detail read was for ("id:version:tick"): a read is asked for once per change. */
	detailFor: string | null;
	detailTick: number;
	run: {active: boolean; exists: boolean};
	/** The runs board: how many runs it holds, the one with the cursor, whether its steps are shown, watch mode. */
	board: BoardCursor;
	undo: UndoEntry[];
	/**
	 * An overlay being opened from a read (edit, queue, history): keys typed meanwhile wait in
	 * `deferred` and act, in order, once it is open (typing ahead works; nothing blocks).
	 */
	awaiting: 'edit' | 'queue' | 'history' | null;
	deferred: Array<{input: string; key: Key}>;
};

export type BoardCursor = {runs: number; cursor: number; focused: boolean; watch: boolean};

/** A store write the screen asks for, and what it came from (the outcome goes back to its origin). */
export type EditRequest = {itemId: string; name: string; key: string; value: unknown; before: unknown; version: number; origin: 'picker' | 'queue'};

/** What happens to the screen: keys (as intents) and the results of effects. */
export type ScreenEvent =
	/** A keypress: the reducer routes it by the scope it finds (input/handlers.ts). */
	| {type: 'key'; input: string; key: Key}
	// The list.
	| {type: 'move'; rows: number}
	| {type: 'page'; pages: 1 | -1}
	| {type: 'top'}
	| {type: 'bottom'}
	| {type: 'openDetail'}
	| {type: 'back'}
	| {type: 'openSearch'}
	| {type: 'openFilter'}
	| {type: 'mark'}
	| {type: 'markAll'}
	| {type: 'openEdit'}
	| {type: 'undo'}
	| {type: 'askRun'}
	| {type: 'askCancelRun'}
	| {type: 'openQueue'}
	| {type: 'openHistory'}
	| {type: 'togglePane'}
	| {type: 'scrollPane'; lines: number}
	| {type: 'reload'}
	| {type: 'openHelp'}
	| {type: 'quit'}
	/** Ctrl+C, in any scope. */
	| {type: 'interrupt'}
	// Overlays.
	| {type: 'cursor'; delta: 1 | -1}
	| {type: 'choose'}
	| {type: 'toggle'}
	| {type: 'cancel'}
	| {type: 'submit'}
	| {type: 'type'; input: string; key: Key}
	| {type: 'queueType'}
	| {type: 'queueDismiss'}
	| {type: 'queueStep'; delta: 1 | -1}
	| {type: 'answer'; yes: boolean}
	// Results of effects, and the world.
	| {type: 'resize'; columns: number; rows: number}
	| {type: 'listed'; generation: number; query: ListQuery; page: FetchedPage; note?: string; from?: 'end'}
	| {type: 'pageLoaded'; generation: number; direction: 'after' | 'before'; page: FetchedPage}
	| {type: 'loadFailed'; generation: number; message: string}
	| {type: 'editOpened'; item: Item}
	/** An effect's store call failed: said in the footer; an overlay being opened is not. */
	| {type: 'effectFailed'; message: string}
	| {type: 'edited'; request: EditRequest; outcome: EditOutcome}
	| {type: 'undone'; entry: UndoEntry; outcome: UndoOutcome}
	| {type: 'storeEvents'; events: StoreEvent[]; at: number}
	| {type: 'rowRead'; id: string; item: Item | null}
	| {type: 'detailLoaded'; for: string; detail: Detail}
	| {type: 'followUpCount'; count: number}
	| {type: 'queueLoaded'; followUps: FollowUp[]; note?: string}
	| {type: 'queueEntry'; entry: QueueEntry | null}
	| {type: 'followUpDismissed'; ok: boolean; message?: string; left?: FollowUp[]}
	| {type: 'historyLoaded'; runs: RunSummary[]}
	| {type: 'stepsLoaded'; run: RunSummary; steps: Step[]}
	| {type: 'runState'; active: boolean; exists: boolean}
	| {type: 'runStarted'; count: number; batches?: number}
	// The runs board (fan-out, watch).
	| {type: 'boardState'; runs: number; watch: boolean}
	| {type: 'openBoard'}
	| {type: 'boardMove'; delta: 1 | -1}
	| {type: 'boardFocus'}
	| {type: 'boardCancel'}
	| {type: 'cancelAllRuns'}
	| {type: 'closeBoard'}
	| {type: 'toggleWatch'}
	| {type: 'runFinished'; text: string; tone: Tone}
	| {type: 'say'; text: string; tone: Tone}
	| {type: 'expire'; at: number};

/** What the reducer asks the hooks to do; each result comes back as an event. */
export type Effect =
	/** The first page of the query, or (from: 'end') its last: the oldest records. */
	| {kind: 'list'; generation: number; query: ListQuery; note?: string; from?: 'end'}
	| {kind: 'loadPage'; generation: number; direction: 'after' | 'before'; request: PageRequest; query: ListQuery}
	| {kind: 'readForEdit'; itemId: string}
	| {kind: 'edit'; request: EditRequest}
	| {kind: 'undo'; entry: UndoEntry}
	| {kind: 'readRows'; ids: string[]}
	| {kind: 'readDetail'; id: string; for: string}
	| {kind: 'countFollowUps'}
	| {kind: 'loadQueue'; note?: string}
	| {kind: 'readQueueEntry'; followUp: FollowUp}
	| {kind: 'dismissFollowUp'; id: number}
	| {kind: 'loadHistory'}
	| {kind: 'loadSteps'; run: RunSummary}
	| {kind: 'startRun'; instruction: string; itemIds: string[]}
	| {kind: 'cancelRun'}
	/** The board's run at this position; every run on the board; watch mode on or off. */
	| {kind: 'cancelBatch'; position: number}
	| {kind: 'cancelAllRuns'}
	| {kind: 'toggleWatch'}
	| {kind: 'quit'}
	/** Read the channel's events now (after our own write). */
	| {kind: 'pollEvents'};

export type Transition = {state: ScreenState; effects: Effect[]};
