import type {Key} from '#ink';
import type {Field, FollowUp, Item, ItemComments, SchemaChange, StoreEvent} from '../../store/index.js';
import type {Step} from '../codex/steps.js';
import type {View} from '../config/schema.js';
import type {EditOutcome, FieldUndoEntry, UndoEntry, UndoOutcome} from './edit-outcome.js';
import type {BulkOutcome, MarkedRow} from './model/bulk.js';
import type {Command, CommandRefusal} from './model/command-line.js';
import type {Hotkeys} from '../config/hotkeys.js';
import type {PickerState} from './model/picker.js';
import type {RecordEvent, RecordOverlay} from './record-scroll.js';
import type {RunSummary} from './history.js';
import type {TextState} from './text-input.js';
import type {ProposalRow} from '../../store/proposals.js';
import type {AcceptResult, DeclineResult} from '../../store/review-plan.js';
import type {AcceptUndoEntry} from './edit-outcome.js';
import type {FetchedPage, PageRequest, PageWindow} from './window.js';

export type {UndoEntry} from './edit-outcome.js';

export type Tone = 'info' | 'ok' | 'warn' | 'error';
export type Message = {text: string; tone: Tone};

// Field hotkeys and bulk edits (issue 12).

/**
 * One field set on the current row, or on every marked row: opened by a field hotkey, or by `e`
 * (which first chooses the field; on one row, from the record read afresh). A pick (select,
 * multi, boolean) or a one-line input.
 */
export type FieldEditOverlay = {
	kind: 'fieldEdit';
	/** Null while `e` is choosing the field. */
	field: Field | null;
	fieldCursor: number;
	/** Opened by `e`: Esc goes back to choosing the field. */
	chooser: boolean;
	/** The rows written, each as the person saw it (the version a write expects). */
	targets: MarkedRow[];
	/** Whether the edit is a bulk edit on marks (one undo entry, a summary), even of one row. */
	bulk: boolean;
	picker: PickerState | null;
	text: TextState | null;
	/** When the overlay opened (ms): relative dates count from its day. */
	now: number;
	/** Why the last key did nothing, or why a typed value cannot be written. */
	notice: string | null;
};

/** `now`: when the entry was read (ms): relative dates typed for it count from its day. */
export type QueueOverlay = {kind: 'queue'; index: number; optionCursor: number; typing: TextState | null; problem: string | null; confirmDismiss: boolean; now?: number};

/**
 * `P`: the review queue (overlays/review.ts), on the proposal at `index`. `confirm`: the proposal
 * whose accept met a conflict (shown in `problem`), written over only if `a` or `y` comes next.
 */
export type ReviewOverlay = {kind: 'review'; index: number; confirm: {id: number; fields?: string[]} | null; problem: string[] | null; /** `s`: the surest proposals first (docs/review.md#confidence). */ byConfidence?: boolean};

/** `R` → a run → `D`: the run's diff as lines; `revert`: `U` was pressed once (the preview is shown; `U` again reverts). */
export type RunDiffView = {runId: string; lines: string[]; revert: boolean};

/** The overlays written here, from before features declared their own (`OverlayVariants`). */
type CoreOverlay =
	| {kind: 'none'}
	| {kind: 'help'; scroll: number}
	/** `problem`: why the line would be refused (said while typing); `count`: its matches, counted off the key path. */
	| {kind: 'search'; text: TextState; problem?: string; count?: {text: string; matches: number}}
	| {kind: 'filter'; stage: 'field' | 'value'; cursor: number; field: Field | null}
	| {kind: 'instruction'; text: TextState; itemIds: string[]}
	| QueueOverlay
	| {kind: 'history'; cursor: number; open: boolean}
	| {kind: 'confirm'; question: string; action: 'quit' | 'cancelRun'}
	| FieldEditOverlay
	/** The `:` command line. */
	| {kind: 'command'; text: TextState}
	/** The runs board has the keys (a fan-out's or a watch's runs). */
	| {kind: 'board'}
	// The record full screen (record-view.ts).
	| RecordOverlay
	/** `:problems`: the config file's problems, scrolled by `scroll` lines. */
	| {kind: 'problems'; scroll: number}
	| ReviewOverlay;

/**
 * The screen's open overlay: the variants written here, and those a feature declares in its own
 * slice by declaration merging (`declare module '../../state.js' {interface OverlayVariants
 * {name: …}}`), keyed by who declares them. The same holds for `EventVariants`, `EffectVariants`
 * and the fields of `ScreenState`: a new overlay edits its own folder and the registry's line
 * (registry.ts, whose table must hold a feature for every overlay kind, or it does not compile),
 * and no file below. The unions cannot be gathered from the registry itself: it stands above the
 * pure models that read the state, and the import floors allow no circle, not even of types.
 */
