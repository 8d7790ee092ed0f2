import {Box} from '#ink';
import {useCallback, useEffect, useMemo, useRef} from 'react';
import type {AsyncStore} from '../../store/api.js';
import type {Channel, ChannelSummary, Field} from '../../store/index.js';
import {resolveStateDir} from '../codex/paths.js';
import {configProblems, defaultConfig, type LoadedConfig} from '../config/config.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {Body} from './components/body.js';
import {Footer} from './components/footer.js';
import {Header} from './components/header.js';
import {syncSummary, type SyncNotices} from './sync-marks.js';
import {readSyncMarks} from './features/list/effects.js';
import {Tabs} from './components/tabs.js';
import {LIST_GUTTER} from './components/list.js';
import {paneFor} from './components/pane.js';
import {shortValue} from './edit.js';
import {chooseColumns, nameField, relationNames, valuesWidth} from './format.js';
import {useClock} from './hooks/use-clock.js';
import {useEvents} from './hooks/use-events.js';
import {useKeys} from './hooks/use-keys.js';
import {useQuit} from './hooks/use-quit.js';
import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL} from '../codex/batches.js';
import {RunsBoard, boardStatus} from './features/board/view.js';
import {useFanout} from './hooks/use-fanout.js';
import {useWatch} from './hooks/use-watch.js';
import {useScreen, type Dispatch} from './hooks/use-screen.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {hintsFor, scopeOf, sliceOf} from './registry.js';
import type {ViewContext} from './features/feature.js';
import {screenLayout} from './layout.js';
import {loadMarkdown} from './markdown.js';
import {hotkeyHint} from './model/hotkeys.js';
import {activeView, columnFields, tabCounts} from './model/views.js';
import {runFinishMessage, runStatus} from './run-status.js';
import {tuiRunSettings, type RunSettings} from './run-settings.js';
import type {ListQuery, ScreenState, Transition} from './state.js';
import {openingScreen, readOtherChannels} from './first-screen.js';
import {readColumnChoices} from './features/columns/effects.js';
import type {LockWaits} from './lock-waits.js';
import {LOCK_WAIT_FOOTER} from '../text/lock-wait.js';
import {absoluteIndex, rowAt} from './window.js';


export type ScreenProps = {
	store: AsyncStore;
	/** The channel and its counts, read before the screen opens. */
	channel: Channel;
	summary: ChannelSummary;
	/** The database's other channels: the config's problems are checked against them too, once the first rows are drawn. */
	otherIds?: readonly string[];
	dbPath: string;
	/** The runs' settings; a `c` on more than `batch` items fans out, `parallel` runs at once. */
	run: Omit<RunSettings, 'dbPath' | 'channelId'> & {batch?: number; parallel?: number};
	/** The longest wait between retries of a failed event poll (ms); 30 s unless set. */
	pollRetryMaxMs?: number;
	/** The config file as read (views, hotkeys, instruction); the defaults unless given. */
	config?: LoadedConfig;
	/** Told when a write waits for another process's write lock: said in the footer while it waits. */
	lockWaits?: LockWaits;
	/** The live sync loop's rounds and failures (the config's `sync: {live: true}`). */
	syncNotices?: SyncNotices;
	/** `:channel NAME`: opens another channel's screen, by id. */
	onSwitchChannel?: (channelId: string) => void;
	/** The screen's first state and effects with its first listing answered, when they were made before it mounted (first-screen.ts). */
	start?: Transition;
};

/** The list's search and filter in words, for the header and the empty list ('' when neither). */
function describeQuery(query: ListQuery, fields: Field[]): string {
	return [
		query.search ? `search "${sanitize(query.search)}"` : null,
		...Object.entries(query.filter ?? {}).map(([key, value]) => {
			const field = fields.find(candidate => candidate.key === key);
			return `${sanitize(field?.label ?? key)} = ${field ? shortValue(field, value) : sanitizeValue(value)}`;
		}),
	].filter(Boolean).join(', ');
}

/** The list's footer hints with the field hotkeys' hint after the edit key's. */
function withHotkeys(hints: Array<{label: string; hint: string}>, hotkeys: {label: string; hint: string} | null) {
	if (!hotkeys) return hints;
	const at = hints.findIndex(hint => hint.label === 'e') + 1;
	return [...hints.slice(0, at), hotkeys, ...hints.slice(at)];
}

