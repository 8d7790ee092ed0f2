import {Box, Text} from '#ink';
import {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import {SqliteAsyncStore, type Field, type Store} from '../../store/index.js';
import {resolveStateDir} from '../codex/paths.js';
import type {RunResult} from '../codex/runner.js';
import {counted} from '../text/format.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {Body} from './components/body.js';
import {Footer} from './components/footer.js';
import {Header} from './components/header.js';
import {LIST_GUTTER} from './components/list.js';
import {paneFor} from './components/pane.js';
import {TextField} from './components/text-field.js';
import {shortValue} from './edit.js';
import {chooseColumns, nameField, titleField} from './format.js';
import {useClock} from './hooks/use-clock.js';
import {useDetail} from './hooks/use-detail.js';
import {useEdit} from './hooks/use-edit.js';
import {useEvents} from './hooks/use-events.js';
import {useFollowUps} from './hooks/use-followups.js';
import {useKeyQueue} from './hooks/use-keys.js';
import {useLiveRows} from './hooks/use-live-rows.js';
import {usePage, type ListQuery} from './hooks/use-page.js';
import {useQueueActions} from './hooks/use-queue-actions.js';
import {useQuit} from './hooks/use-quit.js';
import {useRun, type RunSettings, type RunView} from './hooks/use-run.js';
import {useRunHistory} from './hooks/use-run-history.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {routeKey, scopeOf} from './input/route.js';
import {hintsFor} from './keys.js';
import {screenLayout} from './layout.js';
import {runFinishMessage, runStatus} from './run-status.js';
import {tuiRunSettings} from './run-settings.js';
import {NONE, type Message, type Overlay, type Pane, type Tone, type UndoEntry} from './state.js';
import {useTheme} from './theme.js';
import {absoluteIndex, rowAt} from './window.js';

export {defaultInstruction} from './input/list.js';

export type ScreenProps = {
	store: Store;
	channelId: string;
	dbPath: string;
	run: Omit<RunSettings, 'dbPath' | 'channelId'>;
	/** The longest wait between retries of a failed event poll (ms); 30 s unless set. */
	pollRetryMaxMs?: number;
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

/** The triage screen of one channel: header, list, pane, footer, and every key. */
export function Screen({store, channelId, dbPath, run: runOptions, pollRetryMaxMs}: ScreenProps) {
	const theme = useTheme();
	const size = useTerminalSize();
	const channel = useMemo(() => store.getChannel(channelId), [store, channelId]);
	const {fields} = channel;
	const nameKey = useMemo(() => nameField(fields)?.key, [fields]);
	const titleKey = useMemo(() => titleField(fields)?.key, [fields]);
	const [summary] = useState(() => store.channelSummary(channelId));
	const [message, setMessageState] = useState<Message | null>(null);
	const say = useCallback((text: string, tone: Tone = 'info') => {
		setMessageState({text, tone});
	}, []);
	const [overlay, setOverlay] = useState<Overlay>(NONE);
	const [pane, setPane] = useState<Pane>('none');
	// Lines the record pane is scrolled by; a new record or pane starts at the top.
	const [paneScroll, setPaneScroll] = useState(0);
	const [marks, setMarks] = useState<ReadonlySet<string>>(new Set());
	const undo = useRef<UndoEntry[]>([]);
	const stateDir = useMemo(() => runOptions.stateDir ?? resolveStateDir(runOptions.env ?? process.env), [runOptions.stateDir, runOptions.env]);

	const layout = screenLayout(size, overlay, pane);
	const page = usePage(store, channelId, {height: layout.listHeight - 1, onError: text => say(sanitize(text), 'error')});
	const {window: win} = page;
	const columns = useMemo(() => chooseColumns(fields, layout.listWidth - LIST_GUTTER), [fields, layout.listWidth]);
	const row = rowAt(win);
	const followUps = useFollowUps(store, channelId);
	const live = useLiveRows({store, channelId, fields, page, followUps, initialTotal: summary?.item_count ?? 0});

	const nameOf = useCallback((values: Record<string, unknown> | undefined, id: string) => {
		const name = nameKey ? values?.[nameKey] : undefined;
		return typeof name === 'string' && name ? sanitize(name) : sanitize(id);
	}, [nameKey]);

	const onRunFinish = useCallback((result: RunResult | null, view: RunView) => {
		followUps.refreshCount();
		if (!result) say(view.crash ?? 'The run failed.', 'error');
		else {
			const {text, tone} = runFinishMessage(result);
			say(text, tone);
		}
	}, [followUps, say]);

	const asyncStore = useMemo(() => new SqliteAsyncStore(store), [store]);
	const run = useRun(tuiRunSettings(runOptions, dbPath, channelId), asyncStore, onRunFinish);
	const events = useEvents({store, channelId, after: summary?.latest_sequence ?? 0, active: run.active, onEvents: live.onEvents, onNotice: (text, tone) => say(sanitize(text), tone), retryMaxMs: pollRetryMaxMs});
	const {frame, now} = useClock(run.active);
	const detail = useDetail(store, channelId, pane, row, live.detailTick);

	useEffect(() => {
		setPaneScroll(0);
	}, [pane, row?.id]);

	const quit = useQuit(run, say);

	const {clearNewItems} = live;
	const relist = useCallback((query: ListQuery, note?: string) => {
		if (page.relist(query)) {
			clearNewItems();
			if (note) say(note);
		}
	}, [page, say, clearNewItems]);

	const startRun = useCallback((instruction: string, itemIds: string[]) => {
		if (!instruction.trim()) {
			say('The instruction is empty; nothing was started.', 'warn');
			return;
		}

		// Marks stay: starting, finishing or cancelling a run never clears them; only the person does.
		if (run.start(instruction, itemIds)) {
			setPane('run');
			setOverlay(NONE);
			say(`Codex started on ${counted(itemIds.length, 'record')} · x cancels`);
		}
	}, [run, say]);

	const pollEvents = events.poll;
	const edit = useEdit({store, channelId, fields, row, nameOf, say, setOverlay, live, followUps, pollEvents, undo});
	const queue = useQueueActions({store, channelId, fields, overlay, setOverlay, followUps, live, nameOf, say, pollEvents, undo});
	const {history, openHistory, showHistory} = useRunHistory(stateDir, asyncStore, overlay, setOverlay);

	const scope = scopeOf(overlay);
	useKeyQueue((input, key) => {
		routeKey({store, fields, overlay, setOverlay, say, page, pageRows: layout.listHeight - 1, pane, setPane, marks, setMarks, setPaneScroll, run, followUps, history, relist, quit, startRun, showHistory, edit, queue}, input, key);
	}, () => scopeOf(overlay) === 'text');

	const scopeText = describeQuery(page.query, fields);
	const paneNode = paneFor({overlay, pane, fields, filter: page.query.filter, nameOfRow: id => nameOf(win.rows.find(candidate => candidate.id === id)?.preview, id), run: run.run, now, frame, detail, scroll: paneScroll, width: layout.paneWidth, height: layout.paneHeight});
	let prompt;
	if (overlay.kind === 'search') prompt = <TextField label="/ " state={overlay.text} placeholder="search the text fields · Enter · Esc"/>;
	else if (overlay.kind === 'confirm') prompt = <Text bold color={theme.color('yellow')} wrap="truncate-end">{overlay.question}</Text>;

	return (
		<Box flexDirection="column" width={size.columns} height={size.rows - 1}>
			<Header
				width={size.columns}
				channel={channel.name}
				total={live.total}
				position={row ? absoluteIndex(win, win.cursor) + 1 : 0}
				loaded={win.rows.length}
				marked={marks.size}
				scope={scopeText || null}
				followUps={followUps.count}
				run={runStatus(run.run, now, frame)}
				newItems={live.newItems}
				live={events.live}
			/>
			<Box height={layout.bodyHeight} flexDirection="column">
				<Body
					overlay={overlay}
					layout={layout}
					queue={{entry: queue.queueEntry, total: followUps.queue.length, field: queue.queueField, nameKeys: [nameKey, titleKey].filter((key): key is string => key !== undefined)}}
					history={{runs: history, open: openHistory}}
					list={{rows: win.rows, columns, top: win.top, cursor: win.cursor, marks, changed: live.changedIds, empty: scopeText ? `Nothing matches ${scopeText}. Esc clears.` : 'This channel has no records yet.'}}
					pane={paneNode}
				/>
			</Box>
			<Footer width={size.columns} hints={hintsFor(scope)} message={message} prompt={prompt}/>
		</Box>
	);
}