export interface OverlayVariants {
	core: CoreOverlay;
}

export type Overlay = OverlayVariants[keyof OverlayVariants];

export type Pane = 'none' | 'detail' | 'run';

export const NONE: Overlay = {kind: 'none'};

/**
 * What the list shows: the active view's terms, then what `/` and `f` added, in the order `sort`
 * (`field` or `-field`; absent: newest first). `search` is query language text, like a view's.
 */
export type ListQuery = {filter?: Record<string, unknown>; search?: string; view?: string; where?: string; sort?: string};

/** A follow-up with its record as it is now (null when the record went away). */
export type QueueEntry = {followUp: FollowUp; item: Item | null};

/** The tracker's comments on a record (read-only, pulled by sync), or why they could not be read. */
export type DetailComments = ItemComments | {error: string};

/** The record the detail pane shows, read for one version of the row; `comments` absent until read. */
export type Detail = {id: string; item: Item | null; error: string | null; flagged: ReadonlySet<string>; comments?: DetailComments};

/**
 * Everything the screen shows and decides on, in one value: the reducer (reducer.ts) is its only
 * writer; hooks feed it the results of their reads and writes as events.
 */
export interface ScreenState {
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
	/** Rows moved while a listing is read (keys never wait for it): moved from where it opens. */
	listMoves: number;

	total: number;
	newItems: number;
	/** Rows changed by someone else just now, with when the marker expires (ms since the epoch). */
	changed: ReadonlyMap<string, number>;
	followUpCount: number;
	queue: {followUps: FollowUp[]; entry: QueueEntry | null};
	history: {runs: RunSummary[]; open: {run: RunSummary; steps: Step[]; /** The detail's first line shown (R → Enter scrolls). */ top?: number} | null; diff?: RunDiffView | null};
	detail: Detail | null;
	/** What the last detail read was for ("id:version:tick"): a read is asked for once per change. */
	detailFor: string | null;
	detailTick: number;
	run: {active: boolean; exists: boolean};
	/** The runs board: how many runs it holds, the one with the cursor, whether its steps are shown, watch mode. */
	board: BoardCursor;
	/** The run pane and the header show the board: the last run started was a fan-out, or watch mode was turned on. */
	boardShown: boolean;
	/** How many items one run takes: `c` on more fans out in batches of this many. */
	runBatch: number;
	undo: UndoEntry[];
	/** Undos asked for and not back yet: one is written at a time, the next once its result is in (0: none). */
	undoing: number;
	/**
	 * An overlay being opened from a read (edit, queue, history): keys typed meanwhile wait in
	 * `deferred` and act, in order, once it is open (typing ahead works; nothing blocks).
	 */
	awaiting: 'edit' | 'queue' | 'history' | 'review' | null;
	deferred: Array<{input: string; key: Key; at?: number}>;

	// Field hotkeys and bulk edits (issue 12).
	/** Each marked row as it was when marked: a bulk edit expects these versions. */
	seen: ReadonlyMap<string, MarkedRow>;

	// Views, config and the `:` line.
	/** The tabs, in order; `query.view` names the active one. */
	views: View[];
	/** Each view's match count by name, counted off the key path; absent until counted. */
	viewCounts: ReadonlyMap<string, number>;
	/** The views are being counted; `again`: something changed meanwhile, count once more after. */
	counting: 'idle' | 'busy' | 'again';
	/** Views are counted at start and when one is saved; else (a large SQLite channel) only on `r`. */
	autoCount: boolean;
	/** Field key → its hotkey letter: the schema's defaults, overridden by the config file. */
	hotkeys: Hotkeys;
	/** The config file's instruction for a Codex run, else null (the built-in one). */
	instruction: string | null;
	/** What the config file has wrong for this channel, one problem each (`:problems` lists them). */
	configProblems: string[];

	// Review before it lands (overlays/review.ts, docs/review.md).
	/** The open proposals the queue shows (filtered by the list's query), and the current one's item read afresh. */
	/** `target`: the record a proposed duplicate names, read with the item (shown beside it). */
	review: {proposals: ProposalRow[]; item: Item | null; target?: Item | null};
	/** Open proposals of the channel: the header's count. */
	proposalCount: number;
	/** Runs started from this screen propose (`agent_mode: propose`, `:propose on`). */
	propose: boolean;
	/** The cursor moves on to the next row after an edit of one row (config: advance_after_edit). */
	advanceAfterEdit: boolean;
}

export type BoardCursor = {runs: number; cursor: number; focused: boolean; watch: boolean};

