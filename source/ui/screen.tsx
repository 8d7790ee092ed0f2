import {Box, Text, useApp, type Key} from '#ink';
import {useCallback, useEffect, useMemo, useRef, useState} from 'react';
import type {Field, FollowUp, Item, Store, StoreEvent} from '../../store/index.js';
import {resolveStateDir} from '../codex/paths.js';
import type {RunResult} from '../codex/runner.js';
import {Body} from './components/body.js';
import {Footer} from './components/footer.js';
import {Header} from './components/header.js';
import {LIST_GUTTER} from './components/list.js';
import {paneFor} from './components/pane.js';
import {queueOptions} from './components/queue.js';
import {TextField} from './components/text-field.js';
import {editField, editableFields, filterableFields, isPicked, optionChoices, shortValue, describeChanges, problemNotes} from './edit.js';
import {chooseColumns, editableText, nameField, parseTyped, previewFromValues, titleField} from './format.js';
import type {RunSummary} from './history.js';
import type {Step} from '../codex/steps.js';
import {useEvents} from './hooks/use-events.js';
import {useFollowUps} from './hooks/use-followups.js';
import {useKeyQueue} from './hooks/use-keys.js';
import {usePage, type ListQuery} from './hooks/use-page.js';
import {useRun, type RunSettings, type RunView} from './hooks/use-run.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {actionFor, hintsFor, keyName, type Scope} from './keys.js';
import {screenLayout} from './layout.js';
import {runFinishMessage, runStatus} from './run-status.js';
import {sanitize, sanitizeValue} from '../text/sanitize.js';
import {NONE, type EditOverlay, type Message, type Overlay, type Pane, type Tone, type UndoEntry} from './state.js';
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