/** How many records the list shows, when known: the active view's count (no search or filter on it), else the channel's. */
function matchCount(state: ScreenState): number | null {
	const {query} = state;
	if (query.search || query.filter) return null;
	return query.where === undefined ? state.total : (query.view === undefined ? null : state.viewCounts.get(query.view) ?? null);
}

/** The cursor's place in the whole listing (0-based), when it is known. */
function positionOf(state: ScreenState): number | null {
	const {window: win} = state;
	const count = matchCount(state);
	return win.origin === 'end' && count === null ? null : absoluteIndex(win, win.cursor, count ?? 0);
}

/**
 * The triage screen of one channel. It only wires: the state machine (reducer.ts) decides, the
 * hooks perform its effects and feed it keys, store events and run updates, the components draw.
 */
export function Screen({store, channel, summary, otherIds = [], dbPath, run: runOptions, pollRetryMaxMs, config: givenConfig, lockWaits, syncNotices, onSwitchChannel, start}: ScreenProps) {
	const size = useTerminalSize();
	const config = useMemo(() => givenConfig ?? defaultConfig(), [givenConfig]);
	const stateDir = useMemo(() => runOptions.stateDir ?? resolveStateDir(runOptions.env ?? process.env), [runOptions.stateDir, runOptions.env]);

	// The runs, the quit and the event feed reach the machine through its dispatch, set once it exists.
	const dispatchRef = useRef<{dispatch?: Dispatch}>({}).current;
	const {batch = DEFAULT_BATCH_SIZE, parallel = DEFAULT_PARALLEL, ...runSettings} = runOptions;
	// Runs propose or write as the screen says when each starts (`:propose`, agent_mode).
	const screenRef = useRef<{current?: () => {propose: boolean}}>({}).current;
	const agentMode = useCallback(() => (screenRef.current?.().propose ? 'propose' as const : 'apply' as const), [screenRef]);
	// Every run goes through a fan-out (one run is a fan-out of one batch); the runs board shows them.
	const board = useFanout({...tuiRunSettings({...runSettings, agentMode}, dbPath, channel.id), batch, parallel}, store, (event, labelled) => {
		const {text, tone} = event.type === 'finished' ? runFinishMessage(event.result) : {text: `The run could not start: ${event.run.error ?? 'unknown error'}`, tone: 'error' as const};
		const label = labelled ? `[${board.board.runs.findIndex(each => each.runId === event.run.runId) + 1}] ` : '';
		dispatchRef.dispatch?.({type: 'runFinished', text: `${label}${text}`, tone});
	});
	const watch = useWatch({store, channelId: channel.id, stateDir, batch, create: board.create, attach: board.attach, ready: {...runSettings, stateDir}, onError(text) {
		dispatchRef.dispatch?.({type: 'say', text, tone: 'error'});
	}, onHalt(text) {
		dispatchRef.dispatch?.({type: 'say', text, tone: 'error'});
	}}, parallel);
	const anyActive = board.active || watch.on;
	// The run pane shows the latest run.
	const latest = board.board.runs.at(-1);
	const latestView = latest ? board.board.views[latest.runId] ?? null : null;
	const runs = useMemo(() => ({active: anyActive, async shutdown() {
		await watch.stop();
		await board.shutdown();
	}}), [board, watch, anyActive]);
	const startRun = async (instruction: string, itemIds: string[]) => {
		if (anyActive) return {ok: false as const, text: 'A run is already active; x cancels it.'};
		return board.start(instruction, itemIds).catch((error: unknown) => ({ok: false as const, text: `The runs could not start: ${(error as Error).message}`}));
	};

	const cancelBoardRun = (position: number) => {
		const chosen = board.board.runs[position];
		if (chosen) board.cancel(chosen.runId);
	};

	const cancelRun = (position: number | null) => (position === null ? board.cancelAll() : cancelBoardRun(position));

	const quit = useQuit(runs, (text, tone) => dispatchRef.dispatch?.({type: 'say', text, tone: tone ?? 'info'}));
	const events = useEvents({
		store,
		channelId: channel.id,
		after: summary.latest_sequence,
		active: anyActive,
		onEvents: storeEvents => dispatchRef.dispatch?.({type: 'storeEvents', events: storeEvents, at: Date.now()}),
		onNotice: (text, tone) => dispatchRef.dispatch?.({type: 'say', text, tone}),
		retryMaxMs: pollRetryMaxMs,
	});

	const {state, dispatch, current, rowsShown} = useScreen(
		// Made before the screen mounted, with its first listing answered (first-screen.ts); else here.
		() => start ?? openingScreen({channel, summary, others: otherIds.length === 0 ? [] : undefined, config, size, batch}),
		{store, stateDir, startRun, cancelRun, quit, pollEvents: events.poll, configFile: config.path, switchChannel: onSwitchChannel, board: {
			cancel: cancelBoardRun,
			cancelAll: board.cancelAll,
			toggleWatch: watch.toggle,
		}},
	);
	// The schema as the machine holds it: read again on a channel.updated event or after `:channel`.
	const {fields} = state;
	dispatchRef.dispatch = dispatch;
	screenRef.current = current;

	useEffect(() => {
		dispatch({type: 'runState', active: anyActive, exists: board.board.runs.length > 0});
	}, [dispatch, anyActive, board.board.runs.length > 0]); // whether any run exists, not how many: the effect re-runs when that flips
	useEffect(() => {
		dispatch({type: 'boardState', runs: board.board.runs.length, watch: watch.on});
	}, [dispatch, board.board.runs.length, watch.on]);
	useEffect(() => {
		dispatch({type: 'resize', columns: size.columns, rows: size.rows});
	}, [dispatch, size.columns, size.rows]);
	// The write's own outcome replaces the notice once the lock is free.
	useEffect(() => lockWaits?.subscribe(() => dispatch({type: 'say', text: LOCK_WAIT_FOOTER, tone: 'warn'})), [dispatch, lockWaits]);
	// A live sync round moves the header's last pull and what waits (its changes reach the list as the channel's events); a failure is said.
	useEffect(() => syncNotices?.subscribe(notice => {
		if (notice.kind === 'round') {
			dispatch({type: 'syncProgress', progress: null});
			void readSyncMarks(store, channel.id).then(sync => dispatch({type: 'syncState', sync}), () => undefined);
		} else if (notice.kind === 'progress') {
			dispatch({type: 'syncProgress', progress: notice.progress});
		} else dispatch({type: 'say', text: `Sync: ${notice.message}${notice.fatal ? ' (live sync stopped)' : ' (retrying)'}`, tone: notice.fatal ? 'error' : 'warn'});
	}), [dispatch, syncNotices, store, channel.id]);
	useEffect(() => {
		// The header's follow-up and proposal counts, read once the first rows are up (use-screen.ts).
		if (!rowsShown) return;
		void store.countOpenFollowUps(channel.id, 'refused').then(count => dispatch({type: 'followUpCount', count}), () => undefined);
		void store.proposals.countOpen(channel.id).then(count => dispatch({type: 'proposalCount', count}), () => undefined);
	}, [dispatch, store, channel.id, rowsShown]);
	// The other channels' fields, for the config's problems only they can tell (`:problems`), read once the first rows are up.
	const othersChecked = useRef(otherIds.length === 0);
	useEffect(() => {
		if (!rowsShown || othersChecked.current) return;
		othersChecked.current = true;
		void readOtherChannels(store, otherIds).then(others => dispatch({type: 'configProblemsChecked', problems: configProblems(config, [channel, ...others])}), () => undefined);
	}, [dispatch, store, channel, otherIds, config, rowsShown]);
	// The views' kept column choices (`|`, features/columns), read once the first rows are up.
	useEffect(() => {
		if (!rowsShown) return;
		void readColumnChoices(stateDir, channel.id).then(choices => dispatch({type: 'columnChoicesLoaded', choices}), () => undefined);
	}, [dispatch, stateDir, channel.id, rowsShown]);
	// The record pane's markdown lexer loads once the first rows are up, so the first Enter finds it.
	useEffect(() => {
		if (!rowsShown) return;
		const timer = setTimeout(() => void loadMarkdown().catch(() => undefined), 50);
		return () => clearTimeout(timer);
	}, [rowsShown]);
	// "Changed just now" markers fade, each when it expires (a timer set earlier would find none
	// expired, leave the state as it was, and never be set again).
	useEffect(() => {
		if (state.changed.size === 0) return;
		const next = Math.min(...state.changed.values());
		const timer = setTimeout(() => dispatch({type: 'expire', at: Date.now()}), Math.max(0, next - Date.now()) + 50);
		return () => clearTimeout(timer);
	}, [dispatch, state.changed]);

	const {frame, now} = useClock(anyActive);
	useKeys((input, key) => {
		dispatch({type: 'key', input, key, at: Date.now()});
	}, () => scopeOf(current().overlay) === 'text');

	const {overlay, pane, window: win} = state;
	const layout = screenLayout(size, overlay, pane);
	// The ticket column is as wide as the loaded tickets (format.ts).
	const keyWidth = useMemo(() => valuesWidth(nameField(fields), win.rows), [fields, win.rows]);
	// The active view's own columns when the config chooses them (model/views.ts).
	const shownView = activeView(state.views, state.query);
	const columns = useMemo(() => chooseColumns(columnFields(fields, shownView), layout.listWidth - LIST_GUTTER, 1, keyWidth), [fields, shownView, layout.listWidth, keyWidth]);
	const row = rowAt(win);
	const changedIds = useMemo(() => new Set(state.changed.keys()), [state.changed]);
	const detail = state.detail && row && state.detail.id === row.id ? state.detail : {item: null, error: null, flagged: new Set<string>()};
	const scopeText = describeQuery(state.query, fields);
	const runsShown = {runs: board.board.runs, views: board.board.views, latest: latestView, watch: watch.status};
	// The run pane shows the board (not its keys) while the last run started was a fan-out or watch mode is on.
	const listPane = pane === 'run' && state.boardShown && (overlay.kind === 'none' || overlay.kind === 'confirm')
		? <RunsBoard runs={runsShown.runs} views={runsShown.views} cursor={state.board.cursor} focused={state.board.focused} interactive={false} watch={runsShown.watch} now={now} frame={frame} width={layout.paneWidth} height={layout.paneHeight}/>
		: paneFor({pane, fields, run: latestView, now, frame, detail, names: relationNames(fields, win.rows), scroll: state.paneScroll, width: layout.paneWidth, height: layout.paneHeight});
	const context: ViewContext = {state, layout, pane: listPane, runs: runsShown, now, frame};
	// The open overlay's prompt on the footer's prompt line, when its view draws there (registry.ts).
	const view = sliceOf(overlay.kind).view;
	const prompt = view?.place === 'prompt' ? view.render(overlay as never, context) : undefined;
	const promptNote = view?.place === 'prompt' ? view.note?.(overlay as never) ?? null : null;
	let empty = scopeText ? `Nothing matches ${scopeText}. Esc clears.` : 'This channel has no records yet.';
	if (state.loading === 'list') empty = 'Loading…';

	return (
		<Box flexDirection="column" width={size.columns} height={size.rows - 1}>
			<Header
				width={size.columns}
				channel={channel.name}
				total={state.total}
				position={row ? (positionOf(state) ?? -1) + 1 : 0}
				loaded={win.rows.length}
				marked={state.marks.size}
				scope={scopeText || null}
				followUps={state.followUpCount}
				proposals={state.proposalCount}
				run={state.boardShown ? boardStatus(board.board.runs, watch.on) : runStatus(latestView, now, frame)}
				newItems={state.newItems}
				live={events.live}
				sync={state.sync ? {text: syncSummary(state.sync, now, state.syncProgress), conflicts: state.sync.conflicts} : null}
			/>
			{/* A queue's own tab (Follow-ups, Review) counts its open entries, the header's count: what a person resolves (model/views.ts). */}
			<Tabs width={size.columns} views={state.views} active={state.query.view} counts={tabCounts(state.views, state.viewCounts, {followUps: state.followUpCount, proposals: state.proposalCount})} sort={state.query.sort}/>
			<Box height={layout.bodyHeight} flexDirection="column">
				<Body
					overlay={overlay}
					context={context}
					list={{rows: win.rows, columns, top: win.top, cursor: win.cursor, marks: state.marks, changed: changedIds, sync: state.sync, empty, names: relationNames(fields, win.rows)}}
				/>
			</Box>
			<Footer width={size.columns} hints={withHotkeys(hintsFor(scopeOf(overlay)), scopeOf(overlay) === 'list' ? hotkeyHint(state.hotkeys, fields) : null)} message={state.message} prompt={prompt} promptNote={promptNote}/>
		</Box>
	);
}