/** A store write the screen asks for, and what it came from (the outcome goes back to its origin). */
export type EditRequest = {itemId: string; name: string; key: string; value: unknown; before: unknown; version: number; origin: 'picker' | 'queue'};

/** The events written here, from before features declared their own (`EventVariants`). */
type CoreEvent =
	/** A keypress: the reducer routes it by the scope it finds (input/handlers.ts). */
	| {type: 'key'; input: string; key: Key; at?: number}
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
	/** `at`: when the key was pressed (ms): on marks the overlay opens at once, and relative dates count from its day. */
	| {type: 'openEdit'; at?: number}
	| {type: 'undo'}
	| {type: 'askRun'}
	| {type: 'askCancelRun'}
	| {type: 'openQueue'}
	| {type: 'openHistory'}
	| {type: 'togglePane'}
	// The record pane's scroll and full screen (record-view.ts).
	| RecordEvent
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
	| {type: 'listed'; generation: number; query: ListQuery; page: FetchedPage; note?: string; from?: 'end'; at?: string}
	| {type: 'pageLoaded'; generation: number; direction: 'after' | 'before'; page: FetchedPage}
	| {type: 'loadFailed'; generation: number; message: string}
	/** `at`: when it was read (ms), the day a relative date typed into it counts from. */
	| {type: 'editOpened'; item: Item; at?: number}
	/** An effect's store call failed: said in the footer; an overlay being opened is not. */
	| {type: 'effectFailed'; message: string}
	| {type: 'edited'; request: EditRequest; outcome: EditOutcome}
	| {type: 'undone'; entry: FieldUndoEntry; outcome: UndoOutcome}
	| {type: 'storeEvents'; events: StoreEvent[]; at: number}
	| {type: 'rowRead'; id: string; item: Item | null}
	/** The channel's schema read again after a channel.updated event (a person changed it). */
	| {type: 'schemaLoaded'; fields: Field[]; quiet?: boolean}
	/** How a `:channel` change went: ok, or the store's refusal in words. */
	| {type: 'channelChanged'; ok: boolean; message: string}
	| {type: 'detailLoaded'; for: string; detail: Detail}
	| {type: 'followUpCount'; count: number}
	| {type: 'queueLoaded'; followUps: FollowUp[]; note?: string}
	/** `at`: when it was read (ms), the day a relative date typed for it counts from. */
	| {type: 'queueEntry'; entry: QueueEntry | null; at?: number}
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
	/** `c` or `W` found Codex unable to run (codex/ready.ts): nothing started. */
	| {type: 'runRefused'; text: string}
	| {type: 'say'; text: string; tone: Tone}
	| {type: 'expire'; at: number}
	// Field hotkeys, bulk edits and $EDITOR (issue 12).
	/** A field's hotkey on the list: its picker or input, on the marks or the row. */
	| {type: 'hotkey'; key: string; at: number}
	/** A printable key in a hotkey picker: a digit picks, a letter jumps. */
	| {type: 'pickType'; input: string; key: Key}
	| {type: 'erase'}
	| {type: 'bulkEdited'; outcome: BulkOutcome}
	/** `undid`: the bulk edit taken back (its versions move the undo entries below on). */
	| {type: 'bulkUndone'; outcome: BulkOutcome; undid: BulkOutcome}
	/** `E`: the long text of the current row in $EDITOR. */
	| {type: 'openEditor'}
	// Views, sort and the `:` line.
	/** `1`–`9`: the view of that tab (0-based). */
	| {type: 'switchView'; index: number}
	| {type: 'viewCounts'; views: View[]; counts: Array<number | null>}
	| {type: 'openCommand'}
	/** The `:` line, parsed where the clock is (relative dates). */
	| {type: 'commandParsed'; result: Command | CommandRefusal}
	| {type: 'viewSaved'; view: View; ok: boolean; message?: string}
	/** The items a `:` jump's name stands for (ids), or why they could not be looked up. */
	| {type: 'jumpFound'; name: string; ids: string[]; message?: string}
	/** `:problems`: the config file's problems, each on its own line. */
	| {type: 'openProblems'}
	// Review before it lands (overlays/review.ts).
	| {type: 'openReview'}
	| {type: 'reviewLoaded'; proposals: ProposalRow[]; note?: string}
	| {type: 'reviewItem'; proposalId: number; item: Item | null; target?: Item | null}
	| {type: 'proposalCount'; count: number}
	| {type: 'reviewAccept'}
	| {type: 'reviewAcceptAll'}
	| {type: 'reviewSort'}
	| {type: 'reviewDecline'}
	/** A field's digit in the queue (0-based): that field of the proposal alone. */
	| {type: 'reviewField'; index: number}
	| {type: 'reviewAccepted'; request: {ids: number[]; fields?: string[]; force: boolean}; result: AcceptResult; lines: string[]}
	| {type: 'reviewDeclined'; result: DeclineResult; lines: string[]}
	| {type: 'acceptUndone'; lines: string[]; ok: boolean}
	| {type: 'proposeMode'; on: boolean}
	| {type: 'runDiff'}
	| {type: 'runRevert'}
	| {type: 'runDiffLoaded'; runId: string; lines: string[]; revert: boolean}
	| {type: 'runReverted'; runId: string; lines: string[]; ok: boolean}
	/** The `/` line's match count (null: not counted in time, or refused). */
	| {type: 'searchCounted'; text: string; count: number | null};