const CHANGED_MS = 3000;
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
	const {exit} = useApp();
	const theme = useTheme();
	const size = useTerminalSize();
	const channel = useMemo(() => store.getChannel(channelId), [store, channelId]);
	const {fields} = channel;
	const nameKey = useMemo(() => nameField(fields)?.key, [fields]);
	const titleKey = useMemo(() => titleField(fields)?.key, [fields]);
	const [summary] = useState(() => store.listChannels().find(candidate => candidate.id === channelId));
	const [total, setTotal] = useState(summary?.item_count ?? 0);
	const [newItems, setNewItems] = useState(0);
	const [message, setMessageState] = useState<Message | null>(null);
	const say = useCallback((text: string, tone: Tone = 'info') => {
		setMessageState({text, tone});
	}, []);
	const [overlay, setOverlay] = useState<Overlay>(NONE);
	const [pane, setPane] = useState<Pane>('none');
	// Lines the record pane is scrolled by; a new record or pane starts at the top.
	const [paneScroll, setPaneScroll] = useState(0);
	const [marks, setMarks] = useState<ReadonlySet<string>>(new Set());
	const [changed, setChanged] = useState<ReadonlyMap<string, number>>(new Map());
	const [detailTick, setDetailTick] = useState(0);
	const [frame, setFrame] = useState(0);
	const [now, setNow] = useState(Date.now());
	const [history, setHistory] = useState<RunSummary[]>([]);
	const undo = useRef<UndoEntry[]>([]);
	const quitting = useRef(false);
	const stateDir = useMemo(() => runOptions.stateDir ?? resolveStateDir(runOptions.env ?? process.env), [runOptions.stateDir, runOptions.env]);

	const layout = screenLayout(size, overlay, pane);
	const {bodyHeight, paneWidth, paneHeight, listWidth, listHeight} = layout;

	const page = usePage(store, channelId, {height: listHeight - 1, onError: text => say(sanitize(text), 'error')});
	const {window: win} = page;
	const columns = useMemo(() => chooseColumns(fields, listWidth - LIST_GUTTER), [fields, listWidth]);
	const row = rowAt(win);
	const followUps = useFollowUps(store, channelId);

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

	// Live updates: rows change in place from the event log.
	const refreshRow = useCallback((id: string) => {
		let item: Item;
		try {
			item = store.readItem(channelId, id);
		} catch {
			page.patch(id, current => ({...current, deleted: true}));
			return;
		}

		page.patch(id, current => (current.version >= item.version && !current.deleted ? current : {...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
	}, [store, channelId, page, fields]);

	const onEvents = useCallback((events: StoreEvent[]) => {
		const touched = new Set<string>();
		let created = 0;
		let deleted = 0;
		for (const event of events) {
			if (event.type === 'item.created') created++;
			else if (event.type === 'item.deleted') {
				deleted++;
				page.patch(event.item_id, current => ({...current, deleted: true}));
			} else touched.add(event.item_id);
		}

		for (const id of touched) refreshRow(id);
		if (created || deleted) {
			setTotal(value => value + created - deleted);
			if (created) setNewItems(value => value + created);
		}

		if (touched.size > 0) {
			const until = Date.now() + CHANGED_MS;
			setChanged(previous => {
				const next = new Map(previous);
				for (const id of touched) next.set(id, until);
				return next;
			});
			setDetailTick(value => value + 1);
		}

		followUps.refreshCount();
	}, [page, refreshRow, followUps]);

	const events = useEvents({
		store,
		channelId,
		after: summary?.latest_sequence ?? 0,
		active: run.active,
		onEvents,
		onFail: text => say(sanitize(text), 'error'),
	});

	// Clock for the spinner and elapsed time, only while a run is active.
	useEffect(() => {
		if (!run.active) {
			setNow(Date.now());
			return;
		}

		const timer = setInterval(() => {
			setFrame(value => value + 1);
			setNow(Date.now());
		}, 120);
		return () => {
			clearInterval(timer);
		};
	}, [run.active]);

	// Expire the "changed just now" markers.
	useEffect(() => {
		if (changed.size === 0) return;
		const timer = setTimeout(() => {
			const at = Date.now();
			setChanged(previous => new Map([...previous].filter(([, until]) => until > at)));
		}, 1000);
		return () => {
			clearTimeout(timer);
		};
	}, [changed]);

	const changedIds = useMemo(() => new Set(changed.keys()), [changed]);

	// The detail pane follows the cursor.
	const detail = useMemo(() => {
		if (pane !== 'detail' || !row) return {item: null, error: null, flagged: new Set<string>()};
		try {
			const item = store.readItem(channelId, row.id);
			const flagged = new Set(store.listFollowUps({itemId: row.id, status: 'open'}).map(followUp => followUp.key));
			return {item, error: null, flagged};
		} catch (error) {
			return {item: null, error: (error as Error).message, flagged: new Set<string>()};
		}
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [pane, row?.id, row?.version, detailTick, store, channelId]);

	useEffect(() => {
		setPaneScroll(0);
	}, [pane, row?.id]);

	// ---- actions ---------------------------------------------------------------------------

	const quit = useCallback(() => {
		if (quitting.current) return;
		quitting.current = true;
		if (run.active) {
			say('Stopping Codex…', 'warn');
			void run.shutdown().then(() => {
				exit();
			});
		} else {
			exit();
		}
	}, [run, exit, say]);

	const relist = useCallback((query: ListQuery, note?: string) => {
		if (page.relist(query)) {
			setNewItems(0);
			if (note) say(note);
		}
	}, [page, say]);

	const openEdit = useCallback(() => {
		if (!row) return;
		try {
			const item = store.readItem(channelId, row.id);
			setOverlay({kind: 'edit', itemId: item.id, name: nameOf(item.values, item.id), version: item.version, values: item.values, stage: 'field', fieldCursor: 0, field: null, optionCursor: 0, chosen: [], text: textState(), problem: null, conflict: null});
		} catch (error) {
			say(sanitize((error as Error).message), 'error');
		}
	}, [row, store, channelId, nameOf, say]);

	const chooseField = useCallback((o: EditOverlay, field: Field) => {
		const value = o.values[field.key];
		if (isPicked(field)) {
			const choices = optionChoices(field);
			const at = choices.findIndex(choice => choice.value === value);
			setOverlay({...o, stage: 'options', field, optionCursor: Math.max(0, at), chosen: Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [], problem: null, conflict: null});
		} else {
			setOverlay({...o, stage: 'text', field, text: textState(editableText(field, value)), problem: null, conflict: null});
		}
	}, []);

	const submitEdit = useCallback((o: EditOverlay, value: unknown) => {
		const field = o.field!;
		const before = o.values[field.key];
		if (JSON.stringify(before ?? null) === JSON.stringify(value ?? null)) {
			setOverlay(NONE);
			say(`${o.name}: ${sanitize(field.label)} is already ${shortValue(field, value)}; nothing changed.`);
			return;
		}

		const outcome = editField(store, channelId, o.itemId, field.key, value, o.version, before);
		switch (outcome.kind) {
			case 'ok': {
				const {item} = outcome.result;
				page.patch(item.id, current => ({...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
				undo.current.push({itemId: item.id, name: o.name, key: field.key, before, after: value, version: item.version});
				if (undo.current.length > 100) undo.current.shift();
				setOverlay(NONE);
				setDetailTick(tick => tick + 1);
				followUps.refreshCount();
				say(`${o.name}: ${sanitize(field.label)} ${shortValue(field, before)} → ${shortValue(field, value)} (v${item.version}) · u undoes`, 'ok');
				events.poll();
				break;
			}

			case 'refused': {
				setOverlay({...o, problem: outcome.problem, conflict: null});
				say(`Not saved: ${sanitize(outcome.problem.message)}`, 'error');
				break;
			}

			case 'conflict': {
				if (outcome.item) {
					const {item} = outcome;
					page.patch(item.id, current => ({...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
					setOverlay({...o, version: item.version, values: item.values, conflict: outcome.changes, problem: null});
				} else {
					setOverlay(NONE);
				}

				setDetailTick(tick => tick + 1);
				say(`Not saved: ${o.name} changed since you opened it`, 'warn');
				break;
			}

			case 'error': {
				say(`Not saved: ${sanitize(outcome.message)}`, 'error');
				break;
			}
		}
	}, [store, channelId, page, fields, followUps, say, events]);

	const undoLast = useCallback(() => {
		const entry = undo.current.pop();
		if (!entry) {
			say('Nothing to undo: no edit of yours in this session.', 'warn');
			return;
		}

		const field = fields.find(candidate => candidate.key === entry.key)!;
		const apply = (version: number) => editField(store, channelId, entry.itemId, entry.key, entry.before, version, entry.after);
		let outcome = apply(entry.version);
		if (outcome.kind === 'conflict') {
			if (Object.hasOwn(outcome.changes, entry.key)) {
				const [line] = describeChanges(fields, {[entry.key]: outcome.changes[entry.key]!});
				say(`Not undone: ${entry.name} ${line} was changed by someone else since your edit.`, 'error');
				if (outcome.item) refreshRow(entry.itemId);
				return;
			}

			// Other fields changed since: ours did not, so undo on top of the current version.
			if (outcome.item) outcome = apply(outcome.item.version);
		}

		if (outcome.kind === 'ok') {
			const {item} = outcome.result;
			page.patch(item.id, current => ({...current, version: item.version, updated_at: item.updated_at, preview: previewFromValues(fields, item.values)}));
			setDetailTick(tick => tick + 1);
			followUps.refreshCount();
			say(`Undone: ${entry.name} ${sanitize(field.label)} back to ${shortValue(field, entry.before)} (v${item.version})`, 'ok');
		} else if (outcome.kind === 'refused') {
			say(`Not undone: ${sanitize(outcome.problem.message)}`, 'error');
		} else if (outcome.kind === 'conflict') {
			say(`Not undone: ${entry.name} keeps changing; try again.`, 'error');
		} else {
			say(`Not undone: ${sanitize(outcome.message)}`, 'error');
		}
	}, [fields, store, channelId, page, followUps, say, refreshRow]);

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

	// ---- the follow-up queue ---------------------------------------------------------------

	const queueEntry = useMemo(() => {
		if (overlay.kind !== 'queue') return null;
		const followUp: FollowUp | undefined = followUps.queue[overlay.index];
		return followUp ? followUps.entry(followUp) : null;
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [overlay.kind, overlay.kind === 'queue' ? overlay.index : -1, followUps.queue, detailTick]);
	const queueField = queueEntry ? fields.find(field => field.key === queueEntry.followUp.key) ?? null : null;

	const openQueue = useCallback(() => {
		const open = followUps.load();
		setOverlay({kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: false});
		if (open.length === 0) say('No open follow-ups.', 'ok');
	}, [followUps, say]);

	const resolveQueue = useCallback((value: unknown) => {
		if (overlay.kind !== 'queue' || !queueEntry) return;
		const {followUp, item} = queueEntry;
		if (!item) {
			say('That record is gone; dismiss the follow-up (d).', 'warn');
			return;
		}

		const field = queueField;
		const outcome = editField(store, channelId, item.id, followUp.key, value, item.version, item.values[followUp.key]);
		if (outcome.kind === 'ok') {
			const updated = outcome.result.item;
			page.patch(updated.id, current => ({...current, version: updated.version, updated_at: updated.updated_at, preview: previewFromValues(fields, updated.values)}));
			undo.current.push({itemId: updated.id, name: nameOf(item.values, item.id), key: followUp.key, before: outcome.before, after: value, version: updated.version});
			const open = followUps.load();
			const label = field ? sanitize(field.label) : sanitize(followUp.key);
			say(`${nameOf(item.values, item.id)}: ${label} set to ${field ? shortValue(field, value) : sanitizeValue(value)} · ${counted(open.length, 'follow-up')} left`, 'ok');
			setOverlay({...overlay, index: Math.min(overlay.index, Math.max(0, open.length - 1)), optionCursor: 0, typing: null, problem: null});
			events.poll();
		} else if (outcome.kind === 'refused') {
			setOverlay({...overlay, problem: problemNotes(outcome.problem).map(note => note.text).join('\n')});
		} else if (outcome.kind === 'conflict') {
			setDetailTick(tick => tick + 1);
			setOverlay({...overlay, problem: `The record changed since: ${describeChanges(fields, outcome.changes).join('; ')}. Check and choose again.`});
		} else {
			setOverlay({...overlay, problem: sanitize(outcome.message)});
		}
	}, [overlay, queueEntry, queueField, store, channelId, page, fields, followUps, nameOf, say, events]);

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
			case 'history': {
				void import('./history.js').then(({loadRunHistory}) => {
					setHistory(loadRunHistory(stateDir, store.db));
					setOverlay({kind: 'history', cursor: 0, open: false});
				});
				break;
			}

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
				else setOverlay({...overlay, typing: textState(typeof queueEntry.followUp.attempted === 'string' || typeof queueEntry.followUp.attempted === 'number' ? String(queueEntry.followUp.attempted) : ''), problem: null});
				break;
			}

			case 'type': {
				if (queueEntry) setOverlay({...overlay, typing: textState(typeof queueEntry.followUp.attempted === 'string' || typeof queueEntry.followUp.attempted === 'number' ? String(queueEntry.followUp.attempted) : ''), problem: null});
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
				try {
					store.dismissFollowUp(queueEntry.followUp.id);
					const open = followUps.load();
					say(`Follow-up dismissed · ${open.length} left`, 'ok');
					setOverlay({...overlay, confirmDismiss: false, index: Math.min(overlay.index, Math.max(0, open.length - 1)), optionCursor: 0, problem: null});
					setDetailTick(tick => tick + 1);
				} catch (error) {
					setOverlay({...overlay, confirmDismiss: false, problem: sanitize((error as Error).message)});
				}
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

	const [openHistory, setOpenHistory] = useState<{run: RunSummary; steps: Step[]} | null>(null);
	const historyOpen = overlay.kind === 'history' && overlay.open ? history[overlay.cursor] ?? null : null;
	useEffect(() => {
		if (!historyOpen) {
			setOpenHistory(null);
			return;
		}

		void import('./history.js').then(({runSteps}) => {
			setOpenHistory({run: historyOpen, steps: runSteps(historyOpen.logPath)});
		});
	}, [historyOpen]);

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
				total={total}
				position={row ? absoluteIndex(win, win.cursor) + 1 : 0}
				loaded={win.rows.length}
				marked={marks.size}
				scope={scopeText || null}
				followUps={followUps.count}
				run={runStatus(run.run, now, frame)}
				newItems={newItems}
				live={!events.stopped}
			/>
			<Box height={bodyHeight} flexDirection="column">
				<Body
					overlay={overlay}
					layout={layout}
					queue={{entry: queueEntry, total: followUps.queue.length, field: queueField, nameKeys: [nameKey, titleKey].filter((key): key is string => key !== undefined)}}
					history={{runs: history, open: openHistory}}
					list={{rows: win.rows, columns, top: win.top, cursor: win.cursor, marks, changed: changedIds, empty: scopeText ? `Nothing matches ${scopeText}. Esc clears.` : 'This channel has no records yet.'}}
					pane={paneNode}
				/>
			</Box>
			<Footer width={size.columns} hints={hintsFor(scope)} message={message} prompt={prompt}/>
		</Box>
	);
}
