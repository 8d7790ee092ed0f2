import type {Field} from '../../../store/index.js';
import type {Action} from '../keys.js';
import {textState} from '../text-input.js';
import {rowAt} from '../window.js';
import {QUIT_QUESTION, type KeyContext} from './context.js';

/** Lines J and K scroll the record pane by. */
const PANE_SCROLL_STEP = 5;

/** The default instruction: triage the chosen records from what their text asks for. */
export function defaultInstruction(fields: Field[], count: number): string {
	const settable = fields.filter(field => field.type !== 'formula' && !field.is_unique && (field.type === 'select' || field.type === 'number' || field.type === 'date' || field.type === 'multi_select')).map(field => field.key);
	const what = count === 1 ? 'this record' : `these ${count} records`;
	return `Triage ${what}: read ${count === 1 ? 'it' : 'each one'} and set ${settable.join(', ') || 'its fields'} from what its text asks for, using only values the schema allows (option values, not labels). Where a wish does not fit the schema, do not guess: leave that field and say what you could not set and why.`;
}

/** Keys on the list: moving, paging, the pane, marks, and opening the overlays. */
export function onListKey(context: KeyContext, action: Action | undefined): void {
	const {page, pane, setPane, run, say, setOverlay} = context;
	switch (action) {
		case 'down':
		case 'up':
		case 'pageDown':
		case 'pageUp':
		case 'top':
		case 'bottom': { moveCursor(context, action); break; }
		case 'open': { if (rowAt(page.window)) setPane('detail'); break; }
		case 'back': {
			if (pane !== 'none') setPane('none');
			else if (page.query.search || page.query.filter) context.relist({}, 'Search and filter cleared.');
			break;
		}

		case 'search': { setOverlay({kind: 'search', text: textState(page.query.search ?? '')}); break; }
		case 'filter': { setOverlay({kind: 'filter', stage: 'field', cursor: 0, field: null}); break; }
		case 'mark':
		case 'markAll': { markRows(context, action); break; }
		case 'edit': { context.edit.openEdit(); break; }
		case 'undo': { context.edit.undoLast(); break; }
		case 'run': { askInstruction(context); break; }
		case 'cancelRun': {
			if (run.active) setOverlay({kind: 'confirm', question: 'Cancel the Codex run? Codex and every process it started are stopped. y/n', action: 'cancelRun'});
			else say('No run is active.', 'warn');
			break;
		}

		case 'followUps': { context.queue.openQueue(); break; }
		case 'history': { context.showHistory(); break; }
		case 'togglePane': { togglePane(context); break; }
		case 'scrollPaneDown': { context.setPaneScroll(lines => lines + PANE_SCROLL_STEP); break; }
		case 'scrollPaneUp': { context.setPaneScroll(lines => Math.max(0, lines - PANE_SCROLL_STEP)); break; }
		case 'reload': { context.relist(page.query, 'Reloaded from the newest record.'); break; }
		case 'help': { setOverlay({kind: 'help'}); break; }
		case 'quit': {
			if (run.active) setOverlay({kind: 'confirm', question: QUIT_QUESTION, action: 'quit'});
			else context.quit();
			break;
		}

		default: { break; }
	}
}

function moveCursor({page, pageRows, relist}: KeyContext, action: 'down' | 'up' | 'pageDown' | 'pageUp' | 'top' | 'bottom'): void {
	const win = page.window;
	switch (action) {
		case 'down': { page.move(1); break; }
		case 'up': { page.move(-1); break; }
		case 'pageDown': { page.move(Math.max(1, pageRows - 1)); break; }
		case 'pageUp': { page.move(-Math.max(1, pageRows - 1)); break; }
		case 'top': {
			if (win.cursor === 0 && win.firstPage > 0) relist(page.query, 'Back to the newest records.');
			else page.moveTo(0);
			break;
		}

		case 'bottom': { page.moveTo(win.rows.length - 1); break; }
	}
}

function markRows({page, marks, setMarks, say}: KeyContext, action: 'mark' | 'markAll'): void {
	const win = page.window;
	if (action === 'mark') {
		const row = rowAt(win);
		if (!row) return;
		setMarks(previous => {
			const next = new Set(previous);
			if (next.has(row.id)) next.delete(row.id);
			else next.add(row.id);
			return next;
		});
		page.move(1);
		return;
	}

	const all = win.rows.every(candidate => marks.has(candidate.id));
	setMarks(all ? new Set() : new Set([...marks, ...win.rows.map(candidate => candidate.id)]));
	say(all ? 'All marks cleared.' : `${win.rows.length} loaded rows marked.`);
}

function askInstruction({page, marks, run, fields, say, setOverlay}: KeyContext): void {
	if (run.active) {
		say('A run is already active; x cancels it.', 'warn');
		return;
	}

	const row = rowAt(page.window);
	const itemIds = marks.size > 0 ? [...marks] : (row ? [row.id] : []);
	if (itemIds.length === 0) {
		say('No record to run on.', 'warn');
		return;
	}

	setOverlay({kind: 'instruction', text: textState(defaultInstruction(fields, itemIds.length)), itemIds});
}

function togglePane({page, pane, setPane, run}: KeyContext): void {
	const row = rowAt(page.window);
	if (pane === 'run') setPane(row ? 'detail' : 'none');
	else if (run.run) setPane('run');
	else if (row) setPane('detail');
}