/** Events by who declares them: these, and each feature's own (declared in its slice, as `OverlayVariants`). */
export interface EventVariants {
	core: CoreEvent;
}

/** What happens to the screen: keys (as intents) and the results of effects. */
export type ScreenEvent = EventVariants[keyof EventVariants];


/** The effects written here, from before features declared their own (`EffectVariants`). */
type CoreEffect =
	/** The first page of the query, or (from: 'end') its last: the oldest records. */
	| {kind: 'list'; generation: number; query: ListQuery; note?: string; from?: 'end'; at?: string}
	| {kind: 'loadPage'; generation: number; direction: 'after' | 'before'; request: PageRequest; query: ListQuery}
	| {kind: 'readForEdit'; itemId: string}
	| {kind: 'edit'; request: EditRequest}
	| {kind: 'undo'; entry: FieldUndoEntry}
	| {kind: 'readRows'; ids: string[]}
	/** `quiet`: this screen made the change and said so already. */
	| {kind: 'reloadSchema'; quiet?: boolean}
	| {kind: 'changeChannel'; change: SchemaChange}
	| {kind: 'readDetail'; id: string; for: string}
	| {kind: 'countFollowUps'}
	| {kind: 'loadQueue'; note?: string}
	| {kind: 'readQueueEntry'; followUp: FollowUp}
	| {kind: 'dismissFollowUp'; id: number}
	| {kind: 'loadHistory'}
	| {kind: 'loadSteps'; run: RunSummary}
	/** `batches` > 1: the items go out through a fan-out, that many batches, on the board. */
	| {kind: 'startRun'; instruction: string; itemIds: string[]; batches: number}
	/** The one run (position null), or the board's run at `position`. */
	| {kind: 'cancelRun'; position: number | null}
	/** The board's run at this position; every run on the board; watch mode on or off. */
	| {kind: 'cancelBatch'; position: number}
	| {kind: 'cancelAllRuns'}
	| {kind: 'toggleWatch'}
	| {kind: 'quit'}
	/** Read the channel's events now (after our own write). */
	| {kind: 'pollEvents'}
	// Bulk edits and $EDITOR (issue 12).
	| {kind: 'bulkEdit'; field: Field; value: unknown; rows: MarkedRow[]}
	| {kind: 'undoBulk'; outcome: BulkOutcome}
	/** Read the item, hand the terminal to $EDITOR on the field's text, write it with the version read. */
	| {kind: 'editInEditor'; itemId: string; name: string; key: string}
	// Views, sort and the `:` line.
	/** Count each view's matches, one after another, off the key path. */
	| {kind: 'countViews'; views: View[]}
	| {kind: 'parseCommand'; line: string}
	| {kind: 'saveView'; view: View}
	| {kind: 'findItem'; name: string}
	/** `:channel NAME`: the screen of the channel with that id or name (any case). */
	| {kind: 'switchChannel'; name: string}
	// Review before it lands (overlays/review.ts).
	/** The open proposals whose items match `where` (the list's query). */
	| {kind: 'loadReview'; where: string; note?: string}
	| {kind: 'readReviewItem'; proposalId: number; itemId: string}
	| {kind: 'countProposals'}
	| {kind: 'acceptProposals'; ids: number[]; fields?: string[]; force: boolean}
	| {kind: 'declineProposals'; ids: number[]}
	| {kind: 'undoAccept'; entry: AcceptUndoEntry}
	/** The run's diff; `preview`: with what a revert would do. */
	| {kind: 'runDiff'; runId: string; preview: boolean}
	| {kind: 'runRevert'; runId: string}
	/** The `/` line's matches, counted after a pause in typing, dropped when slower than a bound. */
	| {kind: 'countSearch'; text: string; where: string};

/** Effects by who declares them: these, and each feature's own (declared in its slice, as `OverlayVariants`). */
export interface EffectVariants {
	core: CoreEffect;
}

/** What the reducer asks the hooks to do; each result comes back as an event. */
export type Effect = EffectVariants[keyof EffectVariants];


export type Transition = {state: ScreenState; effects: Effect[]};
