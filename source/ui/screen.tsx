import {Box, Text, type Key} from '#ink';
import {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import type {Field, Store} from '../../store/index.js';
import {resolveStateDir} from '../codex/paths.js';
import type {RunResult} from '../codex/runner.js';
import {Body} from './components/body.js';
import {Footer} from './components/footer.js';
import {Header} from './components/header.js';
import {LIST_GUTTER} from './components/list.js';
import {paneFor} from './components/pane.js';
import {queueOptions} from './components/queue.js';
import {TextField} from './components/text-field.js';
import {editableFields, filterableFields, optionChoices, shortValue} from './edit.js';
import {chooseColumns, nameField, parseTyped, titleField} from './format.js';
import {useClock} from './hooks/use-clock.js';
import {useDetail} from './hooks/use-detail.js';
import {useEdit} from './hooks/use-edit.js';
import {useEvents} from './hooks/use-events.js';
import {useFollowUps} from './hooks/use-followups.js';
import {useKeyQueue} from './hooks/use-keys.js';
import {useLiveRows} from './hooks/use-live-rows.js';
import {usePage, type ListQuery} from './hooks/use-page.js';
import {typingFor, useQueueActions} from './hooks/use-queue-actions.js';
import {useQuit} from './hooks/use-quit.js';
import {useRun, type RunSettings, type RunView} from './hooks/use-run.js';
import {useRunHistory} from './hooks/use-run-history.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {actionFor, hintsFor, keyName, type Scope} from './keys.js';
import {screenLayout} from './layout.js';
import {runFinishMessage, runStatus} from './run-status.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {NONE, type Message, type Overlay, type Pane, type Tone, type UndoEntry} from './state.js';
import {applyTextKey, textState, type TextState} from './text-input.js';
import {useTheme} from './theme.js';
import {absoluteIndex, rowAt} from './window.js';
import {counted} from '../text/format.js';

export type ScreenProps = {
	store: Store;
	channelId: string;
	dbPath: string;
	run: Omit<RunSettings, 'dbPath' | 'channelId'>;
};

/** Lines J and K scroll the record pane by. */
const PANE_SCROLL_STEP = 5;

/** The default instruction: triage the chosen records from what their text asks for. */
export function defaultInstruction(fields: Field[], count: number): string {
	const settable = fields.filter(field => field.type !== 'formula' && !field.is_unique && (field.type === 'select' || field.type === 'number' || field.type === 'date' || field.type === 'multi_select')).map(field => field.key);
	const what = count === 1 ? 'this record' : `these ${count} records`;
	return `Triage ${what}: read ${count === 1 ? 'it' : 'each one'} and set ${settable.join(', ') || 'its fields'} from what its text asks for, using only values the schema allows (option values, not labels). Where a wish does not fit the schema, do not guess: leave that field and say what you could not set and why.`;
}

function scopeOf(overlay: Overlay): Scope {
	switch (overlay.kind) {
		case 'none': return 'list';
		case 'help': return 'help';
		case 'search':
		case 'instruction': return 'text';
		case 'filter': return 'picker';
		case 'edit': return overlay.stage === 'text' ? 'text' : 'picker';
		case 'queue': return overlay.typing ? 'text' : (overlay.confirmDismiss ? 'confirm' : 'queue');
		case 'history': return 'history';
		case 'confirm': return 'confirm';
	}
}

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
export function Screen({store, channelId, dbPath, run: runOptions}: ScreenProps) {
	const theme = useTheme();
	const size = useTerminalSize();
	const channel = useMemo(() => store.getChannel(channelId), [store, channelId]);
	const {fields} = channel;
	const nameKey = useMemo(() => nameField(fields)?.key, [fields]);
	const titleKey = useMemo(() => titleField(fields)?.key, [fields]);
	const [summary] = useState(() => store.listChannels().find(candidate => candidate.id === channelId));
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
	const {bodyHeight, paneWidth, paneHeight, listWidth, listHeight} = layout;

	const page = usePage(store, channelId, {height: listHeight - 1, onError: text => say(sanitize(text), 'error')});
	const {window: win} = page;
	const columns = useMemo(() => chooseColumns(fields, listWidth - LIST_GUTTER), [fields, listWidth]);
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

	const run = useRun({...runOptions, dbPath, channelId}, store.db, onRunFinish);

	const events = useEvents({
		store,
		channelId,
		after: summary?.latest_sequence ?? 0,
		active: run.active,
		onEvents: live.onEvents,
		onFail: text => say(sanitize(text), 'error'),
	});

	const {frame, now} = useClock(run.active);
	const detail = useDetail(store, channelId, pane, row, live.detailTick);

	useEffect(() => {
		setPaneScroll(0);
	}, [pane, row?.id]);

	// ---- actions ---------------------------------------------------------------------------

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

		if (run.start(instruction, itemIds)) {
			setPane('run');
			setMarks(new Set());
			setOverlay(NONE);
			say(`Codex started on ${counted(itemIds.length, 'record')} · x cancels`);
		}
	}, [run, say]);

	const pollEvents = events.poll;
	const {openEdit, chooseField, submitEdit, undoLast} = useEdit({store, channelId, fields, row, nameOf, say, setOverlay, live, followUps, pollEvents, undo});
	const {queueEntry, queueField, openQueue, resolveQueue, dismissQueueEntry} = useQueueActions({store, channelId, fields, overlay, setOverlay, followUps, live, nameOf, say, pollEvents, undo});
	const {history, openHistory, showHistory} = useRunHistory(stateDir, store.db, overlay, setOverlay);

	// ---- the key router --------------------------------------------------------------------

	const scope = scopeOf(overlay);
	const height = listHeight - 1;

	const onList = (input: string, key: Key) => {
		const action = actionFor('list', input, key);
		switch (action) {
			case 'down': { page.move(1); break; }
			case 'up': { page.move(-1); break; }
			case 'pageDown': { page.move(Math.max(1, height - 1)); break; }
			case 'pageUp': { page.move(-Math.max(1, height - 1)); break; }
			case 'top': {
				if (win.cursor === 0 && win.firstPage > 0) relist(page.query, 'Back to the newest records.');
				else page.moveTo(0);
				break;
			}

			case 'bottom': { page.moveTo(win.rows.length - 1); break; }
			case 'open': { if (row) setPane('detail'); break; }
			case 'back': {
				if (pane !== 'none') setPane('none');
				else if (page.query.search || page.query.filter) relist({}, 'Search and filter cleared.');
				break;
			}

			case 'search': { setOverlay({kind: 'search', text: textState(page.query.search ?? '')}); break; }
			case 'filter': { setOverlay({kind: 'filter', stage: 'field', cursor: 0, field: null}); break; }
			case 'mark': {
				if (!row) break;
				setMarks(previous => {
					const next = new Set(previous);
					if (next.has(row.id)) next.delete(row.id);
					else next.add(row.id);
					return next;
				});
				page.move(1);
				break;
			}

			case 'markAll': {
				const all = win.rows.every(candidate => marks.has(candidate.id));
				setMarks(all ? new Set() : new Set([...marks, ...win.rows.map(candidate => candidate.id)]));
				say(all ? 'All marks cleared.' : `${win.rows.length} loaded rows marked.`);
				break;
			}

			case 'edit': { openEdit(); break; }
			case 'undo': { undoLast(); break; }
			case 'run': {
				if (run.active) {
					say('A run is already active; x cancels it.', 'warn');
					break;
				}

				const itemIds = marks.size > 0 ? [...marks] : (row ? [row.id] : []);
				if (itemIds.length === 0) {
					say('No record to run on.', 'warn');
					break;
				}

				setOverlay({kind: 'instruction', text: textState(defaultInstruction(fields, itemIds.length)), itemIds});
				break;
			}

			case 'cancelRun': {
				if (run.active) setOverlay({kind: 'confirm', question: 'Cancel the Codex run? Codex and every process it started are stopped. y/n', action: 'cancelRun'});
				else say('No run is active.', 'warn');
				break;
			}

			case 'followUps': { openQueue(); break; }
			case 'history': { showHistory(); break; }
			case 'togglePane': {
				if (pane === 'run') setPane(row ? 'detail' : 'none');
				else if (run.run) setPane('run');
				else if (row) setPane('detail');
				break;
			}

			case 'scrollPaneDown': { setPaneScroll(lines => lines + PANE_SCROLL_STEP); break; }
			case 'scrollPaneUp': { setPaneScroll(lines => Math.max(0, lines - PANE_SCROLL_STEP)); break; }
			case 'reload': { relist(page.query, 'Reloaded from the newest record.'); break; }
			case 'help': { setOverlay({kind: 'help'}); break; }
			case 'quit': {
				if (run.active) setOverlay({kind: 'confirm', question: 'A Codex run is active. Cancel it and quit? y/n', action: 'quit'});
				else quit();
				break;
			}

			default: { break; }
		}
	};

	const onPicker = (input: string, key: Key) => {
		const action = actionFor('picker', input, key);
		if (overlay.kind === 'filter') {
			const filterFields = filterableFields(fields);
			const choicesLength = overlay.stage === 'field' ? filterFields.length + 1 : optionChoices(overlay.field!).length;
			if (action === 'down') setOverlay({...overlay, cursor: (overlay.cursor + 1) % choicesLength});
			else if (action === 'up') setOverlay({...overlay, cursor: (overlay.cursor - 1 + choicesLength) % choicesLength});
			else if (action === 'cancel') setOverlay(overlay.stage === 'value' ? {...overlay, stage: 'field', cursor: 0} : NONE);
			else if (action === 'choose') {
				if (overlay.stage === 'field') {
					const field = filterFields[overlay.cursor];
					if (!field) {
						setOverlay(NONE);
						relist({search: page.query.search}, 'Filter cleared.');
					} else {
						setOverlay({kind: 'filter', stage: 'value', cursor: 0, field});
					}
				} else {
					const field = overlay.field!;
					const choice = optionChoices(field)[overlay.cursor]!;
					const filter = {...page.query.filter};
					if (choice.value === null) delete filter[field.key];
					else filter[field.key] = choice.value;
					setOverlay(NONE);
					relist({...page.query, filter: Object.keys(filter).length > 0 ? filter : undefined}, choice.value === null ? `Filter on ${sanitize(field.label)} cleared.` : `Showing ${sanitize(field.label)} = ${shortValue(field, choice.value)}.`);
				}
			}

			return;
		}

		if (overlay.kind !== 'edit') return;
		if (overlay.stage === 'field') {
			const choices = editableFields(fields);
			if (action === 'down') setOverlay({...overlay, fieldCursor: (overlay.fieldCursor + 1) % choices.length});
			else if (action === 'up') setOverlay({...overlay, fieldCursor: (overlay.fieldCursor - 1 + choices.length) % choices.length});
			else if (action === 'cancel') setOverlay(NONE);
			else if (action === 'choose') chooseField(overlay, choices[overlay.fieldCursor]!);
			return;
		}

		const field = overlay.field!;
		const choices = optionChoices(field, overlay.chosen);
		if (action === 'down') setOverlay({...overlay, optionCursor: (overlay.optionCursor + 1) % choices.length});
		else if (action === 'up') setOverlay({...overlay, optionCursor: (overlay.optionCursor - 1 + choices.length) % choices.length});
		else if (action === 'cancel') setOverlay({...overlay, stage: 'field', problem: null, conflict: null});
		else if (action === 'toggle' && field.type === 'multi_select') {
			const value = choices[overlay.optionCursor]!.value as string;
			setOverlay({...overlay, chosen: overlay.chosen.includes(value) ? overlay.chosen.filter(entry => entry !== value) : [...overlay.chosen, value]});
		} else if (action === 'choose') {
			if (field.type === 'multi_select') submitEdit(overlay, overlay.chosen);
			else submitEdit(overlay, choices[overlay.optionCursor]!.value);
		}
	};

	const onText = (input: string, key: Key) => {
		const action = actionFor('text', input, key);
		const edit = (text: TextState) => applyTextKey(text, input, key);
		switch (overlay.kind) {
			case 'search': {
				if (action === 'cancel') setOverlay(NONE);
				else if (action === 'submit') {
					const search = overlay.text.value.slice(0, 200);
					setOverlay(NONE);
					say(search ? `Searching for "${sanitize(search)}"…` : 'Search cleared.');
					setTimeout(() => {
						relist({...page.query, search: search || undefined}, search ? `Search: "${sanitize(search)}" · Esc clears` : 'Search cleared.');
					}, 30);
				} else setOverlay({...overlay, text: edit(overlay.text)});
				break;
			}

			case 'instruction': {
				if (action === 'cancel') setOverlay(NONE);
				else if (action === 'submit') startRun(overlay.text.value, overlay.itemIds);
				else setOverlay({...overlay, text: edit(overlay.text)});
				break;
			}

			case 'edit': {
				if (action === 'cancel') setOverlay({...overlay, stage: 'field', problem: null, conflict: null});
				else if (action === 'submit') submitEdit(overlay, parseTyped(overlay.field!, overlay.text.value));
				else setOverlay({...overlay, text: edit(overlay.text)});
				break;
			}

			case 'queue': {
				if (!overlay.typing) break;
				if (action === 'cancel') setOverlay({...overlay, typing: null});
				else if (action === 'submit') resolveQueue(queueField ? parseTyped(queueField, overlay.typing.value) : overlay.typing.value);
				else setOverlay({...overlay, typing: edit(overlay.typing)});
				break;
			}

			default: { break; }
		}
	};

	const onQueue = (input: string, key: Key) => {
		if (overlay.kind !== 'queue') return;
		const action = actionFor('queue', input, key);
		const options = queueEntry ? queueOptions(queueEntry, queueField) : [];
		const count = followUps.queue.length;
		switch (action) {
			case 'down': { if (options.length > 0) setOverlay({...overlay, optionCursor: (overlay.optionCursor + 1) % options.length}); break; }
			case 'up': { if (options.length > 0) setOverlay({...overlay, optionCursor: (overlay.optionCursor - 1 + options.length) % options.length}); break; }
			case 'choose': {
				if (!queueEntry) break;
				if (options.length > 0) resolveQueue(options[overlay.optionCursor]!.value);
				else setOverlay({...overlay, typing: typingFor(queueEntry), problem: null});
				break;
			}

			case 'type': {
				if (queueEntry) setOverlay({...overlay, typing: typingFor(queueEntry), problem: null});
				break;
			}

			case 'dismiss': { if (queueEntry) setOverlay({...overlay, confirmDismiss: true}); break; }
			case 'skip': { if (count > 0) setOverlay({...overlay, index: (overlay.index + 1) % count, optionCursor: 0, problem: null}); break; }
			case 'back': { if (count > 0) setOverlay({...overlay, index: (overlay.index - 1 + count) % count, optionCursor: 0, problem: null}); break; }
			case 'cancel': { setOverlay(NONE); followUps.refreshCount(); break; }
			default: { break; }
		}
	};

	const onConfirm = (input: string, key: Key) => {
		const action = actionFor('confirm', input, key);
		if (overlay.kind === 'queue' && overlay.confirmDismiss) {
			if (action === 'yes' && queueEntry) {
				dismissQueueEntry();
			} else if (action === 'no') {
				setOverlay({...overlay, confirmDismiss: false});
			}

			return;
		}

		if (overlay.kind !== 'confirm') return;
		if (action === 'yes') {
			setOverlay(NONE);
			if (overlay.action === 'quit') quit();
			else if (run.cancel()) say('Cancelling the run…', 'warn');
		} else if (action === 'no') {
			setOverlay(NONE);
		}
	};

	const onHistory = (input: string, key: Key) => {
		if (overlay.kind !== 'history') return;
		const action = actionFor('history', input, key);
		if (action === 'cancel') setOverlay(overlay.open ? {...overlay, open: false} : NONE);
		else if (action === 'down' && !overlay.open) setOverlay({...overlay, cursor: Math.min(history.length - 1, overlay.cursor + 1)});
		else if (action === 'up' && !overlay.open) setOverlay({...overlay, cursor: Math.max(0, overlay.cursor - 1)});
		else if (action === 'open' && history[overlay.cursor]) setOverlay({...overlay, open: true});
	};

	useKeyQueue((input, key) => {
		if (keyName(input, key) === 'ctrl+c') {
			if (run.active && overlay.kind !== 'confirm') setOverlay({kind: 'confirm', question: 'A Codex run is active. Cancel it and quit? y/n', action: 'quit'});
			else quit();
			return;
		}

		switch (scope) {
			case 'list': { onList(input, key); break; }
			case 'picker': { onPicker(input, key); break; }
			case 'text': { onText(input, key); break; }
			case 'queue': { onQueue(input, key); break; }
			case 'confirm': { onConfirm(input, key); break; }
			case 'history': { onHistory(input, key); break; }
			case 'help': { if (actionFor('help', input, key) === 'cancel') setOverlay(NONE); break; }
			default: { break; }
		}
	}, () => scopeOf(overlay) === 'text');

	// ---- render ----------------------------------------------------------------------------

	const scopeText = describeQuery(page.query, fields);
	const paneNode = paneFor({overlay, pane, fields, filter: page.query.filter, nameOfRow: id => nameOf(win.rows.find(candidate => candidate.id === id)?.preview, id), run: run.run, now, frame, detail, scroll: paneScroll, width: paneWidth, height: paneHeight});

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
				live={!events.stopped}
			/>
			<Box height={bodyHeight} flexDirection="column">
				<Body
					overlay={overlay}
					layout={layout}
					queue={{entry: queueEntry, total: followUps.queue.length, field: queueField, nameKeys: [nameKey, titleKey].filter((key): key is string => key !== undefined)}}
					history={{runs: history, open: openHistory}}
					list={{rows: win.rows, columns, top: win.top, cursor: win.cursor, marks, changed: live.changedIds, empty: scopeText ? `Nothing matches ${scopeText}. Esc clears.` : 'This channel has no records yet.'}}
					pane={paneNode}
				/>
			</Box>
			<Footer width={size.columns} hints={hintsFor(scope)} message={message} prompt={prompt}/>
		</Box>
	);
}
